// PCRE2 patterns: byte ranges, case, whole words, fixed strings, empty matches, invalid patterns.
import XCTest
@testable import DaybookCore

final class PatternTests: XCTestCase {
    func ranges(_ p: Pattern, _ s: String) -> [Range<Int>] {
        var s = s
        return s.withUTF8 { p.matches(in: $0) }
    }

    func testReportsEveryMatchAsByteRanges() throws {
        let p = try Pattern("lo+g")
        XCTAssertEqual(ranges(p, "log loog lg"), [0..<3, 4..<8])
        XCTAssertEqual(ranges(try Pattern("ä"), "Käse ä"), [1..<3, 6..<8])
    }

    func testIgnoreCaseAndWholeWordsAreUnicodeAware() throws {
        XCTAssertEqual(ranges(try Pattern("ärger", ignoreCase: true), "ÄRGER"), [0..<6])
        let word = try Pattern("café", wholeWord: true)
        XCTAssertEqual(ranges(word, "cafés café"), [7..<12])
        XCTAssertEqual(ranges(try Pattern("caf", wholeWord: true), "café"), [])
    }

    func testFixedStringsTakeEveryCharacterLiterally() throws {
        let p = try Pattern("(a.b)*", fixed: true)
        XCTAssertEqual(ranges(p, "x(a.b)* (axb)"), [1..<7])
        XCTAssertEqual(ranges(try Pattern("c++ ok", ignoreCase: true, wholeWord: false, fixed: true), "C++ OK"), [0..<6])
    }

    func testEmptyMatchesSelectALineWithoutLooping() throws {
        XCTAssertEqual(ranges(try Pattern("^"), ""), [0..<0])
        XCTAssertEqual(ranges(try Pattern("x*"), "aé"), [0..<0])
        XCTAssertEqual(ranges(try Pattern("x*"), "axx"), [1..<3])
    }

    func testAMatchThatGivesUpIsReportedNotTakenForNoMatch() throws {
        let p = try Pattern("(a+)+$")
        XCTAssertNil(p.failure)
        _ = ranges(p, String(repeating: "a", count: 40) + "b")
        let failure = try XCTUnwrap(p.takeFailure(), "catastrophic backtracking hits PCRE2's match limit")
        XCTAssertTrue(failure.contains("limit"), failure)
        XCTAssertNil(p.failure)
    }

    func testAnInvalidPatternNamesItsPosition() {
        XCTAssertThrowsError(try Pattern("(unclosed")) { error in
            let e = error as? DaybookError
            XCTAssertEqual(e?.kind, .usage)
            XCTAssertTrue(e?.message.contains("at character 10") ?? false, e?.message ?? "")
            XCTAssertTrue(e?.message.contains("parenthesis") ?? false)
        }
        XCTAssertThrowsError(try Pattern("ä[")) { error in
            XCTAssertTrue((error as? DaybookError)?.message.contains("at character 3") ?? false)
        }
    }
}
