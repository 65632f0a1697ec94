// `daybook edit`: open an entry in the editor, commit it when it changed.
import ArgumentParser
import DaybookCore
import Foundation

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open an entry in the editor; commit it when it changed.",
        discussion: """
        The editor works on the entry file itself, and no lock is held while it is open. If the \
        front matter no longer parses, daybook says where; in a terminal it offers to reopen the \
        editor, otherwise the file stays as the editor left it (uncommitted) and the exit status is 2. \
        A change committed to the entry while the editor was open (tag add, the web app, sync) is \
        kept: merged in as sync merges, or the save is refused saying what it would lose.
        """)

    @Argument(help: "The entry: a path, an id or its prefix, last, today, yesterday or a date.", completion: Completions.entries)
    var entry: String

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        let url = diary.url(rel)
        let before = FileManager.default.contents(atPath: url.path) ?? Data()
        // What the editor starts from: a change committed while it is open (`tag add`, the web
        // app, sync) is merged back in at the save, or the save is refused (EditMerge).
        let base = String(data: before, encoding: .utf8).map { EditBase(text: $0, version: diary.committedVersion(of: rel)?.version ?? "") }
        while true {
            try Editor.open(url)
            let after = FileManager.default.contents(atPath: url.path) ?? Data()
            if after == before {
                global.confirm("daybook: no change to \(diary.displayPath(rel))")
                return
            }
            let outcome = diary.readEntry(rel)
            if outcome.entry != nil {
                let saved = try diary.commitSave(of: rel, base: base, outsideEdits: true)
                if !saved.kept.isEmpty {
                    global.confirm("daybook: kept the change committed while the editor was open (\(saved.kept.joined(separator: ", ")))")
                }
                global.confirm("daybook: saved \(diary.displayPath(rel))")
                return
            }
            outcome.problems.forEach { Terminal.error($0) }
            if Terminal.stdinIsTerminal && Terminal.stderrIsTerminal {
                if FieldPrompt.yesNo("Reopen the editor to fix it?", default: true) { continue }
            }
            // The id, not what was typed: `last` or `today` would now pass over the broken entry.
            throw DaybookError.input("the entry was kept as the editor left it, not committed; fix it and run `daybook edit \(Entry.id(ofPath: rel))` or `daybook check`",
                                     at: SourceLocation(path: diary.displayPath(rel)))
        }
    }
}
