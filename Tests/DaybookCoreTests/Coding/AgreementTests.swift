// Cohen's kappa and percent agreement against tables computed by hand.
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
        let rows = Agreement.compute(entries, coderA: "ann", coderB: "bob")
        XCTAssertEqual(rows.map(\.code), ["trust"])
        let r = rows[0]
        XCTAssertEqual([r.units, r.a, r.b, r.both, r.neither], [10, 6, 5, 4, 3])
        XCTAssertEqual(r.observed ?? -1, 0.7, accuracy: 1e-12)
        XCTAssertEqual(r.expected ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? -1, 0.4, accuracy: 1e-12)
    }

    /// Perfect disagreement on a balanced table: p_o = 0, p_e = 0.5, κ = −1.
    func testPerfectDisagreement() {
        let entries = [codedEntry("a", [Coding(code: "x", coder: "ann")]), codedEntry("b", [Coding(code: "x", coder: "bob")])]
        let r = Agreement.compute(entries, coderA: "ann", coderB: "bob")[0]
        XCTAssertEqual(r.observed ?? -1, 0, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? 0, -1, accuracy: 1e-12)
    }

    /// The acceptance case: ann coded all 4 entries, bob 2: p_o = 0.5, p_e = 1 · 0.5 + 0 · 0.5 = 0.5, κ = 0.
    func testOneCoderWithoutVariation() {
        let entries = (0..<4).map { i in codedEntry("e\(i)", [Coding(code: "t", coder: "ann")] + (i < 2 ? [Coding(code: "t", coder: "bob")] : [])) }
        let r = Agreement.compute(entries, coderA: "ann", coderB: "bob")[0]
        XCTAssertEqual(r.observed ?? -1, 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.kappa ?? -1, 0, accuracy: 1e-12)
    }

    /// Both coders coded every entry: p_e = 1, so κ is undefined (nil) and no division by zero happens.
    func testNoVariationAtAll() {
        let entries = (0..<3).map { codedEntry("e\($0)", [Coding(code: "t", coder: "ann"), Coding(code: "t", coder: "bob")]) }
        let r = Agreement.compute(entries, coderA: "ann", coderB: "bob")[0]
        XCTAssertEqual(r.observed, 1)
        XCTAssertNil(r.kappa)
        XCTAssertNil(Agreement(code: "t", units: 0, a: 0, b: 0, both: 0).observed)
        XCTAssertNil(Agreement(code: "t", units: 0, a: 0, b: 0, both: 0).kappa)
        XCTAssertTrue(Agreement.compute([], coderA: "ann", coderB: "bob").isEmpty)
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
        let r = Agreement.compute(entries, coderA: "A", coderB: "B")[0]
        XCTAssertEqual(r.alpha ?? -1, 1 - 76.0 / 84.0, accuracy: 1e-12)
        XCTAssertEqual(r.alpha ?? -1, 0.095, accuracy: 0.0005)
        XCTAssertEqual(r.kappa ?? -1, 0.04 / 0.44, accuracy: 1e-12)
        // The 2×2 table above: n = 20, n₁ = 11, n₀ = 9, d = 3: α = 1 − 19·3 / 99.
        XCTAssertEqual(Agreement(code: "t", units: 10, a: 6, b: 5, both: 4).alpha ?? -1, 1 - 57.0 / 99.0, accuracy: 1e-12)
        // No variation: undefined, as κ.
        XCTAssertNil(Agreement(code: "t", units: 3, a: 3, b: 3, both: 3).alpha)
        XCTAssertNil(Agreement(code: "t", units: 0, a: 0, b: 0, both: 0).alpha)
    }

    /// How much of the text both coded, and what only one coded.
    func testSegmentsBothCodedAndTheDisagreements() {
        let body = "One two three four five six.\n"
        let entries = [codedEntry("e", [Coding(code: "x", quote: "One two three", coder: "ann"), Coding(code: "x", quote: "three four", coder: "bob"),
                                        Coding(code: "x", quote: "two", coder: "ann"), Coding(code: "x", quote: "not there", coder: "bob"),
                                        Coding(code: "y", coder: "bob")], body: body)]
        let rows = Agreement.compute(entries, coderA: "ann", coderB: "bob")
        let x = rows[0]
        XCTAssertEqual([x.charsA, x.charsB, x.charsBoth], [13, 10, 5])
        XCTAssertEqual(x.overlap ?? -1, 5.0 / 18.0, accuracy: 1e-12)
        XCTAssertEqual([rows[1].charsA, rows[1].charsB, rows[1].charsBoth], [0, body.unicodeScalars.count, 0])
        let d = Agreement.disagreements(entries, coderA: "ann", coderB: "bob")
        XCTAssertEqual(d.map { "\($0.code) \($0.coder) \($0.segment.start)-\($0.segment.end)" }, ["x ann 0-8", "x bob 13-18", "y bob 0-29"])
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
}
