// The literal words a pattern's matches must contain: what is kept, what is dropped, what gives up.
import XCTest
@testable import DaybookCore

final class PatternLiteralsTests: XCTestCase {
    func runs(_ pattern: String, fixed: Bool = false) -> [String] { PatternLiterals.runs(pattern, fixed: fixed) }

    func testPlainWordsAndRunsBrokenByOtherCharacters() {
        XCTAssertEqual(runs("pharmacist"), ["pharmacist"])
        XCTAssertEqual(runs("Login failed"), ["login", "failed"], "lowercased, split at the blank")
        XCTAssertEqual(runs("night-shift"), ["night", "shift"])
        XCTAssertEqual(runs("a.b"), [], "runs of one byte are dropped")
        XCTAssertEqual(runs("log.in"), ["log", "in"])
        XCTAssertEqual(runs("café au lait"), ["caf", "au", "lait"], "a non-ASCII character ends a run")
        XCTAssertEqual(runs("snake_case2"), ["snake_case2"])
    }

    func testQuantifiers() {
        XCTAssertEqual(runs("colou?r"), ["colo"], "an optional character ends the run, r alone is too short")
        XCTAssertEqual(runs("colou?rs"), ["colo", "rs"])
        XCTAssertEqual(runs("ab*cd"), ["cd"])
        XCTAssertEqual(runs("abc{0,2}de"), ["ab", "de"])
        XCTAssertEqual(runs("log+in"), ["log", "gin"], "a repeated character ends one run and starts the next")
        XCTAssertEqual(runs("log{2,}in"), ["log", "gin"])
        XCTAssertEqual(runs("lo{2}k"), ["lo", "ok"])
        XCTAssertEqual(runs("ab+?cd"), ["ab", "bcd"], "lazy")
        XCTAssertEqual(runs("ab?+cd"), ["cd"], "possessive")
        XCTAssertEqual(runs("log+in\\s+fail"), ["log", "gin", "fail"])
        XCTAssertEqual(runs("ab{,3}cd"), [], "a brace that is not plainly a quantifier gives up")
        XCTAssertEqual(runs("ab{ 2}cd"), [])
    }

    func testClassesDotsEscapesAndAnchorsBreakRuns() {
        XCTAssertEqual(runs("nur[sz]e"), ["nur"])
        XCTAssertEqual(runs("ab[]x]*cd"), ["ab", "cd"], "a ] first in a class is a member")
        XCTAssertEqual(runs("ab[^]x]cd"), ["ab", "cd"])
        XCTAssertEqual(runs("ab[[:alpha:]]+cd"), ["ab", "cd"])
        XCTAssertEqual(runs("ab[\\]]cd"), ["ab", "cd"])
        XCTAssertEqual(runs("\\bward\\d+ three"), ["ward", "three"])
        XCTAssertEqual(runs("^Gamma$"), ["gamma"])
        XCTAssertEqual(runs("a\\.bc\\(de"), ["bc", "de"])
        XCTAssertEqual(runs("\\Kafter"), ["after"])
    }

    func testGroupsAreSkippedWithTheirQuantifier() {
        XCTAssertEqual(runs("(night|day) shift"), ["shift"])
        XCTAssertEqual(runs("ab(cd)?ef"), ["ab", "ef"])
        XCTAssertEqual(runs("ab(c(d)e)+fg"), ["ab", "fg"])
        XCTAssertEqual(runs("ab(?:[)]x)cd"), ["ab", "cd"], "a ) inside a class does not close the group")
        XCTAssertEqual(runs("ab(?#a comment (with parens)cd"), ["ab", "cd"], "a comment ends at its first )")
        XCTAssertEqual(runs("(?i)Login"), ["login"], "option settings only change case, which runs ignore")
        XCTAssertEqual(runs("foo(?=bar)"), ["foo"])
        XCTAssertEqual(runs("(?<=pre)post"), ["post"])
    }

    func testWhatIsNotFollowedGivesNoRunsAtAll() {
        XCTAssertEqual(runs("nurse|doctor"), [], "alternation outside a group")
        XCTAssertEqual(runs("ab(cd|ef)gh|ij"), [])
        XCTAssertEqual(runs("\\Qa.b\\E"), [])
        XCTAssertEqual(runs("(?x) log in # comment"), [])
        XCTAssertEqual(runs("ab(?x: c d )"), [])
        XCTAssertEqual(runs("\\x{41}bc"), [])
        XCTAssertEqual(runs("\\p{L}abc"), [])
        XCTAssertEqual(runs("(a)\\1bc"), [], "backreferences")
        XCTAssertEqual(runs("(*UCP)abc"), [])
        XCTAssertEqual(runs("ab(*ACCEPT)cd"), [])
        XCTAssertEqual(runs("a{2"), [])
    }

    func testFixedStrings() {
        XCTAssertEqual(runs("login fail", fixed: true), ["login", "fail"])
        XCTAssertEqual(runs("(sic) a|b", fixed: true), ["sic"])
        XCTAssertEqual(runs("C++ ok", fixed: true), ["ok"])
        XCTAssertEqual(runs("\\Qx\\E yz", fixed: true), ["qx", "yz"], "nothing is special in a fixed string")
        XCTAssertEqual(runs("Ward Ward", fixed: true), ["ward"], "each run once")
    }

    /// Every run must occur, lowercased, inside one word of any line the pattern matches.
    func testRunsOccurInTheWordsOfEveryMatch() throws {
        let cases: [(String, String)] = [("log+in\\s+fail", "the loggggin   failed"), ("colou?rs", "COLORS"), ("ab(cd)?ef", "xabefx"),
                                         ("lo{2}k", "look"), ("(?i)KELVIN", "\u{212A}elvin"), ("ab+?cd", "abbbcd")]
        for (pattern, line) in cases {
            let p = try Pattern(pattern, ignoreCase: true)
            var text = line
            XCTAssertFalse(text.withUTF8 { p.matches(in: $0) }.isEmpty, pattern)
            var words: [String] = []
            var bytes = Array(line.utf8)
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            defer { scratch.deallocate() }
            bytes.withUnsafeMutableBufferPointer { buf in
                WordTokens.forEach(in: UnsafeBufferPointer(buf), scratch: scratch) { words.append(String(decoding: $0, as: UTF8.self)) }
            }
            for run in runs(pattern) {
                XCTAssertTrue(words.contains { $0.contains(run) }, "\(pattern): \(run) in \(words)")
            }
        }
    }

    func testWordsAreLowercasedWithTheSignsCaselessMatchingTakesForLetters() {
        var bytes = Array("Grüße \u{212A}ELVIN Mi\u{017F}s a-b_c 2026-11".utf8)
        var words: [String] = []
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        defer { scratch.deallocate() }
        bytes.withUnsafeMutableBufferPointer { buf in
            WordTokens.forEach(in: UnsafeBufferPointer(buf), scratch: scratch) { words.append(String(decoding: $0, as: UTF8.self)) }
        }
        XCTAssertEqual(words, ["grüße", "kelvin", "miss", "a", "b_c", "2026", "11"])
    }
}
