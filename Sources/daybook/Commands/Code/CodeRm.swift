// `daybook code rm`: remove codings of a code from an entry's front matter.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeRm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove an entry's codings of CODE (only the one on --quote, only --coder's).",
        discussion: """
        Without --quote every front-matter coding of CODE in the entry goes. Highlighter codings live \
        in the stroke file and are not removed here. Exit 1 when no coding matches.
        """)

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date.", completion: Completions.entries) var entry: String
    @Argument(help: "The code.", completion: Completions.codes) var code: String
    @Option(help: ArgumentHelp("Only the coding of this quote.", valueName: "text")) var quote: String?
    @Option(help: ArgumentHelp("Only this coder's codings.", valueName: "name")) var coder: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        // The entry is found and read within the change, from the walk it made for the outside
        // edits (issue 19), which it has committed by then.
        let change = try Change(diary)
        let rel = try EntryReference(change).resolve(entry)
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry", at: SourceLocation(path: diary.displayPath(rel))) }
        let removal = try CodeRemoval(code: code, quote: quote, coder: coder, entry: e, diary: diary)
        try removal.write(entry: rel, in: change)
        try change.commit("code rm: " + removal.summary(title: e.title))
        global.confirm("daybook: removed " + removal.summary(title: e.title))
    }
}
