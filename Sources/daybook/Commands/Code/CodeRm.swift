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

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date.") var entry: String
    @Argument(help: "The code.") var code: String
    @Option(help: ArgumentHelp("Only the coding of this quote.", valueName: "text")) var quote: String?
    @Option(help: ArgumentHelp("Only this coder's codings.", valueName: "name")) var coder: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let code = try CodeCommand.name(self.code)
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry", at: SourceLocation(path: diary.displayPath(rel))) }
        func matches(_ c: Coding) -> Bool {
            c.code == code && (quote == nil || c.quote == quote) && (coder == nil || c.coder == coder)
        }
        let hits = e.codings.filter(matches)
        guard hits.contains(where: { $0.source == .frontMatter }) else {
            if !hits.isEmpty {
                throw DaybookError.input("this coding is a highlighter stroke: it lives in \(diary.displayPath(String(rel.dropLast(3)) + ".strokes.json")); remove the stroke's code there")
            }
            throw DaybookError.nothing("daybook: \(e.title) has no coding `\(code)`\(quote.map { " on \"\($0)\"" } ?? "")\(coder.map { " by \($0)" } ?? "")")
        }
        let change = try Change(diary)
        var removed = 0
        try change.editEntry(rel) { text, _ in
            var lines = CodingLines(text)
            removed = lines.update { matches($0) ? nil : $0 }
            text = lines.text
        }
        let what = "\(code) on \(e.title)" + (removed > 1 ? " (\(removed) codings)" : "")
        try change.commit("code rm: " + what)
        global.confirm("daybook: removed " + what)
    }
}
