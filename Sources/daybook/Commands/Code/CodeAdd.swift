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
        which match when it occurs more than once. A quote's line endings are stored as the body has \
        them. On a coding that exists (same code, quote, occurrence and coder), --memo replaces its \
        memo and says what it was; without a new memo there is nothing to change (exit 1). A code missing from the codebook is added to it, \
        unless codebook.strict is set in daybook.yml, where it is refused with the close names. The \
        coder is --coder, else `coder` in daybook.yml, else git's user.name.
        """)

    @Argument(help: "The entry: a path, an id, an id prefix, last, today, a date.", completion: Completions.entries) var entry: String
    @Argument(help: "The code.", completion: Completions.codes) var code: String
    @Option(help: ArgumentHelp("The coded segment: exact text of the body.", valueName: "text")) var quote: String?
    @Option(help: ArgumentHelp("The segment is these body lines (counted from the line after the front matter).", valueName: "A-B")) var lines: String?
    @Option(help: ArgumentHelp("Which occurrence of the quote (1-based).", valueName: "n")) var occurrence: Int?
    @Option(help: ArgumentHelp("A note on this coding.", valueName: "text")) var memo: String?
    @Option(help: ArgumentHelp("Who coded it.", valueName: "name")) var coder: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if quote != nil && lines != nil { throw ValidationError("give --quote or --lines, not both") }
        if occurrence != nil && quote == nil && lines == nil { throw ValidationError("--occurrence needs --quote or --lines") }
    }

    func run() throws {
        let diary = try global.openDiary()
        // The entry is found and read within the change, from the walk it made for the outside
        // edits (issue 19), which it has committed by then.
        let change = try Change(diary)
        let rel = try EntryReference(change).resolve(entry)
        let display = diary.displayPath(rel)
        let book = try Codebook.load(diary)
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry", at: SourceLocation(path: display)) }
        let segment = try lines.map { try CodeAdd.quote(lines: $0, of: e, path: display) } ?? quote
        let application = try CodeApplication(code: code, quote: segment, occurrence: occurrence, memo: memo, coder: coder,
                                              entry: e, diary: diary, codebook: book)
        application.warnings.forEach(Terminal.warning)
        try application.write(entry: rel, codebook: book, in: change)
        try change.commit(application.commitMessage(title: e.title))
        switch application.outcome {
        case .added:
            global.confirm("daybook: coded " + application.summary(title: e.title))
        case .memoChanged(let old):
            global.confirm("daybook: memo of " + application.summary(title: e.title) + " changed"
                           + (old.map { " (it was \"\($0)\")" } ?? " (it had none)"))
        }
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
}
