// Counting codings: per code (codings, entries, coders) and code × code co-occurrence.
import Foundation

/// How much one code is used.
public struct CodeUse: Equatable, Sendable {
    public var code: String
    public var codings = 0
    public var entries = 0
    /// Coders in order of first appearance (a coding without a coder is the default coder's,
    /// `Coding.madeBy`; without a default coder it adds none).
    public var coders: [String] = []

    public init(code: String) { self.code = code }
}

public enum CodeStatistics {
    /// Every code used in `entries`, most codings first, ties by name.
    public static func uses(_ entries: [Entry], defaultCoder: String? = nil) -> [CodeUse] {
        var byCode: [String: CodeUse] = [:]
        for e in entries {
            for c in e.codings {
                var u = byCode[c.code] ?? CodeUse(code: c.code)
                u.codings += 1
                if let who = c.madeBy(defaultCoder: defaultCoder), !u.coders.contains(who) { u.coders.append(who) }
                byCode[c.code] = u
            }
            for code in Set(e.codings.map(\.code)) { byCode[code]?.entries += 1 }
        }
        return byCode.values.sorted { $0.codings != $1.codings ? $0.codings > $1.codings : $0.code < $1.code }
    }

    /// `matrix[i][j]`: entries coded with both `codes[i]` and `codes[j]` (the diagonal: entries
    /// coded with `codes[i]`).
    public static func cooccurrence(_ entries: [Entry], codes: [String]) -> [[Int]] {
        var m = Array(repeating: Array(repeating: 0, count: codes.count), count: codes.count)
        for e in entries {
            let has = codes.map { code in e.codings.contains { $0.code == code } }
            for i in codes.indices where has[i] { for j in codes.indices where has[j] { m[i][j] += 1 } }
        }
        return m
    }

    /// `matrix[i][j]` for i ≠ j: pairs of a `codes[i]` coding and a `codes[j]` coding of the same
    /// entry whose segments overlap (a whole-entry coding overlaps every segment); the diagonal:
    /// codings of `codes[i]` whose segment is found. Orphaned codings count nowhere.
    public static func overlap(_ entries: [Entry], codes: [String]) -> [[Int]] {
        let index = Dictionary(codes.enumerated().map { ($1, $0) }) { a, _ in a }
        var m = Array(repeating: Array(repeating: 0, count: codes.count), count: codes.count)
        for e in entries {
            let segments: [(Int, QuoteAnchor)] = e.codings.indices.compactMap { k in
                guard let i = index[e.codings[k].code], let a = e.anchor(k) else { return nil }
                return (i, a)
            }
            for (n, (i, a)) in segments.enumerated() {
                m[i][i] += 1
                for (j, b) in segments[(n + 1)...] where i != j && a.overlaps(b) {
                    m[i][j] += 1
                    m[j][i] += 1
                }
            }
        }
        return m
    }
}
