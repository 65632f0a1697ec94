// Inter-coder agreement per code: percent agreement, Cohen's kappa and Krippendorff's alpha over
// entries, and how much of the text both coders coded.
import Foundation

/// Agreement of two coders on one code. Each entry is one unit: each coder either coded the code
/// in it (anywhere, any number of times) or did not.
///
/// With n entries, `both` coded by both, `neither` by none, `a` and `b` by each coder:
///   p_o = (both + neither) / n                          observed agreement
///   p_e = (a/n)(b/n) + (1 − a/n)(1 − b/n)                agreement expected by chance
///   κ   = (p_o − p_e) / (1 − p_e)
/// When p_e = 1 neither coder varies (both coded every entry, or both none): κ is undefined
/// and reported as nil, while p_o is 1.
///
/// Krippendorff's alpha (nominal, two coders, no missing values) on the same units: each entry
/// gives the pair of values (coded or not) of the two coders. With n = 2·units pairable values,
/// n₁ = a + b values "coded", n₀ = n − n₁, and d = a + b − 2·both entries on which they differ,
///   D_o = d / units,  D_e = 2·n₀·n₁ / (n (n − 1)),  α = 1 − D_o / D_e = 1 − (n − 1)·d / (n₀·n₁)
/// (Krippendorff, Computing Krippendorff's Alpha-Reliability, 2011, section C); undefined when every
/// value is the same (n₀·n₁ = 0).
///
/// Segments: the characters (Unicode scalars of the body) each coder's codings of the code cover,
/// a whole-entry coding covering the whole body, summed over entries; `overlap` is the share of the
/// characters either coder coded that both coded.
public struct Agreement: Equatable, Sendable {
    public var code: String
    /// Entries considered.
    public var units: Int
    /// Entries coder A, coder B, and both coded with the code.
    public var a: Int
    public var b: Int
    public var both: Int

    public var neither: Int { units - a - b + both }

    /// Characters coded by A, by B, and by both (see the type's comment).
    public var charsA = 0
    public var charsB = 0
    public var charsBoth = 0

    /// Of the characters either coder coded, the share both coded, from 0 to 1; nil when none.
    public var overlap: Double? {
        let either = charsA + charsB - charsBoth
        return either == 0 ? nil : Double(charsBoth) / Double(either)
    }

    /// Krippendorff's alpha (nominal); nil when it is undefined.
    public var alpha: Double? {
        let n = 2 * units, n1 = a + b, n0 = n - n1
        guard units > 0, n0 > 0, n1 > 0 else { return nil }
        return 1 - Double(n - 1) * Double(a + b - 2 * both) / (Double(n0) * Double(n1))
    }

    /// p_o, from 0 to 1; nil without entries.
    public var observed: Double? {
        units == 0 ? nil : Double(both + neither) / Double(units)
    }

    /// p_e, from 0 to 1; nil without entries.
    public var expected: Double? {
        guard units > 0 else { return nil }
        let pa = Double(a) / Double(units), pb = Double(b) / Double(units)
        return pa * pb + (1 - pa) * (1 - pb)
    }

    /// Cohen's kappa; nil when it is undefined (no entries, or no variation: p_e = 1).
    public var kappa: Double? {
        guard let po = observed, let pe = expected, pe < 1 - 1e-12 else { return nil }
        return (po - pe) / (1 - pe)
    }

    public init(code: String, units: Int, a: Int, b: Int, both: Int) {
        self.code = code
        self.units = units
        self.a = a
        self.b = b
        self.both = both
    }

    /// One row per code that either coder used in `entries`, in name order.
    public static func compute(_ entries: [Entry], coderA: String, coderB: String) -> [Agreement] {
        func coded(_ e: Entry, _ who: String) -> Set<String> {
            Set(e.codings.filter { $0.coder == who }.map(\.code))
        }
        var rows: [String: Agreement] = [:]
        let sets = entries.map { (coded($0, coderA), coded($0, coderB)) }
        for code in Set(sets.flatMap { $0.0.union($0.1) }) {
            rows[code] = Agreement(code: code, units: entries.count,
                                   a: sets.filter { $0.0.contains(code) }.count,
                                   b: sets.filter { $0.1.contains(code) }.count,
                                   both: sets.filter { $0.0.contains(code) && $0.1.contains(code) }.count)
        }
        for e in entries {
            for (code, s) in segments(e, coderA: coderA, coderB: coderB) {
                rows[code]?.charsA += s.a.length
                rows[code]?.charsB += s.b.length
                rows[code]?.charsBoth += s.a.intersection(s.b).length
            }
        }
        return rows.values.sorted { $0.code < $1.code }
    }

    /// The text of an entry only one coder coded with a code, for a reconciliation meeting.
    public struct Disagreement: Sendable {
        public var entry: Entry
        public var code: String
        /// The coder who coded it (the other did not).
        public var coder: String
        public var segment: QuoteAnchor
    }

    /// Every stretch of text one coder coded with a code and the other did not, by entry, code
    /// and position. Orphaned codings, which cover no text, are left out.
    public static func disagreements(_ entries: [Entry], coderA: String, coderB: String) -> [Disagreement] {
        var out: [Disagreement] = []
        for e in entries {
            for (code, s) in segments(e, coderA: coderA, coderB: coderB).sorted(by: { $0.key < $1.key }) {
                let only = s.a.subtracting(s.b).ranges.map { ($0, coderA) } + s.b.subtracting(s.a).ranges.map { ($0, coderB) }
                for (r, who) in only.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
                    out.append(Disagreement(entry: e, code: code, coder: who, segment: QuoteAnchor(start: r.lowerBound, end: r.upperBound)))
                }
            }
        }
        return out
    }

    /// Per code, the text each coder covered in the entry.
    static func segments(_ e: Entry, coderA: String, coderB: String) -> [String: (a: SegmentSet, b: SegmentSet)] {
        var out: [String: (a: SegmentSet, b: SegmentSet)] = [:]
        for (k, c) in e.codings.enumerated() where c.coder == coderA || c.coder == coderB {
            guard let anchor = e.anchor(k) else { continue }
            var s = out[c.code] ?? (SegmentSet(), SegmentSet())
            if c.coder == coderA { s.a.insert(anchor.range) }
            if c.coder == coderB { s.b.insert(anchor.range) }
            out[c.code] = s
        }
        return out
    }
}

/// Stretches of a text as sorted, separate ranges.
struct SegmentSet: Equatable {
    private(set) var ranges: [Range<Int>] = []

    var length: Int { ranges.reduce(0) { $0 + $1.count } }

    mutating func insert(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        var merged = r
        var kept: [Range<Int>] = []
        for x in ranges {
            if x.upperBound < merged.lowerBound || merged.upperBound < x.lowerBound { kept.append(x) }
            else { merged = min(x.lowerBound, merged.lowerBound)..<max(x.upperBound, merged.upperBound) }
        }
        kept.append(merged)
        ranges = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    func intersection(_ other: SegmentSet) -> SegmentSet {
        var out = SegmentSet()
        for x in ranges { for y in other.ranges where x.overlaps(y) { out.insert(x.clamped(to: y)) } }
        return out
    }

    func subtracting(_ other: SegmentSet) -> SegmentSet {
        var out = SegmentSet()
        for x in ranges {
            var start = x.lowerBound
            for y in other.ranges where y.upperBound > start && y.lowerBound < x.upperBound {
                if y.lowerBound > start { out.insert(start..<y.lowerBound) }
                start = max(start, y.upperBound)
            }
            if start < x.upperBound { out.insert(start..<x.upperBound) }
        }
        return out
    }
}
