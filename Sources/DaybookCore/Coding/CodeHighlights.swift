// Every highlight of one code across the diary, with its entry, coder, memo and context: Taguette's highlights view.
import Foundation

public struct CodeHighlight: Sendable {
    public var entryID: String
    public var title: String
    public var date: LocalDateTime
    /// The code of the coding (the code asked for, or one under it in the codebook's tree).
    public var code: String
    /// Who made it, by the one rule (`Coding.madeBy`); nil when nobody can be named.
    public var coder: String?
    public var memo: String?
    /// The coded text; nil for a coding of the whole entry or a highlighter stroke.
    public var quote: String?
    /// Up to `contextLength` characters of the body before and after the quote, where it still occurs.
    public var before: String
    public var after: String
}

public enum CodeHighlights {
    public static let contextLength = 80

    /// The codings of `codes` (a code and those under it) in `entries`, newest entry first,
    /// made by `coder` when one is given.
    public static func of(_ codes: Set<String>, in entries: [Entry], defaultCoder: String?, coder: String? = nil) -> [CodeHighlight] {
        var out: [CodeHighlight] = []
        for e in entries.sorted(by: { $0.date > $1.date }) {
            for (k, c) in e.codings.enumerated() where codes.contains(c.code) {
                let who = c.madeBy(defaultCoder: defaultCoder)
                if let coder, who != coder { continue }
                var before = "", after = ""
                if c.quote != nil, let a = e.anchor(k) {
                    let scalars = Array(e.body.unicodeScalars)
                    if a.end <= scalars.count {
                        before = String(String.UnicodeScalarView(scalars[max(0, a.start - contextLength)..<a.start]))
                        after = String(String.UnicodeScalarView(scalars[a.end..<min(scalars.count, a.end + contextLength)]))
                    }
                }
                out.append(CodeHighlight(entryID: e.id, title: e.title, date: e.date, code: c.code, coder: who, memo: c.memo,
                                         quote: c.quote, before: before, after: after))
            }
        }
        return out
    }

    /// The highlights as RFC 4180 CSV (`export csv --codings`'s quoting), with their context.
    public static func csv(_ highlights: [CodeHighlight]) -> String {
        CSVExport.row(["id", "date", "title", "code", "coder", "memo", "before", "quote", "after"])
            + highlights.map { h in
                CSVExport.row([h.entryID, h.date.description, h.title, h.code, h.coder ?? "", h.memo ?? "", h.before, h.quote ?? "", h.after])
            }.joined()
    }
}
