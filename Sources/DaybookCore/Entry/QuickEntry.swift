// One-line entries as jrnl writes them: "yesterday 5pm: Met the nurse. She said #tablet is slow."
import Foundation

/// A one-line entry read into its parts: an optional date prefix, the first sentence as the
/// title, the rest as the body.
public struct QuickEntry: Equatable {
    /// The moment the prefix named, nil without one (the entry then takes now).
    public var date: LocalDateTime?
    /// What a daylight-saving change did to the prefix's time, for the command to say.
    public var dateNote: ClockChange?
    public var title: String
    public var body: String

    /// Splits `text` as jrnl does. The date prefix is the text before the first `": "` (or a
    /// colon ending the first line) when it is a WHEN (`DateExpression`); otherwise the colon is
    /// part of the title ("Note: call Anna." has no date). The title is the first sentence: up to
    /// the first `.`, `?` or `!` followed by a space or the end, or the first line; a single
    /// closing full stop is dropped (a title reads as a heading), `?` and `!` are kept.
    public static func parse(_ text: String, clock: Clock, mondayFirst: Bool) -> QuickEntry {
        var rest = Substring(text.replacingOccurrences(of: "\r\n", with: "\n")).drop(while: \.isWhitespace)
        var entry = QuickEntry(date: nil, dateNote: nil, title: "", body: "")
        let firstLine = rest.prefix(while: { $0 != "\n" })
        if let colon = firstLine.firstIndex(of: ":") {
            let after = rest.index(after: colon)
            let prefix = rest[..<colon]
            // "4:37pm" holds a colon too: only a colon followed by white space (or the line's end) ends the prefix.
            let ends = after == rest.endIndex || rest[after].isWhitespace
            if ends, !prefix.isEmpty, let moment = try? DateExpression.momentNotingClockChange(String(prefix), clock: clock, mondayFirst: mondayFirst) {
                entry.date = moment.time
                entry.dateNote = moment.note
                rest = rest[after...].drop(while: \.isWhitespace)
            } else if !ends, let next = firstLine[after...].range(of: ": ") {
                // The first colon was inside the time ("2013-11-30 15:42: Project Started."): try the next.
                let longer = rest[..<next.lowerBound]
                if let moment = try? DateExpression.momentNotingClockChange(String(longer), clock: clock, mondayFirst: mondayFirst) {
                    entry.date = moment.time
                    entry.dateNote = moment.note
                    rest = rest[next.upperBound...].drop(while: \.isWhitespace)
                }
            }
        }
        let end = sentenceEnd(rest)
        var title = rest[..<end].trimmingCharacters(in: .whitespaces)
        if title.hasSuffix("."), !title.hasSuffix("..") { title.removeLast() }
        entry.title = title
        entry.body = rest[end...].trimmingCharacters(in: .whitespacesAndNewlines)
        return entry
    }

    /// Where the first sentence ends: after its `.`, `?` or `!` run when white space or the end
    /// follows, else at the first line break.
    static func sentenceEnd(_ s: Substring) -> Substring.Index {
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "\n" { return i }
            if ".?!".contains(c) {
                var j = s.index(after: i)
                while j < s.endIndex, ".?!".contains(s[j]) { j = s.index(after: j) }
                if j == s.endIndex || s[j].isWhitespace { return j }
                i = j
                continue
            }
            i = s.index(after: i)
        }
        return s.endIndex
    }
}
