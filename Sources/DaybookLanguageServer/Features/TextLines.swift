// A document's lines, for turning LSP positions (UTF-16 code units) into string indices and back.
import Foundation

/// The start of every line of a text (after each `\n`), so that a position becomes an index
/// (and back) with a search instead of a walk over the whole text.
struct TextLines {
    let text: String
    /// Index where each line starts; the first is the text's start.
    let starts: [String.Index]

    init(_ text: String) {
        self.text = text
        var starts = [text.startIndex]
        let u = text.utf8
        var i = u.startIndex
        while let nl = u[i...].firstIndex(of: UInt8(ascii: "\n")) {
            i = u.index(after: nl)
            starts.append(i)
        }
        self.starts = starts
    }

    var count: Int { starts.count }

    /// The line's text without its `\n` or `\r\n`; empty past the end.
    func line(_ n: Int) -> Substring {
        guard n >= 0, n < starts.count else { return "" }
        return text[starts[n]..<lineEnd(n)]
    }

    /// Where line `n`'s content ends (before `\r\n` or `\n`).
    func lineEnd(_ n: Int) -> String.Index {
        var end = n + 1 < starts.count ? text.utf8.index(before: starts[n + 1]) : text.endIndex
        if end > starts[n], text.utf8[text.utf8.index(before: end)] == UInt8(ascii: "\r") { end = text.utf8.index(before: end) }
        return end
    }

    /// The index of a position; a position past a line's end is its end, past the text the text's end.
    func index(of p: Position) -> String.Index {
        guard p.line >= 0 else { return text.startIndex }
        guard p.line < starts.count else { return text.endIndex }
        let end = lineEnd(p.line)
        let u16 = text.utf16
        return u16.index(starts[p.line], offsetBy: max(0, p.character), limitedBy: end).map { min($0, end) } ?? end
    }

    /// The position of an index.
    func position(of i: String.Index) -> Position {
        // The last line start at or before i.
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return Position(line: lo, character: text.utf16.distance(from: starts[lo], to: i))
    }

    /// A 1-based line and 1-based column counted in Unicode scalars (YAML's marks, daybook's
    /// SourceLocation) as a position.
    func position(line: Int, scalarColumn column: Int) -> Position {
        let n = line - 1
        guard n >= 0, n < starts.count else { return Position(line: max(0, min(n, starts.count - 1)), character: 0) }
        let scalars = text.unicodeScalars
        let end = lineEnd(n)
        let i = scalars.index(starts[n], offsetBy: max(0, column - 1), limitedBy: end).map { min($0, end) } ?? end
        return position(of: i)
    }

    /// The range of a line's content, from its first non-blank character (or `from`) to its
    /// last non-blank one.
    func contentRange(line n: Int, from: String.Index? = nil) -> LSPRange {
        guard n >= 0, n < starts.count else { return LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)) }
        let l = line(n)
        var start = from ?? l.firstIndex { $0 != " " && $0 != "\t" } ?? l.endIndex
        if start > l.endIndex { start = l.endIndex }
        var end = l.endIndex
        while end > start, let prev = Optional(l.index(before: end)), l[prev] == " " || l[prev] == "\t" { end = prev }
        if end == start { end = l.endIndex }
        return LSPRange(start: position(of: start), end: position(of: end))
    }

    func range(_ r: Range<String.Index>) -> LSPRange {
        LSPRange(start: position(of: r.lowerBound), end: position(of: r.upperBound))
    }
}
