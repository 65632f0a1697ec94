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
}
