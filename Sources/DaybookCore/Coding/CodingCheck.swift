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
        // Entries with codings are checked on every core; the text is read only for a problem
        // to place, the body only for an orphaned quote, to say how often it does occur.
        let coded = entries.indices.filter { !entries[$0].codings.isEmpty }
        InOrder.forEach(coded.count, { j -> [Diagnostic] in
            let e = entries[coded[j]]
            let path = diary.displayPath(e.path)
            return CodingCheck.problems(of: e, text: {
                FileManager.default.contents(atPath: diary.url(e.path).path)
                    .flatMap { String(validatingUTF8Data: $0) }
                    .flatMap { try? EntryText($0, path: path) }
            }, codebook: book, diary: diary, undefinedCodes: false) { e.body.isEmpty ? diary.readBody(e.path) ?? "" : e.body }
        }, consume: { _, found in out += found })
        return out
    }

    /// The problems of one entry's codings. `text` is the entry's text (its codings' lines give
    /// the places), `body` gives the body when a quote has to be counted. With `undefinedCodes`,
    /// a code missing from a codebook that is not strict is a warning too (an editor shows it
    /// while typing; `check` stays quiet about inductive codes).
    public static func problems(of e: Entry, text: EntryText?, codebook book: Codebook, diary: Diary,
                                undefinedCodes: Bool = false, body readBody: () -> String) -> [Diagnostic] {
        problems(of: e, text: { text }, codebook: book, diary: diary, undefinedCodes: undefinedCodes, body: readBody)
    }

    /// The same with the text asked for only when a problem is to be placed.
    static func problems(of e: Entry, text readText: () -> EntryText?, codebook book: Codebook, diary: Diary,
                         undefinedCodes: Bool, body readBody: () -> String) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let path = diary.displayPath(e.path)
        // Looked up by value, not searched in a list: 5,000 codings took seconds (issue 20).
        var places: [Coding: [(coding: Coding, line: Int, quoteLine: Int?)]]?
        // How many front-matter codings equal to each came before: the n-th such coding sits on
        // the n-th such line.
        var before: [Coding: Int] = [:]
        var seen: Set<[String?]> = []
        var body: QuoteSearch?
        for (k, c) in e.codings.enumerated() {
            var n = 0
            if c.source == .frontMatter {
                n = before[c, default: 0]
                before[c] = n + 1
            }
            // Where a problem of this coding is told (the text is read for the first one).
            func location() -> (at: SourceLocation, quoteAt: SourceLocation?) {
                if c.source == .frontMatter {
                    if places == nil { places = Dictionary(grouping: readText().map { CodingLines($0).located } ?? [], by: { $0.coding }) }
                    if let lines = places?[c], n < lines.count {
                        return (SourceLocation(path: path, line: lines[n].line), lines[n].quoteLine.map { SourceLocation(path: path, line: $0) })
                    }
                } else if case .ink = c.source {
                    return (SourceLocation(path: String(path.dropLast(3)) + ".strokes.json"), nil)
                }
                return (SourceLocation(path: path), nil)
            }
            let what = c.quote.map { "`\(c.code)` on \"\($0)\"" } ?? "`\(c.code)`"
            if let q = c.quote, e.anchor(k) == nil {
                if body == nil { body = QuoteSearch(readBody()) }
                let found = body!.count(of: q)
                let why = found == 0 ? "the quote no longer occurs in the body" : "the quote occurs \(found) time\(found == 1 ? "" : "s"), not \(c.occurrence ?? 1)"
                let (at, quoteAt) = location()
                out.append(Diagnostic(.warning, "orphaned coding \(what): \(why); it is kept until you fix the quote or remove it", at: quoteAt ?? at))
            }
            if (diary.config.strictCodebook || undefinedCodes), !book.contains(c.code) {
                let close = book.closeNames(to: c.code)
                let at = location().at
                var d = diary.config.strictCodebook
                    ? Diagnostic(.error, "the code `\(c.code)` is not in the codebook (strict)" + (close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")), at: at)
                    : Diagnostic(.warning, "the code `\(c.code)` is not in the codebook yet" + (close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")), at: at)
                d.undefinedCode = c.code
                d.closeNames = close
                out.append(d)
            }
            // Same code, segment and coder (the memo aside).
            if !seen.insert([c.code, c.quote, String(c.occurrence ?? 1), c.coder]).inserted {
                out.append(Diagnostic(.warning, "duplicate coding \(what)\(c.coder.map { " by \($0)" } ?? "")", at: location().at))
            }
        }
        return out
    }
}
