// The coding checks of `code check` and `daybook check`: orphans, undefined codes, duplicates.
import Foundation

/// Orphaned quotes (kept, never dropped), codes missing from the codebook in strict mode,
/// duplicate codings (same code, segment and coder twice in one entry), an unreadable codebook.
public struct CodingCheck: DiaryCheck {
    public init() {}

    public func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        var out: [Diagnostic] = []
        var book = Codebook()
        do { book = try Codebook.load(diary) } catch let e as DaybookError { out.append(Diagnostic(e, severity: .error)) }
        for e in entries where !e.codings.isEmpty {
            let path = diary.displayPath(e.path)
            let text = FileManager.default.contents(atPath: diary.url(e.path).path)
                .flatMap { String(validatingUTF8Data: $0) }
                .flatMap { try? EntryText($0, path: path) }
            // The body is read only for an orphaned quote, to say how often it does occur.
            out += CodingCheck.problems(of: e, text: text, codebook: book, diary: diary) {
                e.body.isEmpty ? diary.readBody(e.path) ?? "" : e.body
            }
        }
        return out
    }

    /// The problems of one entry's codings. `text` is the entry's text (its codings' lines give
    /// the places), `body` gives the body when a quote has to be counted. With `undefinedCodes`,
    /// a code missing from a codebook that is not strict is a warning too (an editor shows it
    /// while typing; `check` stays quiet about inductive codes).
    public static func problems(of e: Entry, text: EntryText?, codebook book: Codebook, diary: Diary,
                                undefinedCodes: Bool = false, body readBody: () -> String) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let path = diary.displayPath(e.path)
        // Looked up by value, not searched in a list: 5,000 codings took seconds (issue 20).
        let places = Dictionary(grouping: text.map { CodingLines($0).located } ?? [], by: { $0.coding })
        var placed: [Coding: Int] = [:]
        var seen: Set<[String?]> = []
        var body: QuoteSearch?
        for (k, c) in e.codings.enumerated() {
            // The n-th front-matter coding equal to this one sits on the n-th such line.
            var at = SourceLocation(path: path)
            var quoteAt: SourceLocation?
            if c.source == .frontMatter, let lines = places[c], placed[c, default: 0] < lines.count {
                let place = lines[placed[c, default: 0]]
                placed[c, default: 0] += 1
                at.line = place.line
                quoteAt = place.quoteLine.map { SourceLocation(path: path, line: $0) }
            } else if case .ink = c.source {
                at = SourceLocation(path: String(path.dropLast(3)) + ".strokes.json")
            }
            let what = c.quote.map { "`\(c.code)` on \"\($0)\"" } ?? "`\(c.code)`"
            if let q = c.quote, e.anchor(k) == nil {
                if body == nil { body = QuoteSearch(readBody()) }
                let n = body!.count(of: q)
                let why = n == 0 ? "the quote no longer occurs in the body" : "the quote occurs \(n) time\(n == 1 ? "" : "s"), not \(c.occurrence ?? 1)"
                out.append(Diagnostic(.warning, "orphaned coding \(what): \(why); it is kept until you fix the quote or remove it", at: quoteAt ?? at))
            }
            if (diary.config.strictCodebook || undefinedCodes), !book.contains(c.code) {
                let close = book.closeNames(to: c.code)
                var d = diary.config.strictCodebook
                    ? Diagnostic(.error, "the code `\(c.code)` is not in the codebook (strict)" + (close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")), at: at)
                    : Diagnostic(.warning, "the code `\(c.code)` is not in the codebook yet" + (close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")), at: at)
                d.undefinedCode = c.code
                d.closeNames = close
                out.append(d)
            }
            // Same code, segment and coder (the memo aside).
            if !seen.insert([c.code, c.quote, String(c.occurrence ?? 1), c.coder]).inserted {
                out.append(Diagnostic(.warning, "duplicate coding \(what)\(c.coder.map { " by \($0)" } ?? "")", at: at))
            }
        }
        return out
    }
}
