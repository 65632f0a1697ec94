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

    func testPlainStringsAreFoundByTheirBytesAsPCRE2FindsThem() throws {
        XCTAssertEqual(Pattern.plainBytes("nurse", fixed: false), Array("nurse".utf8))
        XCTAssertEqual(Pattern.plainBytes("mood: 3 -x", fixed: false), Array("mood: 3 -x".utf8))
        XCTAssertEqual(Pattern.plainBytes("a.b", fixed: true), Array("a.b".utf8))
        for special in ["a.b", "^a", "a$", "a|b", "a?", "a*", "a+", "(a)", "[a]", "a{2}", "\\d", ""] {
            XCTAssertNil(Pattern.plainBytes(special, fixed: false), special)
        }
        XCTAssertNil(try Pattern("nurse", ignoreCase: true).literal)
        XCTAssertNil(try Pattern("nurse", wholeWord: true).literal)
        XCTAssertNil(try Pattern("nurse", plain: false).literal)
        // The same ranges as PCRE2, overlapping candidates, Unicode and a newline in a fixed string included.
        let subjects = ["nursenurse nurses", "aaaa", "Käse ä Käse", "\u{212A}elvin kelvin", "ward\nnurse ward", "", "x"]
        for (pattern, fixed) in [("nurse", false), ("aa", false), ("ä", false), ("Käse", true), ("\u{212A}", false),
                                 ("ward\nnurse", true), ("a.b", true), ("x", false)] {
            let plain = try Pattern(pattern, fixed: fixed), pcre = try Pattern(pattern, fixed: fixed, plain: false)
            XCTAssertNotNil(plain.literal, pattern)
            for subject in subjects {
                XCTAssertEqual(ranges(plain, subject), ranges(pcre, subject), "\(pattern) in \(subject)")
                var s = subject
                s.withUTF8 { bytes in
                    XCTAssertEqual(plain.hasMatch(in: bytes), pcre.hasMatch(in: bytes), "\(pattern) in \(subject)")
                    // Searches start at a line's start: a character's start, never inside one.
                    for start in 0...bytes.count where start == bytes.count || bytes[start] & 0xC0 != 0x80 {
                        XCTAssertEqual(plain.firstMatch(in: bytes, from: start, checkUTF8: false),
                                       pcre.firstMatch(in: bytes, from: start, checkUTF8: false), "\(pattern) in \(subject) from \(start)")
                    }
                }
            }
        }
    }
}
