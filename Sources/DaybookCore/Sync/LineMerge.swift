// A line-based three-way merge (diff3): changes to different regions of a text both apply.
import Foundation

public enum LineMerge {
    public struct Result: Equatable, Sendable {
        public var lines: [String]
        /// Both sides changed the same region differently; `lines` holds ours there.
        public var conflicted: Bool
    }

    /// Merges the changes `ours` and `theirs` made to `base`. Where both changed the same region
    /// differently, ours is kept and `conflicted` is set: no conflict markers are ever written.
    public static func merge(base: [String], ours: [String], theirs: [String]) -> Result {
        let toOurs = matches(base, ours), toTheirs = matches(base, theirs)
        var out: [String] = []
        var conflicted = false
        var i = 0, j = 0, k = 0
        while i < base.count || j < ours.count || k < theirs.count {
            // Lines all three hold in step are stable.
            var n = 0
            while i + n < base.count, toOurs[i + n] == j + n, toTheirs[i + n] == k + n { n += 1 }
            if n > 0 {
                out += base[i..<(i + n)]
                i += n; j += n; k += n
                continue
            }
            // The changed region ends at the next base line that both sides kept.
            var o = i
            while o < base.count, toOurs[o] == nil || toTheirs[o] == nil { o += 1 }
            let oursEnd = o < base.count ? toOurs[o] ?? ours.count : ours.count
            let theirsEnd = o < base.count ? toTheirs[o] ?? theirs.count : theirs.count
            let b = base[i..<o], x = ours[j..<oursEnd], y = theirs[k..<theirsEnd]
            if x.elementsEqual(b) { out += y }
            else if y.elementsEqual(b) || x.elementsEqual(y) { out += x }
            else if extends(x, y, b) { out += x }
            else if extends(y, x, b) { out += y }
            else { out += x; conflicted = true }
            guard o > i || oursEnd > j || theirsEnd > k else { break }
            i = o; j = oursEnd; k = theirsEnd
        }
        return Result(lines: out, conflicted: conflicted)
    }

    /// Whether `long` holds the change `short` made to the region `b` and more: both only added
    /// lines after it (`short` starts with `b`, `long` with `short`), or both only before it. An
    /// editor that appended to a file another command had appended to (not a stale copy) makes
    /// this; taking `long` keeps both changes.
    static func extends(_ long: ArraySlice<String>, _ short: ArraySlice<String>, _ b: ArraySlice<String>) -> Bool {
        guard short.count > b.count, long.count > short.count else { return false }
        return (short.starts(with: b) && long.starts(with: short))
            || (short.reversed().starts(with: b.reversed()) && long.reversed().starts(with: short.reversed()))
    }

    /// For each line of `a`, the line of `b` it is paired with in a longest common subsequence.
    static func matches(_ a: [String], _ b: [String]) -> [Int?] {
        var pairs = [Int?](repeating: nil, count: a.count)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { pairs[prefix] = prefix; prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            pairs[a.count - 1 - suffix] = b.count - 1 - suffix
            suffix += 1
        }
        let n = a.count - prefix - suffix, m = b.count - prefix - suffix
        // A huge rewritten middle stays unpaired: the merge then sees one changed region, which
        // can only make it more careful (a conflict copy), never wrong.
        guard n > 0, m > 0, n * m <= 16_000_000 else { return pairs }
        // Lines as numbers, so the table compares integers.
        var numbers: [String: Int] = [:]
        func number(_ line: String) -> Int {
            if let k = numbers[line] { return k }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let x = a[prefix..<(prefix + n)].map(number), y = b[prefix..<(prefix + m)].map(number)
        // lengths[i][j]: the longest common subsequence of x[i...] and y[j...].
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] = x[i] == y[j] ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var i = 0, j = 0
        while i < n, j < m {
            if x[i] == y[j] { pairs[prefix + i] = prefix + j; i += 1; j += 1 }
            else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] { i += 1 }
            else { j += 1 }
        }
        return pairs
    }
}
