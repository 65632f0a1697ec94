// `daybook tag rm`: remove front-matter tags; inline #tags in the body stay, with a warning.
import ArgumentParser
import DaybookCore
import Foundation

struct TagRm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove front-matter tags from an entry (ENTRY - : every entry named on stdin, in one commit).",
        discussion: """
        Inline #tags in the body are not touched: a warning says where a removed tag is also written \
        inline. Removing `a` keeps `a/b`. Exit 1 when no entry had the tags.
        """)

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date; `-` reads many from stdin.") var entry: String
    @Argument(help: "Tags to remove.") var tags: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let tags = try TagCommand.tags(from: self.tags)
        let diary = try global.openDiary()
        let rels = try EntryReference(diary).resolveMany([entry], stdin: TagCommand.readStandardInput)
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named on stdin") }
        let change = try Change(diary)
        var titles: [String] = []
        var removed = Set<String>()
        for rel in rels {
            try change.editEntry(rel) { text, entry in
                var lines = TagLines(text)
                let gone = lines.remove(tags)
                if !gone.isEmpty { titles.append(entry.title); removed.formUnion(gone) }
                text = lines.text
                for t in tags where entry.inlineTags.contains(t) {
                    Terminal.warning(Diagnostic(.warning, "#\(t) is also written in the body, which tag rm leaves as it is (edit the entry to remove it)",
                                                at: SourceLocation(path: diary.displayPath(rel))))
                }
            }
        }
        guard !titles.isEmpty else { throw DaybookError.nothing("daybook: nothing to change: no front-matter tag \(tags.map { "#" + $0 }.joined(separator: " ")) on \(rels.count == 1 ? "the entry" : "these entries")") }
        let summary = TagCommand.summary("-", tags.filter(removed.contains), titles: titles)
        try change.commit("tag: " + summary + (titles.count > 1 ? "\n\n" + titles.joined(separator: "\n") : ""))
        global.confirm("daybook: untagged \(summary)")
    }
}
