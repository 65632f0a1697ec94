// `daybook append`: a paragraph with the time at the end of an entry, today's by default.
import ArgumentParser
import DaybookCore
import Foundation

struct Append: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a paragraph with the time (**14:32** text) at the end of an entry; one commit.",
        discussion: """
        Without ENTRY, today's entry: the newest entry of today made from the `daily` template (or \
        made by append); when there is none, a plain entry titled by the day, or, when the daily \
        template names a heading (append_under:), an entry from it with the notes under that \
        heading. The text comes from -m; else \
        from stdin when stdin is not a terminal; else from the editor. Empty text appends nothing \
        and exits 1. Only the bytes after the end of the file change.
        """)

    @Argument(help: "The entry: a path, an id or its prefix, last, today, yesterday or a date (default: today's daily entry).",
              completion: Completions.entries)
    var entry: String?
    // As git commit -m: the next word is the text even when it starts with `-` ("- bought milk").
    @Option(name: [.customShort("m"), .long], parsing: .unconditional, help: "The text (may start with -).")
    var message: String?
    @Flag(inversion: .prefixedNo, help: "Open the editor (default: only when no text is given and stdin is a terminal).")
    var edit: Bool?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let (rel, created): (String, Bool)
        if let text = TextInput.withoutAsking(message: message, edit: edit, start: nil) {
            // The text is there: the entry is found within the change, from the walk it makes
            // for the outside edits (issue 19: the working folder is walked once).
            (rel, created) = try EntryAppend.commit(text, toEntryNamed: entry, in: diary)
        } else {
            // The entry is found, and found readable, before the editor asks for the text.
            let target = try EntryAppend.target(try entry.map { try EntryReference(diary).resolve($0) }, in: diary)
            let text = try TextInput.read(message: message, edit: edit, start: nil, diary: diary)
            (rel, created) = try EntryAppend.commit(text, to: target, in: diary)
        }
        Terminal.out(diary.displayPath(rel))
        global.confirm("daybook: \(created ? "made today's entry and " : "")appended to \(diary.displayPath(rel))")
    }
}
