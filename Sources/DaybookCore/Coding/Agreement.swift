// Inter-coder agreement per code: percent agreement and Cohen's kappa over entries.
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
public struct Agreement: Equatable, Sendable {
    public var code: String
    /// Entries considered.
    public var units: Int
    /// Entries coder A, coder B, and both coded with the code.
    public var a: Int
    public var b: Int
    public var both: Int

    public var neither: Int { units - a - b + both }

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
        return rows.values.sorted { $0.code < $1.code }
    }
}
