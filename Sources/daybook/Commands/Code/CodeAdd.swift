// `daybook code add`: apply a code to an entry or to a quoted segment of its body.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Apply a code to an entry (--quote TEXT or --lines A-B for a segment).",
        discussion: """
        The quote must occur in the body (else exit 2 and the file is untouched); --occurrence picks \
        which match when it occurs more than once. A code missing from the codebook is added to it, \
        unless codebook.strict is set in daybook.yml, where it is refused with the close names. The \
        coder is --coder, else `coder` in daybook.yml, else git's user.name.
        """)

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date.") var entry: String
    @Argument(help: "The code.") var code: String
    @Option(help: ArgumentHelp("The coded segment: exact text of the body.", valueName: "text")) var quote: String?
    @Option(help: ArgumentHelp("The segment is these body lines (counted from the line after the front matter).", valueName: "A-B")) var lines: String?
    @Option(help: ArgumentHelp("Which occurrence of the quote (1-based).", valueName: "n")) var occurrence: Int?
    @Option(help: ArgumentHelp("A note on this coding.", valueName: "text")) var memo: String?
    @Option(help: ArgumentHelp("Who coded it.", valueName: "name")) var coder: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if quote != nil && lines != nil { throw ValidationError("give --quote or --lines, not both") }
        if let occurrence, occurrence < 1 { throw ValidationError("--occurrence counts from 1") }
        if occurrence != nil && quote == nil && lines == nil { throw ValidationError("--occurrence needs --quote or --lines") }
        if quote?.isEmpty == true { throw ValidationError("--quote is empty") }
    }

    func run() throws {
        let code = try CodeCommand.name(self.code)
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        let display = diary.displayPath(rel)
        var book = try Codebook.load(diary)
        if diary.config.strictCodebook, !book.contains(code) {
            let close = book.closeNames(to: code)
            throw DaybookError.input("`\(code)` is not in the codebook, and daybook.yml says codebook: {strict: true}"
                                     + (close.isEmpty ? "; define it first with `daybook code define \(code)`" : "; did you mean: " + close.joined(separator: ", ") + "?"))
        }
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry", at: SourceLocation(path: display)) }
        var segment = quote
        if let lines { segment = try CodeAdd.quote(lines: lines, of: e, path: display) }
        if let q = segment {
            let n = QuoteAnchor.count(of: q, in: e.body)
            if n == 0 {
                let hint = e.body.lowercased().contains(q.lowercased()) ? " (it does with other upper/lower case: quotes are exact)" : ""
                throw DaybookError.input("the quote \"\(q)\" does not occur in the body\(hint); nothing was changed", at: SourceLocation(path: display))
            }
            if let occurrence, occurrence > n {
                throw DaybookError.input("the quote occurs \(CodeCommand.plural(n, "time")) in the body, not \(occurrence); nothing was changed", at: SourceLocation(path: display))
            }
            if n > 1 && occurrence == nil {
                Terminal.warning(Diagnostic(.warning, "the quote occurs \(n) times; coded the first (--occurrence N codes another)", at: SourceLocation(path: display)))
            }
        }
        let who = try coder ?? diary.config.coder ?? diary.repository().configString("user.name")
        let coding = Coding(code: code, quote: segment, occurrence: (occurrence ?? 1) > 1 ? occurrence : nil, memo: memo, coder: who)
        guard !e.codings.contains(where: { $0.code == code && $0.quote == segment && ($0.occurrence ?? 1) == (occurrence ?? 1) && $0.coder == who }) else {
            throw DaybookError.nothing("daybook: nothing to change: \(e.title) has this coding already")
        }
        let change = try Change(diary)
        try change.editEntry(rel) { text, _ in
            var lines = CodingLines(text)
            lines.append(coding)
            text = lines.text
        }
        if book.addIfMissing(code) { try CodeCommand.save(book, in: change) }
        let what = segment.map { "\(code) on \(e.title): \"\(CodeAdd.short($0))\"" } ?? "\(code) on \(e.title)"
        try change.commit("code add: " + what)
        global.confirm("daybook: coded " + what)
    }

    /// The text of body lines `A-B` (or `A`), without the last line's ending.
    static func quote(lines spec: String, of e: Entry, path: String) throws -> String {
        let parts = spec.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let a = parts.first ?? nil, let b = parts.last ?? nil, a >= 1, b >= a else {
            throw DaybookError.usage("--lines takes A-B with 1 ≤ A ≤ B, such as 3-5 (got `\(spec)`)")
        }
        let body = EntryText.splitLines(e.body)
        guard b <= body.count else {
            throw DaybookError.input("the body has \(CodeCommand.plural(body.count, "line")); --lines \(spec) is beyond it", at: SourceLocation(path: path))
        }
        var text = body[(a - 1)..<b].joined().replacingOccurrences(of: "\r\n", with: "\n")
        if text.hasSuffix("\n") { text.removeLast() }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DaybookError.input("body lines \(spec) are blank: nothing to code", at: SourceLocation(path: path, line: e.bodyStartLine + a - 1))
        }
        return text
    }

    static func short(_ s: String) -> String {
        let one = s.contains("\n") ? s.replacingOccurrences(of: "\n", with: " ") : s
        return one.count > 60 ? String(one.prefix(57)) + "…" : one
    }
}
