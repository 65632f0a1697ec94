// Inter-coder agreement per code and overall, by two units (presence per entry, per character):
// percent agreement, Cohen's kappa and Krippendorff's alpha with missing values, and the text
// each coder alone coded.
import Foundation

/// Two coders' yes or no on each of `units` units (entries, or characters): `a` units A said
/// yes to, `b` B, `both` both.
///
///   p_o = (both + neither) / n                          observed agreement
///   p_e = (a/n)(b/n) + (1 − a/n)(1 − b/n)                agreement expected by chance
///   κ   = (p_o − p_e) / (1 − p_e)
/// When p_e = 1 neither coder varies (both said yes to every unit, or both to none): κ is
/// undefined and reported as nil, while p_o is 1.
///
/// Krippendorff's alpha (nominal, two coders, no missing values) on the same units: with
/// n = 2·units values, n₁ = a + b of them "yes", n₀ = n − n₁, and d = a + b − 2·both units on which
/// they differ, α = 1 − (n − 1)·d / (n₀·n₁) (Krippendorff, Computing Krippendorff's
/// Alpha-Reliability, 2011, section C); undefined when every value is the same (n₀·n₁ = 0).
public struct AgreementTable: Equatable, Sendable {
    public var units: Int
    public var a: Int
    public var b: Int
    public var both: Int

    public init(units: Int = 0, a: Int = 0, b: Int = 0, both: Int = 0) {
        self.units = units
        self.a = a
        self.b = b
        self.both = both
    }

    public var neither: Int { units - a - b + both }

    /// p_o, from 0 to 1; nil without units.
    public var observed: Double? { units == 0 ? nil : Double(both + neither) / Double(units) }

    /// p_e, from 0 to 1; nil without units.
    public var expected: Double? {
        guard units > 0 else { return nil }
        let pa = Double(a) / Double(units), pb = Double(b) / Double(units)
        return pa * pb + (1 - pa) * (1 - pb)
    }

    /// Cohen's kappa; nil when it is undefined (no units, or no variation: p_e = 1).
    public var kappa: Double? {
        guard let po = observed, let pe = expected, pe < 1 - 1e-12 else { return nil }
        return (po - pe) / (1 - pe)
    }

    /// Krippendorff's alpha (nominal, no missing values); nil when it is undefined.
    public var alpha: Double? {
        let n = 2 * units, n1 = a + b, n0 = n - n1
        guard units > 0, n0 > 0, n1 > 0 else { return nil }
        return 1 - Double(n - 1) * Double(a + b - 2 * both) / (Double(n0) * Double(n1))
    }

    /// Of the units either coder said yes to, the share both did, from 0 to 1; nil when none.
    public var overlap: Double? {
        let either = a + b - both
        return either == 0 ? nil : Double(both) / Double(either)
    }

    static func + (l: AgreementTable, r: AgreementTable) -> AgreementTable {
        AgreementTable(units: l.units + r.units, a: l.a + r.a, b: l.b + r.b, both: l.both + r.both)
    }
}

/// Krippendorff's alpha for nominal data with missing values.
public enum Krippendorff {
    /// α of a reliability data matrix: `units[u][i]` is coder i's value of unit u, nil when coder
    /// i gave none (missing: the unit was not coded by that coder, which is not a value). Units
    /// with fewer than two values are not pairable and count nowhere. With o_ck the coincidences
    /// of values c and k (each pair of values of different coders in unit u adds 1/(m_u − 1), m_u
    /// the unit's number of values), n_c = Σ_k o_ck and n = Σ_c n_c:
    ///   α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k
    /// (Krippendorff, Computing Krippendorff's Alpha-Reliability, 2011, section A). Nil when it is
    /// undefined: fewer than two pairable values, or every pairable value the same.
    public static func nominalAlpha<Value: Hashable>(_ units: [[Value?]]) -> Double? {
        var index: [Value: Int] = [:]
        var coincidences: [[Double]] = []
        var counts: [Int] = []
        for unit in units {
            counts = []
            for case let v? in unit {
                let i: Int
                if let k = index[v] { i = k } else {
                    i = index.count
                    index[v] = i
                    for r in coincidences.indices { coincidences[r].append(0) }
                    coincidences.append(Array(repeating: 0, count: i + 1))
                }
                while counts.count <= i { counts.append(0) }
                counts[i] += 1
            }
            let m = counts.reduce(0, +)
            guard m >= 2 else { continue }
            for c in counts.indices where counts[c] > 0 {
                for k in counts.indices where counts[k] > 0 {
                    coincidences[c][k] += Double(counts[c] * (counts[k] - (c == k ? 1 : 0))) / Double(m - 1)
                }
            }
        }
        return alpha(coincidences)
    }

    /// The coincidences of two values (a code applied or not), added unit by unit without
    /// keeping the units: what per-character α needs, where a unit is one character.
    struct Binary {
        var o00 = 0.0, o01 = 0.0, o11 = 0.0
        /// Values of units with at least two of them (pairable).
        var pairable = 0

        /// `times` units each with `values` values, `ones` of them 1 (code applied).
        mutating func add(values m: Int, ones k: Int, times w: Int = 1) {
            guard m >= 2, w > 0 else { return }
            let d = Double(m - 1), n = Double(w)
            o11 += n * Double(k * (k - 1)) / d
            o00 += n * Double((m - k) * (m - k - 1)) / d
            o01 += n * Double(k * (m - k)) / d
            pairable += w
        }

        static func + (l: Binary, r: Binary) -> Binary {
            Binary(o00: l.o00 + r.o00, o01: l.o01 + r.o01, o11: l.o11 + r.o11, pairable: l.pairable + r.pairable)
        }

        var alpha: Double? { Krippendorff.alpha([[o00, o01], [o01, o11]]) }
    }

    /// α from a coincidence matrix (see `nominalAlpha`).
    static func alpha(_ o: [[Double]]) -> Double? {
        let nc = o.map { $0.reduce(0, +) }
        let n = nc.reduce(0, +)
        let disagreeing = n - o.indices.reduce(0) { $0 + o[$1][$1] }
        let expected = n * n - nc.reduce(0) { $0 + $1 * $1 }
        guard n > 1, expected > 1e-9 else { return nil }
        return 1 - (n - 1) * disagreeing / expected
    }
}

/// Agreement of the coders on one code (or, as `AgreementReport.overall`, on every code pooled).
/// The tables are those of the first two coders, filled only when exactly two are compared
/// (Cohen's kappa and percent agreement are measures of two); alpha is of all of them.
public struct Agreement: Equatable, Sendable {
    public var code: String
    /// Presence per entry: each entry both coders coded (`AgreementOptions.CodedBy`) is one unit,
    /// in which each coder applied the code (anywhere, any number of times) or did not.
    public var entries = AgreementTable()
    /// Per character: each Unicode scalar of the bodies of the entries both coded is one unit,
    /// "yes" for a coder when one of their codings of the code covers it (a whole-entry coding
    /// covers the whole body; orphaned codings cover nothing). Text neither coded with the code
    /// counts as agreement, as QualCoder counts it.
    public var characters = AgreementTable()
    /// Krippendorff's alpha on presence per entry with missing values: an entry a coder did not
    /// code is missing for that coder, not "did not apply the code". Over every entry at least two
    /// coders coded; for two coders the same as `entries.alpha`.
    public var alpha: Double?
    /// Krippendorff's alpha per character with missing values: every character of an entry at
    /// least two coders coded is a unit; the characters of an entry a coder did not code are
    /// missing for that coder. For two coders the same as `characters.alpha`.
    public var characterAlpha: Double?
    /// Per coder (in the order given): the entries in which they applied the code, and the
    /// characters their codings of it cover, among the entries at least two coders coded.
    public var appliedIn: [Int] = []
    public var charactersCoded: [Int] = []
    /// By segment (two coders): each coding of either coder that covers text is one segment.
    public var segments = SegmentAgreement()
    /// Units with at least two values: entries, and characters.
    public var pairableEntries = 0
    public var pairableCharacters = 0

    public init(code: String, entries: AgreementTable = AgreementTable(), characters: AgreementTable = AgreementTable(), alpha: Double? = nil) {
        self.code = code
        self.entries = entries
        self.characters = characters
        self.alpha = alpha
    }

    /// The text of an entry only one coder coded with a code, for a reconciliation meeting.
    public struct Disagreement: Sendable {
        public var entry: Entry
        public var code: String
        /// The coder who coded it (the other did not).
        public var coder: String
        /// The stretch only that coder coded; by entry (`AgreementUnit.entry`), the whole body.
        public var segment: QuoteAnchor
    }

    /// Per unit, where the two coders differ, by entry, code and position. By character: every
    /// stretch of text one coder coded with a code and the other did not. By entry: every entry
    /// (of those both coded) in which one applied the code and the other did not. By segment:
    /// every segment that does not agree (`SegmentAgreement`), whole.
    public static func disagreements(_ entries: [Entry], coders: (String, String), options: AgreementOptions = AgreementOptions(),
                                     unit: AgreementUnit = .character) -> [Disagreement] {
        let (coderA, coderB) = coders
        var out: [Disagreement] = []
        for e in entries where options.coded(e, by: coderA) && options.coded(e, by: coderB) {
            let segments = segments(e, coders: [coderA, coderB], defaultCoder: options.defaultCoder)
            for code in segments.keys.sorted() {
                let s = segments[code] ?? []
                if unit == .segment {
                    for (i, who) in [(0, coderA), (1, coderB)] {
                        for piece in s[i].pieces where !SegmentAgreement.agrees(piece, coveredBy: s[1 - i].text, minOverlap: options.minOverlap) {
                            out.append(Disagreement(entry: e, code: code, coder: who, segment: QuoteAnchor(start: piece.lowerBound, end: piece.upperBound)))
                        }
                    }
                    continue
                }
                if unit == .entry {
                    let whole = QuoteAnchor(start: 0, end: e.body.unicodeScalars.count)
                    if s[0].applied && !s[1].applied { out.append(Disagreement(entry: e, code: code, coder: coderA, segment: whole)) }
                    if s[1].applied && !s[0].applied { out.append(Disagreement(entry: e, code: code, coder: coderB, segment: whole)) }
                    continue
                }
                let only = s[0].text.subtracting(s[1].text).ranges.map { ($0, coderA) } + s[1].text.subtracting(s[0].text).ranges.map { ($0, coderB) }
                for (r, who) in only.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
                    out.append(Disagreement(entry: e, code: code, coder: who, segment: QuoteAnchor(start: r.lowerBound, end: r.upperBound)))
                }
            }
        }
        return out
    }

    /// Per code, for each of `coders`: whether they applied it in the entry, and the text their
    /// codings of it cover. Codings are attributed by `Coding.madeBy`.
    static func segments(_ e: Entry, coders: [String], defaultCoder: String?) -> [String: [CoderCoding]] {
        var out: [String: [CoderCoding]] = [:]
        for (k, c) in e.codings.enumerated() {
            guard let who = c.madeBy(defaultCoder: defaultCoder), coders.contains(who) else { continue }
            var s = out[c.code] ?? Array(repeating: CoderCoding(), count: coders.count)
            let anchor = e.anchor(k)
            // Every place the coder holds (a coder compared with themselves agrees throughout).
            for i in coders.indices where coders[i] == who {
                s[i].applied = true
                if let anchor, !anchor.range.isEmpty {
                    s[i].text.insert(anchor.range)
                    s[i].pieces.append(anchor.range)
                }
            }
            out[c.code] = s
        }
        return out
    }
}

/// The unit agreement is counted in.
public enum AgreementUnit: String, CaseIterable, Sendable {
    /// Presence of a code in an entry.
    case entry
    /// One character (Unicode scalar) of an entry's body.
    case character
    /// One coded segment of either coder, agreeing when the other coded enough of it.
    case segment
}

/// One coder's codings of one code in one entry: whether they applied it, the text their codings
/// cover, and each coding's own stretch (a segment).
struct CoderCoding {
    var applied = false
    var text = SegmentSet()
    var pieces: [Range<Int>] = []
}

/// Agreement by segment, as MAXQDA counts it at its "segment" level: every segment (a coding that
/// covers text) of either coder is one unit, and it agrees when the other coder coded the same
/// code over at least `AgreementOptions.minOverlap` of its characters (their codings of the code
/// taken together). Percent agreement is the share of the segments that agree; there are no units
/// that neither coded, so chance agreement is 1/k for k codes compared (Brennan and Prediger, 1981,
/// the kappa MAXQDA reports for this level): κ = (p_o − 1/k) / (1 − 1/k), undefined for k < 2.
public struct SegmentAgreement: Equatable, Sendable {
    /// Segments of coder A and of coder B, and of those the ones that agree.
    public var a = 0, b = 0, aAgreed = 0, bAgreed = 0
    /// Codes compared (k), for κ; set on the overall row.
    public var categories = 0

    public init() {}

    public var units: Int { a + b }
    public var agreed: Int { aAgreed + bAgreed }

    /// p_o, from 0 to 1; nil without segments.
    public var observed: Double? { units == 0 ? nil : Double(agreed) / Double(units) }

    /// κ with chance 1/k; nil for fewer than two codes or no segments.
    public var kappa: Double? {
        guard let po = observed, categories >= 2 else { return nil }
        let pc = 1 / Double(categories)
        return (po - pc) / (1 - pc)
    }

    mutating func count(coder i: Int, agreed: Bool) {
        if i == 0 { a += 1; if agreed { aAgreed += 1 } } else { b += 1; if agreed { bAgreed += 1 } }
    }

    /// Whether `other` covers at least `minOverlap` of `piece`.
    static func agrees(_ piece: Range<Int>, coveredBy other: SegmentSet, minOverlap: Double) -> Bool {
        var one = SegmentSet()
        one.insert(piece)
        return Double(one.intersection(other).length) >= minOverlap * Double(piece.count) - 1e-9
    }

    static func + (l: SegmentAgreement, r: SegmentAgreement) -> SegmentAgreement {
        var s = SegmentAgreement()
        s.a = l.a + r.a
        s.b = l.b + r.b
        s.aAgreed = l.aAgreed + r.aAgreed
        s.bAgreed = l.bAgreed + r.bAgreed
        return s
    }
}

/// How agreement is computed.
public struct AgreementOptions: Sendable {
    /// Which entries count as coded by a coder: only those take part (for κ and percent agreement,
    /// the entries both coded; for α, an entry a coder did not code is a missing value).
    public enum CodedBy: Equatable, Sendable {
        /// Every entry given counts as coded by every coder: an entry without a coder's codings
        /// is one in which they applied no code.
        case every
        /// An entry counts as coded by a coder when it holds at least one of their codings (of any
        /// code): MAXQDA's "only documents coded by both coders".
        case anyCoding
    }

    public var codedBy: CodedBy
    /// Whose a coding without `coder:` is (`Coding.madeBy`).
    public var defaultCoder: String?
    /// By segment: the share of a segment the other coder must have coded with the same code
    /// for the segment to agree (MAXQDA's default: 90 %).
    public var minOverlap: Double

    public init(codedBy: CodedBy = .every, defaultCoder: String? = nil, minOverlap: Double = 0.9) {
        self.codedBy = codedBy
        self.defaultCoder = defaultCoder
        self.minOverlap = minOverlap
    }

    /// Whether `coder` coded the entry, as `codedBy` says.
    public func coded(_ e: Entry, by coder: String) -> Bool {
        switch codedBy {
        case .every: return true
        case .anyCoding: return e.codings.contains { $0.madeBy(defaultCoder: defaultCoder) == coder }
        }
    }
}

/// Agreement of two or more coders over some entries: per code and overall.
public struct AgreementReport: Sendable {
    public var coders: [String]
    /// Entries given, and those every coder coded (for two: the units of `AgreementUnit.entry`).
    public var entries: Int
    public var codedByBoth: Int
    /// Entries at least two coders coded (the entries alpha has values from).
    public var codedByTwo: Int
    /// One row per code a coder applied in the entries at least two coders coded, in name order.
    public var codes: [Agreement]
    /// Every code pooled: by entry, each (entry, code) pair of the rows' codes is one unit; by
    /// character, each (character, code) pair; α over the same units.
    public var overall: Agreement

    /// Agreement of `coders` on `entries`. The entries' bodies are needed for the per-character
    /// figures (their length); codings are attributed by `Coding.madeBy`.
    public static func compute(_ entries: [Entry], coders: (String, String), options: AgreementOptions = AgreementOptions()) -> AgreementReport {
        compute(entries, coders: [coders.0, coders.1], options: options)
    }

    public static func compute(_ entries: [Entry], coders names: [String], options: AgreementOptions = AgreementOptions()) -> AgreementReport {
        struct Seen { var looked: [Bool]; var codes: [String: [CoderCoding]]; var length: Int }
        var seen: [Seen] = []
        var allCodes = Set<String>()
        for e in entries {
            let looked = names.map { options.coded(e, by: $0) }
            guard looked.filter({ $0 }).count >= 2 else { continue }
            let s = Agreement.segments(e, coders: names, defaultCoder: options.defaultCoder)
            allCodes.formUnion(s.keys)
            seen.append(Seen(looked: looked, codes: s, length: e.body.unicodeScalars.count))
        }
        let pair = names.count == 2
        var rows: [Agreement] = []
        // Coincidences are added unit by unit, not kept as a matrix: 100,000 entries × 50 codes
        // would be five million units.
        var pooledEntries = Krippendorff.Binary()
        var pooledCharacters = Krippendorff.Binary()
        var overall = Agreement(code: "")
        for code in allCodes.sorted() {
            var row = Agreement(code: code)
            row.appliedIn = Array(repeating: 0, count: names.count)
            row.charactersCoded = Array(repeating: 0, count: names.count)
            var byEntry = Krippendorff.Binary()
            var characters = Krippendorff.Binary()
            for s in seen {
                let c = s.codes[code]
                let applied = names.indices.map { c?[$0].applied ?? false }
                let texts = names.indices.map { c?[$0].text ?? SegmentSet() }
                byEntry.add(values: s.looked.filter { $0 }.count, ones: names.indices.filter { s.looked[$0] && applied[$0] }.count)
                for i in names.indices where s.looked[i] {
                    row.appliedIn[i] += applied[i] ? 1 : 0
                    row.charactersCoded[i] += texts[i].length
                }
                characters.addCharacters(length: s.length, texts: names.indices.filter { s.looked[$0] }.map { texts[$0] })
                guard pair && s.looked[0] && s.looked[1] else { continue }
                row.entries = row.entries + AgreementTable(units: 1, a: applied[0] ? 1 : 0, b: applied[1] ? 1 : 0, both: applied[0] && applied[1] ? 1 : 0)
                row.characters = row.characters + AgreementTable(units: s.length, a: texts[0].length, b: texts[1].length, both: texts[0].intersection(texts[1]).length)
                for (i, other) in [(0, 1), (1, 0)] {
                    for piece in c?[i].pieces ?? [] {
                        let agreed = SegmentAgreement.agrees(piece, coveredBy: texts[other], minOverlap: options.minOverlap)
                        row.segments.count(coder: i, agreed: agreed)
                    }
                }
            }
            row.alpha = byEntry.alpha
            row.characterAlpha = characters.alpha
            row.pairableEntries = seen.count
            row.pairableCharacters = characters.pairable
            pooledEntries = pooledEntries + byEntry
            pooledCharacters = pooledCharacters + characters
            overall.entries = overall.entries + row.entries
            overall.characters = overall.characters + row.characters
            overall.segments = overall.segments + row.segments
            overall.pairableEntries += row.pairableEntries
            overall.pairableCharacters += row.pairableCharacters
            rows.append(row)
        }
        overall.alpha = pooledEntries.alpha
        overall.characterAlpha = pooledCharacters.alpha
        overall.segments.categories = rows.count
        return AgreementReport(coders: names, entries: entries.count, codedByBoth: seen.filter { !$0.looked.contains(false) }.count,
                               codedByTwo: seen.count, codes: rows, overall: overall)
    }

    /// The coders of `names` who made no coding in `entries`: an error, naming the diary's
    /// coders, for one who made none in the whole diary (a misspelt name would otherwise give
    /// κ = 0 without a word); a warning for one who coded elsewhere in the diary but not here.
    public static func checkCoders(_ names: [String], in entries: [Entry], diary: Diary, defaultCoder: String?) throws -> [String] {
        let here = Set(Coding.coders(of: entries, defaultCoder: defaultCoder))
        let absent = names.filter { !here.contains($0) }
        guard !absent.isEmpty else { return [] }
        var ignored: [Diagnostic] = []
        let all = Coding.coders(of: diary.loadEntries(diagnostics: &ignored, bodies: false), defaultCoder: defaultCoder)
        let unknown = absent.filter { !all.contains($0) }
        if !unknown.isEmpty {
            let list = unknown.map { "\"\($0)\"" }.joined(separator: " and ")
            let known = all.isEmpty ? "the diary has no codings" : "its coders are " + all.joined(separator: ", ")
                + (defaultCoder.map { " (a coding without coder: is \($0)'s)" } ?? "")
            throw DaybookError.input("no coding in the diary is by \(list): \(known)")
        }
        return absent.map { "\($0) made no coding in these entries" }
    }
}

extension Krippendorff.Binary {
    /// The characters 0..<length of one entry, each a unit whose values are whether each of the
    /// coders who coded the entry (`texts`, one each) covered it. Characters between the same
    /// segment boundaries have the same values, so they are added a stretch at a time.
    mutating func addCharacters(length: Int, texts: [SegmentSet]) {
        guard texts.count >= 2, length > 0 else { return }
        var cuts = Set([0, length])
        for t in texts { for r in t.ranges { cuts.insert(min(r.lowerBound, length)); cuts.insert(min(r.upperBound, length)) } }
        let sorted = cuts.sorted()
        for (lo, hi) in zip(sorted, sorted.dropFirst()) where hi > lo {
            add(values: texts.count, ones: texts.filter { $0.contains(lo) }.count, times: hi - lo)
        }
    }
}

/// Stretches of a text as sorted, separate ranges.
struct SegmentSet: Equatable {
    private(set) var ranges: [Range<Int>] = []

    var length: Int { ranges.reduce(0) { $0 + $1.count } }

    func contains(_ i: Int) -> Bool { ranges.contains { $0.contains(i) } }

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
