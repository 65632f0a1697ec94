// Cohen's kappa, percent agreement and Krippendorff's alpha against tables computed by hand and
// published worked examples, by entry and per character.
import XCTest
@testable import DaybookCore

/// An entry whose codings are `codes` as (code, coder), for the statistics tests.
func codedEntry(_ id: String, _ codings: [Coding], body: String = "Some body text.\n") -> Entry {
    Entry(id: id, path: "entries/2026/11/\(id).md", date: LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 0, offset: 0),
          title: id, frontTags: [], inlineTags: [], mood: nil, template: nil, fields: [], codings: codings,
          body: body, bodyStartLine: 3, words: 3, hasInk: false)
}

final class AgreementTests: XCTestCase {
    /// Ten entries. Code `trust`:
    ///
    ///                 bob yes   bob no
    ///     ann yes        4         2        a = 6
    ///     ann no         1         3
    ///                  b = 5              n = 10
    ///
    /// p_o = (4 + 3) / 10 = 0.7
    /// p_e = 0.6 · 0.5 + 0.4 · 0.5 = 0.5
    /// κ   = (0.7 − 0.5) / (1 − 0.5) = 0.4
    func testTwoByTwoTableByHand() {
        var entries: [Entry] = []
        let cells: [(Bool, Bool, Int)] = [(true, true, 4), (true, false, 2), (false, true, 1), (false, false, 3)]
        for (ann, bob, count) in cells {
            for _ in 0..<count {
                var codings: [Coding] = []
                if ann { codings.append(Coding(code: "trust", coder: "ann")) }
                if bob { codings += [Coding(code: "trust", quote: "Some", coder: "bob"), Coding(code: "trust", coder: "bob")] }
                codings.append(Coding(code: "trust", coder: "carol"))
                entries.append(codedEntry("e\(entries.count)", codings))
            }
        }
        let rows = AgreementReport.compute(entries, coders: ("ann", "bob")).codes
        XCTAssertEqual(rows.map(\.code), ["trust"])
        let r = rows[0].entries
        XCTAssertEqual([r.units, r.a, r.b, r.both, r.neither], [10, 6, 5, 4, 3])
        XCTAssertEqual(r.observed ?? -1, 0.7, accuracy: 1e-12)
        XCTAssertEqual(r.expected ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? -1, 0.4, accuracy: 1e-12)
    }

    /// Perfect disagreement on a balanced table: p_o = 0, p_e = 0.5, κ = −1.
    func testPerfectDisagreement() {
        let entries = [codedEntry("a", [Coding(code: "x", coder: "ann")]), codedEntry("b", [Coding(code: "x", coder: "bob")])]
        let r = AgreementReport.compute(entries, coders: ("ann", "bob")).codes[0].entries
        XCTAssertEqual(r.observed ?? -1, 0, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? 0, -1, accuracy: 1e-12)
    }

    /// The acceptance case: ann coded all 4 entries, bob 2: p_o = 0.5, p_e = 1 · 0.5 + 0 · 0.5 = 0.5, κ = 0.
    func testOneCoderWithoutVariation() {
        let entries = (0..<4).map { i in codedEntry("e\(i)", [Coding(code: "t", coder: "ann")] + (i < 2 ? [Coding(code: "t", coder: "bob")] : [])) }
        let r = AgreementReport.compute(entries, coders: ("ann", "bob")).codes[0].entries
        XCTAssertEqual(r.observed ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? -1, 0, accuracy: 1e-12)
    }

    /// Both coders coded every entry: p_e = 1, so κ is undefined (nil) and no division by zero happens.
    func testNoVariationAtAll() {
        let entries = (0..<3).map { codedEntry("e\($0)", [Coding(code: "t", coder: "ann"), Coding(code: "t", coder: "bob")]) }
        let r = AgreementReport.compute(entries, coders: ("ann", "bob")).codes[0].entries
        XCTAssertEqual(r.observed, 1)
        XCTAssertNil(r.kappa)
        XCTAssertNil(AgreementTable(units: 0, a: 0, b: 0, both: 0).observed)
        XCTAssertNil(AgreementTable(units: 0, a: 0, b: 0, both: 0).kappa)
        XCTAssertTrue(AgreementReport.compute([], coders: ("ann", "bob")).codes.isEmpty)
    }

    /// Krippendorff's worked example for binary data, two observers, ten units (Computing
    /// Krippendorff's Alpha-Reliability, 2011, section C): α = 0.095. By hand: a = 2, b = 4,
    /// both = 1, d = 4, n = 20, n₁ = 6, n₀ = 14, α = 1 − 19·4 / (14·6) = 1 − 76/84.
    /// Cohen's κ on the same table: p_o = 0.6, p_e = 0.2·0.4 + 0.8·0.6 = 0.56, κ = 0.04 / 0.44.
    func testKrippendorffsPublishedExample() {
        let observerA = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0], observerB = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
        let entries = (0..<10).map { i in
            codedEntry("u\(i)", (observerA[i] == 1 ? [Coding(code: "c", coder: "A")] : []) + (observerB[i] == 1 ? [Coding(code: "c", coder: "B")] : []))
        }
        let row = AgreementReport.compute(entries, coders: ("A", "B")).codes[0]
        XCTAssertEqual(row.entries.alpha ?? -1, 1 - 76.0 / 84.0, accuracy: 1e-12)
        XCTAssertEqual(row.entries.alpha ?? -1, 0.095, accuracy: 0.0005)
        // The general α (with missing values) agrees with the two-coder formula when none is missing.
        XCTAssertEqual(row.alpha ?? -1, 1 - 76.0 / 84.0, accuracy: 1e-12)
        XCTAssertEqual(row.entries.kappa ?? -1, 0.04 / 0.44, accuracy: 1e-12)
        // The 2×2 table above: n = 20, n₁ = 11, n₀ = 9, d = 3: α = 1 − 19·3 / 99.
        XCTAssertEqual(AgreementTable(units: 10, a: 6, b: 5, both: 4).alpha ?? -1, 1 - 57.0 / 99.0, accuracy: 1e-12)
        // No variation: undefined, as κ.
        XCTAssertNil(AgreementTable(units: 3, a: 3, b: 3, both: 3).alpha)
        XCTAssertNil(AgreementTable(units: 0, a: 0, b: 0, both: 0).alpha)
    }

    /// How much of the text both coded, and what only one coded.
    func testSegmentsBothCodedAndTheDisagreements() {
        let body = "One two three four five six.\n"
        let entries = [codedEntry("e", [Coding(code: "x", quote: "One two three", coder: "ann"), Coding(code: "x", quote: "three four", coder: "bob"),
                                        Coding(code: "x", quote: "two", coder: "ann"), Coding(code: "x", quote: "not there", coder: "bob"),
                                        Coding(code: "y", coder: "bob")], body: body)]
        let rows = AgreementReport.compute(entries, coders: ("ann", "bob")).codes
        let x = rows[0].characters
        XCTAssertEqual([x.a, x.b, x.both], [13, 10, 5])
        XCTAssertEqual(x.overlap ?? -1, 5.0 / 18.0, accuracy: 1e-12)
        XCTAssertEqual([rows[1].characters.a, rows[1].characters.b, rows[1].characters.both], [0, body.unicodeScalars.count, 0])
        let d = Agreement.disagreements(entries, coders: ("ann", "bob"))
        XCTAssertEqual(d.map { "\($0.code) \($0.coder) \($0.segment.start)-\($0.segment.end)" }, ["x ann 0-8", "x bob 13-18", "y bob 0-29"])
        // By entry they disagree only on y (ann applied x too).
        let byEntry = Agreement.disagreements(entries, coders: ("ann", "bob"), unit: .entry)
        XCTAssertEqual(byEntry.map { "\($0.code) \($0.coder) \($0.segment.start)-\($0.segment.end)" }, ["y bob 0-29"])
    }

    func testSegmentSets() {
        var s = SegmentSet()
        for r in [5..<8, 0..<2, 7..<10, 2..<3, 20..<20] { s.insert(r) }
        XCTAssertEqual(s.ranges, [0..<3, 5..<10])
        var t = SegmentSet()
        t.insert(1..<6)
        t.insert(9..<30)
        XCTAssertEqual(s.intersection(t).ranges, [1..<3, 5..<6, 9..<10])
        XCTAssertEqual(s.subtracting(t).ranges, [0..<1, 6..<9])
        XCTAssertEqual(t.subtracting(s).ranges, [3..<5, 10..<30])
        XCTAssertEqual(s.length, 8)
    }

    /// Per character, by hand. The body "One two three four five six.\n" has 29 scalars; ann
    /// coded "One two three" (0–13) and "two" (4–7, inside it), bob "three four" (8–18):
    ///
    ///                  bob yes   bob no
    ///     ann yes         5         8        a = 13
    ///     ann no          5        11
    ///                   b = 10              n = 29
    ///
    /// p_o = (5 + 11) / 29 = 464/841,  p_e = (13·10 + 16·19) / 29² = 434/841,
    /// κ = (464 − 434) / (841 − 434) = 30/407;  α = 1 − 57·(13 + 10 − 10) / (35·23) = 1 − 741/805.
    /// Pooled over both codes (y: bob coded the whole entry, ann nothing: 29 units, a = 0,
    /// b = 29), the overall table is 58 units, a = 13, b = 39, both = 5.
    func testPerCharacterKappaByHand() {
        let body = "One two three four five six.\n"
        let entries = [codedEntry("e", [Coding(code: "x", quote: "One two three", coder: "ann"), Coding(code: "x", quote: "two", coder: "ann"),
                                        Coding(code: "x", quote: "three four", coder: "bob"), Coding(code: "y", coder: "bob")], body: body)]
        let report = AgreementReport.compute(entries, coders: ("ann", "bob"))
        let x = report.codes[0].characters
        XCTAssertEqual([x.units, x.a, x.b, x.both, x.neither], [29, 13, 10, 5, 11])
        XCTAssertEqual(x.observed ?? -1, 464.0 / 841.0, accuracy: 1e-12)
        XCTAssertEqual(x.expected ?? -1, 434.0 / 841.0, accuracy: 1e-12)
        XCTAssertEqual(x.kappa ?? -1, 30.0 / 407.0, accuracy: 1e-12)
        XCTAssertEqual(x.alpha ?? -1, 1 - 741.0 / 805.0, accuracy: 1e-12)
        // The per-character α with missing values (any number of coders) is the same for two.
        XCTAssertEqual(report.codes[0].characterAlpha ?? -1, 1 - 741.0 / 805.0, accuracy: 1e-12)
        XCTAssertEqual(report.codes[0].pairableCharacters, 29)
        let all = report.overall.characters
        XCTAssertEqual([all.units, all.a, all.b, all.both], [58, 13, 39, 5])
        // By entry the two agree on x (both applied it) and differ on y.
        XCTAssertEqual([report.overall.entries.units, report.overall.entries.a, report.overall.entries.b, report.overall.entries.both], [2, 1, 2, 1])
    }

    /// A coding without `coder:` (by hand, or a highlighter stroke) is the default coder's, as in
    /// the QDPX export and the import's duplicate check; without a default coder it is nobody's.
    func testCodingWithoutCoderIsTheDefaultCoders() {
        let entries = [codedEntry("a", [Coding(code: "t"), Coding(code: "t", coder: "bob")]),
                       codedEntry("b", [Coding(code: "t", quote: "Some", source: .ink(stroke: 0))]),
                       codedEntry("c", [Coding(code: "t", coder: "bob")])]
        let mine = AgreementReport.compute(entries, coders: ("ann", "bob"), options: AgreementOptions(defaultCoder: "ann")).codes[0].entries
        XCTAssertEqual([mine.units, mine.a, mine.b, mine.both], [3, 2, 2, 1])
        let nobody = AgreementReport.compute(entries, coders: ("ann", "bob")).codes[0].entries
        XCTAssertEqual([nobody.a, nobody.b, nobody.both], [0, 2, 0])
        XCTAssertEqual(Coding.coders(of: entries, defaultCoder: "ann"), ["ann", "bob"])
        XCTAssertEqual(Coding.coders(of: entries, defaultCoder: nil), ["bob"])
        // The import's duplicate check asks the same question.
        XCTAssertTrue(REFIImport.has(entries[0].codings, Coding(code: "t", coder: "ann"), defaultCoder: "ann"))
        XCTAssertFalse(REFIImport.has(entries[0].codings, Coding(code: "t", coder: "ann"), defaultCoder: "carol"))
    }

    /// `--coded-by coding` (MAXQDA's "only documents coded by both"): an entry one coder made no
    /// coding in is left out of κ and percent agreement, and is a missing value for α. Here bob
    /// never looked at e2 and e3: by every entry, κ sees ann's two codings there as disagreements.
    func testOnlyEntriesBothCoded() {
        let entries = [codedEntry("e0", [Coding(code: "t", coder: "ann"), Coding(code: "t", coder: "bob")]),
                       codedEntry("e1", [Coding(code: "u", coder: "ann"), Coding(code: "u", coder: "bob")]),
                       codedEntry("e2", [Coding(code: "t", coder: "ann")]),
                       codedEntry("e3", [Coding(code: "t", coder: "ann")])]
        let every = AgreementReport.compute(entries, coders: ("ann", "bob"))
        XCTAssertEqual(every.codedByBoth, 4)
        XCTAssertEqual([every.codes[0].entries.units, every.codes[0].entries.a, every.codes[0].entries.b], [4, 3, 1])
        XCTAssertEqual(every.codes[0].entries.observed ?? -1, 0.5, accuracy: 1e-12)
        let both = AgreementReport.compute(entries, coders: ("ann", "bob"), options: AgreementOptions(codedBy: .anyCoding))
        XCTAssertEqual([both.entries, both.codedByBoth], [4, 2])
        let t = both.codes[0]
        XCTAssertEqual([t.entries.units, t.entries.a, t.entries.b, t.entries.both], [2, 1, 1, 1])
        XCTAssertEqual(t.entries.observed, 1)
        XCTAssertEqual(t.entries.kappa ?? -1, 1, accuracy: 1e-12)
        XCTAssertEqual(t.alpha ?? -1, 1, accuracy: 1e-12)
        // The characters counted are those of the two entries both coded.
        XCTAssertEqual(t.characters.units, 2 * "Some body text.\n".unicodeScalars.count)
        XCTAssertEqual(Agreement.disagreements(entries, coders: ("ann", "bob"), options: AgreementOptions(codedBy: .anyCoding), unit: .entry).count, 0)
        XCTAssertEqual(Agreement.disagreements(entries, coders: ("ann", "bob"), unit: .entry).map(\.entry.id), ["e2", "e3"])
    }

    /// Krippendorff's published example with missing values: four observers, twelve units,
    /// nominal data (Computing Krippendorff's Alpha-Reliability, 2011, section A): α = 0.743.
    /// Unit 12 has one value and is not pairable.
    func testKrippendorffsExampleWithMissingValues() {
        let rows: [[Int?]] = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nil, nil, nil],
                              [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nil, 3],
                              [nil, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nil],
                              [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nil]]
        let units = (0..<12).map { u in rows.map { $0[u] } }
        XCTAssertEqual(Krippendorff.nominalAlpha(units) ?? -1, 0.743, accuracy: 0.0005)
        // By hand from the paper's coincidences: n = 40, Σ o_cc = 32, n_c = 9, 13, 10, 5, 3:
        // α = 1 − 39·8 / (40² − 384) = 1 − 312/1216.
        XCTAssertEqual(Krippendorff.nominalAlpha(units) ?? -1, 1 - 312.0 / 1216.0, accuracy: 1e-12)
        // Three coders, fifteen units, most values missing: α = 0.691 (the example the
        // `krippendorff` Python package tests against).
        let three: [[Int?]] = [[nil, nil, nil, nil, nil, 3, 4, 1, 2, 1, 1, 3, 3, nil, 3],
                               [1, nil, 2, 1, 3, 3, 4, 3, nil, nil, nil, nil, nil, nil, nil],
                               [nil, nil, 2, 1, 3, 4, 4, nil, 2, 1, 1, 3, 3, nil, 4]]
        XCTAssertEqual(Krippendorff.nominalAlpha((0..<15).map { u in three.map { $0[u] } }) ?? -1, 0.691, accuracy: 0.0005)
        // Undefined: no pairable values, or one value throughout.
        XCTAssertNil(Krippendorff.nominalAlpha([[1, nil], [nil, 2]]))
        XCTAssertNil(Krippendorff.nominalAlpha([[1, 1], [1, 1]]))
        XCTAssertNil(Krippendorff.nominalAlpha([[Int?]]()))
    }

    /// Three coders, one of whom never looked at one entry: α by entry and per character with
    /// missing values, against the general α on the reliability matrix written out unit by unit.
    func testThreeCodersWithMissingValues() {
        let body = "abcdefghij"  // 10 scalars, no line break: positions are plain to read
        let entries = [
            codedEntry("e0", [Coding(code: "x", quote: "abcd", coder: "ann"), Coding(code: "x", quote: "cdef", coder: "bob"),
                              Coding(code: "x", quote: "abcdef", coder: "carol")], body: body),
            codedEntry("e1", [Coding(code: "x", coder: "ann"), Coding(code: "y", quote: "hij", coder: "bob")], body: body),
            codedEntry("e2", [Coding(code: "y", quote: "a", coder: "carol"), Coding(code: "y", quote: "b", coder: "ann")], body: body),
        ]
        let report = AgreementReport.compute(entries, coders: ["ann", "bob", "carol"], options: AgreementOptions(codedBy: .anyCoding))
        XCTAssertEqual([report.codedByBoth, report.codedByTwo], [1, 3])
        let x = report.codes[0]
        XCTAssertEqual(x.code, "x")
        // By entry: e0 all three applied x; e1 ann yes, bob no, carol missing; e2 bob missing, ann and carol no.
        XCTAssertEqual(x.alpha, Krippendorff.nominalAlpha([[true, true, true], [true, false, nil], [false, nil, false]]))
        XCTAssertEqual(x.appliedIn, [2, 1, 1])
        // Per character: e0 a–b (ann, carol), c–d (all), e–f (bob, carol), g–j (none); e1 ann all
        // ten, bob none, carol missing; e2 no one, bob missing.
        var units: [[Bool?]] = []
        units += Array(repeating: [true, false, true], count: 2) + Array(repeating: [true, true, true], count: 2)
        units += Array(repeating: [false, true, true], count: 2) + Array(repeating: [false, false, false], count: 4)
        units += Array(repeating: [true, false, nil], count: 10) + Array(repeating: [false, nil, false], count: 10)
        XCTAssertEqual(x.characterAlpha ?? -1, Krippendorff.nominalAlpha(units) ?? 1, accuracy: 1e-12)
        XCTAssertEqual(x.pairableCharacters, 30)
        XCTAssertEqual(x.charactersCoded, [14, 4, 6])
        // With more than two coders there is no pair table (kappa is a measure of two).
        XCTAssertEqual(x.entries.units, 0)
    }

    /// By segment, by hand. Body of 20 scalars. Code x: ann coded 0–10 and 12–16, bob 1–10 and
    /// 15–20. ann's 0–10 is 9/10 covered by bob (agrees at 90 %), her 12–16 1/4; bob's 1–10 is
    /// wholly ann's, his 15–20 1/5: 2 of 4 segments agree. Code y: both coded the whole entry:
    /// 2 of 2. Overall 4 of 6, k = 2 codes: κ = (2/3 − 1/2) / (1 − 1/2) = 1/3.
    func testSegmentOverlapWithAThreshold() {
        let body = "abcdefghijklmnopqrst"
        let entries = [codedEntry("e", [Coding(code: "x", quote: "abcdefghij", coder: "ann"), Coding(code: "x", quote: "mnop", coder: "ann"),
                                        Coding(code: "x", quote: "bcdefghij", coder: "bob"), Coding(code: "x", quote: "pqrst", coder: "bob"),
                                        Coding(code: "y", coder: "ann"), Coding(code: "y", coder: "bob")], body: body)]
        let report = AgreementReport.compute(entries, coders: ("ann", "bob"))
        let x = report.codes[0].segments
        XCTAssertEqual([x.a, x.b, x.aAgreed, x.bAgreed], [2, 2, 1, 1])
        XCTAssertEqual(x.observed, 0.5)
        XCTAssertNil(x.kappa, "κ is the whole table's")
        XCTAssertEqual([report.codes[1].segments.units, report.codes[1].segments.agreed], [2, 2])
        let all = report.overall.segments
        XCTAssertEqual([all.units, all.agreed, all.categories], [6, 4, 2])
        XCTAssertEqual(all.kappa ?? -1, 1.0 / 3.0, accuracy: 1e-12)
        // At 95 % ann's 0–10 no longer agrees: 3 of 6, κ = 0.
        let strict = AgreementReport.compute(entries, coders: ("ann", "bob"), options: AgreementOptions(minOverlap: 0.95)).overall.segments
        XCTAssertEqual(strict.agreed, 3)
        XCTAssertEqual(strict.kappa ?? -1, 0, accuracy: 1e-12)
        let d = Agreement.disagreements(entries, coders: ("ann", "bob"), unit: .segment)
        XCTAssertEqual(d.map { "\($0.code) \($0.coder) \($0.segment.start)-\($0.segment.end)" }, ["x ann 12-16", "x bob 15-20"])
    }

    /// The coincidences added unit by unit (what the report uses, so no matrix is kept) give the
    /// α of the general formula on the same binary data with missing values.
    func testUnitByUnitAlphaIsTheGeneralAlpha() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let coders = Int.random(in: 2...5, using: &rng)
            let units: [[Bool?]] = (0..<Int.random(in: 1...30, using: &rng)).map { _ in
                (0..<coders).map { _ in Int.random(in: 0..<4, using: &rng) == 0 ? nil : Bool.random(using: &rng) }
            }
            var binary = Krippendorff.Binary()
            for u in units { binary.add(values: u.compactMap { $0 }.count, ones: u.filter { $0 == true }.count) }
            let general = Krippendorff.nominalAlpha(units)
            XCTAssertEqual(binary.alpha == nil, general == nil, "\(units)")
            if let a = binary.alpha, let b = general { XCTAssertEqual(a, b, accuracy: 1e-9, "\(units)") }
        }
    }
}
