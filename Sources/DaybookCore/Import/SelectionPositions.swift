// What a REFI-QDA selection's start and end positions mean in a source's text, checked against the
// text the selection names.
import Foundation

/// REFI-QDA counts positions in Unicode code points. Tools built on .NET count UTF-16 units, some
/// count bytes, and a project whose inline `<PlainTextContent>` held CRLF reaches daybook with LF
/// (XML turns every line break into one) while its positions still count two. A selection's
/// `name`, when there, is the text it selected: the way of counting whose text matches it wins.
struct SelectionPositions {
    enum Unit: String, CaseIterable, Hashable {
        case codePoints = "Unicode code points"
        case utf16 = "UTF-16 units"
        case bytes = "UTF-8 bytes"
        case crlf = "code points with each line break as two (CRLF)"
    }

    let scalars: [Unicode.Scalar]
    /// For each unit but code points: where each scalar starts in it (one more for the end).
    private var starts: [Unit: [Int]] = [:]

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// The scalars `start..<end` select, and the unit that gave them: code points when no name
    /// is given (nothing to check against) or when their text is the name; else the first other
    /// unit whose text is. Nil when the positions are empty, fall outside the text or inside a
    /// character, or no unit's text is the name.
    mutating func range(_ start: Int, _ end: Int, selecting name: String?) -> (Range<Int>, Unit)? {
        for unit in Unit.allCases {
            guard let r = scalarRange(start, end, unit) else { continue }
            guard let name else { return unit == .codePoints ? (r, unit) : nil }
            if SelectionPositions.same(String(String.UnicodeScalarView(scalars[r])), name) { return (r, unit) }
        }
        return nil
    }

    private mutating func scalarRange(_ start: Int, _ end: Int, _ unit: Unit) -> Range<Int>? {
        guard start >= 0, start < end else { return nil }
        if unit == .codePoints { return end <= scalars.count ? start..<end : nil }
        let offsets = offsets(unit)
        guard let a = SelectionPositions.index(of: start, in: offsets), let b = SelectionPositions.index(of: end, in: offsets) else { return nil }
        return a..<b
    }

    private mutating func offsets(_ unit: Unit) -> [Int] {
        if let known = starts[unit] { return known }
        var out = [0]
        out.reserveCapacity(scalars.count + 1)
        var at = 0
        for u in scalars {
            switch unit {
            case .utf16: at += u.utf16.count
            case .bytes: at += u.utf8.count
            case .crlf: at += u == "\n" ? 2 : 1
            case .codePoints: at += 1
            }
            out.append(at)
        }
        starts[unit] = out
        return out
    }

    /// The scalar that starts at `offset` (binary search), nil when none does.
    static func index(of offset: Int, in offsets: [Int]) -> Int? {
        var low = 0, high = offsets.count
        while low < high {
            let mid = (low + high) / 2
            if offsets[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low < offsets.count && offsets[low] == offset ? low : nil
    }

    /// Whether `text` is what `name` says: the same but for line endings and blanks at either end
    /// (tools differ there), or its start when a tool shortened a long name with an ellipsis.
    static func same(_ text: String, _ name: String) -> Bool {
        func key(_ s: String) -> String { s.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines) }
        let t = key(text), n = key(name)
        if t == n { return true }
        for ellipsis in ["…", "..."] where n.hasSuffix(ellipsis) {
            let start = key(String(n.dropLast(ellipsis.count)))
            if start.count >= 10, t.hasPrefix(start) { return true }
        }
        return false
    }
}
