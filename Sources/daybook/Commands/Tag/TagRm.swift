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

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date; `-` reads many from stdin.", completion: Completions.entries) var entry: String
    @Argument(help: "Tags to remove.", completion: Completions.tags) var tags: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let tags = try TagCommand.tags(from: self.tags)
        try TagCommand.change(entry, tags: tags, global: global, sign: "-", verb: "untagged",
                              nothing: { "no front-matter tag \(tags.map { "#" + $0 }.joined(separator: " ")) on \($0 ? "these entries" : "the entry")" }) { lines, entry, path in
            for t in tags where entry.inlineTags.contains(t) {
                Terminal.warning(Diagnostic(.warning, "#\(t) is also written in the body, which tag rm leaves as it is (edit the entry to remove it)",
                                            at: SourceLocation(path: path)))
            }
            return lines.remove(tags)
        }
    }
}
