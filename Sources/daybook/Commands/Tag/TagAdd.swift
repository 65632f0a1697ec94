// `daybook tag add`: add front-matter tags to one entry, or to every entry named on stdin.
import ArgumentParser
import DaybookCore
import Foundation

struct TagAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add front-matter tags to an entry (ENTRY - : every entry named on stdin, in one commit).",
        discussion: "Only the `tags:` line(s) of each file change. Exit 1 when every entry already has the tags.")

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date; `-` reads many from stdin.", completion: Completions.entries) var entry: String
    @Argument(help: "Tags to add.", completion: Completions.tags) var tags: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let tags = try TagCommand.tags(from: self.tags)
        try TagCommand.change(entry, tags: tags, global: global, sign: "+", verb: "tagged",
                              nothing: { "\($0 ? "every entry has" : "the entry has") \(tags.map { "#" + $0 }.joined(separator: " ")) already" }) { lines, _, _ in
            lines.add(tags)
        }
    }
}
