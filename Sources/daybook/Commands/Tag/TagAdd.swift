// `daybook tag add`: add front-matter tags to one entry, or to every entry named on stdin.
import ArgumentParser
import DaybookCore
import Foundation

struct TagAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add front-matter tags to an entry (ENTRY - : every entry named on stdin, in one commit).",
        discussion: "Only the `tags:` line(s) of each file change. Exit 1 when every entry already has the tags.")

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date; `-` reads many from stdin.") var entry: String
    @Argument(help: "Tags to add.") var tags: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let tags = try TagCommand.tags(from: self.tags)
        let diary = try global.openDiary()
        let rels = try EntryReference(diary).resolveMany([entry], stdin: TagCommand.readStandardInput)
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named on stdin") }
        let change = try Change(diary)
        var titles: [String] = []
        var added = Set<String>()
        for rel in rels {
            try change.editEntry(rel) { text, entry in
                var lines = TagLines(text)
                let new = lines.add(tags)
                if !new.isEmpty { titles.append(entry.title); added.formUnion(new) }
                text = lines.text
            }
        }
        guard !titles.isEmpty else { throw DaybookError.nothing("daybook: nothing to change: \(rels.count == 1 ? "the entry has" : "every entry has") \(tags.map { "#" + $0 }.joined(separator: " ")) already") }
        let summary = TagCommand.summary("+", tags.filter(added.contains), titles: titles)
        try change.commit("tag: " + summary + (titles.count > 1 ? "\n\n" + titles.joined(separator: "\n") : ""))
        global.confirm("daybook: tagged \(summary)")
    }
}
