// Quote anchoring: repeated and edited text, Unicode scalar positions, CRLF bodies.
import XCTest
@testable import DaybookCore

final class QuoteAnchorTests: XCTestCase {
    func testFindsTheRequestedOccurrence() {
        let body = "the login failed. Later the login failed again.\n"
        XCTAssertEqual(QuoteAnchor.locate("the login failed", in: body), QuoteAnchor(start: 0, end: 16))
        XCTAssertEqual(QuoteAnchor.locate("the login failed", occurrence: 2, in: body), QuoteAnchor(start: 24, end: 40))
        XCTAssertNil(QuoteAnchor.locate("the login failed", occurrence: 3, in: body))
        XCTAssertNil(QuoteAnchor.locate("the login failed", occurrence: 0, in: body))
        XCTAssertEqual(QuoteAnchor.count(of: "the login failed", in: body), 2)
        XCTAssertEqual(QuoteAnchor.occurrence(of: "the login failed", startingAt: 24, in: body), 2)
        XCTAssertNil(QuoteAnchor.occurrence(of: "the login failed", startingAt: 3, in: body))
    }

    func testOccurrencesDoNotOverlap() {
        XCTAssertEqual(QuoteAnchor.count(of: "aa", in: "aaaa"), 2)
        XCTAssertEqual(QuoteAnchor.locate("aa", occurrence: 2, in: "aaaa"), QuoteAnchor(start: 2, end: 4))
        XCTAssertEqual(QuoteAnchor.count(of: "aa", in: "aaa"), 1)
    }

    func testSurvivesEditsElsewhereAndOrphansWhenTheQuoteIsEdited() {
        let before = "Intro.\nThe nurse restarted it.\n"
        let after = "A new first paragraph, longer.\n\nIntro.\nThe nurse restarted it.\n"
        let a = QuoteAnchor.locate("restarted it", in: before)
        let b = QuoteAnchor.locate("restarted it", in: after)
        XCTAssertEqual(a?.end, 29)
        XCTAssertEqual(b.map { $0.end - $0.start }, 12)
        XCTAssertEqual(b?.start, 32 + 7 + 10)
        XCTAssertNil(QuoteAnchor.locate("restarted it", in: "The nurse rebooted it.\n"))
        // Editing the text between two occurrences moves the second, and it is still found.
        XCTAssertNotNil(QuoteAnchor.locate("it", occurrence: 2, in: "it and it"))
        XCTAssertNil(QuoteAnchor.locate("it", occurrence: 2, in: "it and that"))
    }

    func testPositionsCountUnicodeScalars() {
        // 👩‍⚕️ is four scalars (woman, ZWJ, staff of Aesculapius, VS16): one Character, four positions.
        let body = "👩‍⚕️ said: café, cafe\u{301} — ok"
        let a = QuoteAnchor.locate("said", in: body)
        XCTAssertEqual(a, QuoteAnchor(start: 5, end: 9))
        // Precomposed é and e + combining acute are different scalars: each quote finds only its own.
        XCTAssertEqual(QuoteAnchor.locate("café", in: body), QuoteAnchor(start: 11, end: 15))
        XCTAssertEqual(QuoteAnchor.locate("cafe\u{301}", in: body), QuoteAnchor(start: 17, end: 22))
        XCTAssertEqual(QuoteAnchor.count(of: "café", in: body), 1)
        let scalars = Array(body.unicodeScalars)
        let ok = QuoteAnchor.locate("ok", in: body)!
        XCTAssertEqual(String(String.UnicodeScalarView(scalars[ok.start..<ok.end])), "ok")
    }

    func testCRLFBodiesKeepTheirOwnOffsets() {
        let body = "first line\r\nsecond line\r\nthird\r\n"
        let a = QuoteAnchor.locate("line\nsecond", in: body)
        XCTAssertEqual(a, QuoteAnchor(start: 6, end: 18))
        XCTAssertEqual(QuoteAnchor.locate("line\r\nsecond", in: body), a)
        XCTAssertEqual(QuoteAnchor.locate("third", in: body), QuoteAnchor(start: 25, end: 30))
    }

    func testWholeEntryAndEmptyQuotes() {
        XCTAssertEqual(QuoteAnchor.locate(Coding(code: "trust"), in: "héllo\n"), QuoteAnchor(start: 0, end: 6))
        XCTAssertNil(QuoteAnchor.locate("", in: "text"))
        XCTAssertNil(QuoteAnchor.locate(Coding(code: "x", quote: "gone"), in: "text"))
        XCTAssertTrue(QuoteAnchor(start: 0, end: 5).overlaps(QuoteAnchor(start: 4, end: 8)))
        XCTAssertFalse(QuoteAnchor(start: 0, end: 4).overlaps(QuoteAnchor(start: 4, end: 8)))
    }

    /// ASCII bodies are searched as bytes: every anchor, count and occurrence must be what the
    /// scalar search gives, over generated bodies and quotes (CRLF, lone CR, characters beyond
    /// ASCII, NUL, repeats that overlap).
    func testTheASCIIPathAgreesWithTheScalarPath() {
        var rng = SplitMix64(seed: 42)
        let pieces = ["a", "b", "ab", "aa", " ", "\n", "\r\n", "\r", "é", "🙂", "\u{0}", "login failed"]
        func text(_ most: Int) -> String {
            (0..<Int(rng.next() % UInt64(most))).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
        var asciiBodies = 0
        for _ in 0..<4000 {
            var body = text(14)
            if rng.next() % 2 == 0 { body = body.filter { $0.isASCII && $0 != "\r" && $0 != "\r\n" } }
            if !body.isEmpty, body.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { asciiBodies += 1 }
            let quotes = (0..<3).map { _ in text(4) }
            let codings = quotes.map { Coding(code: "c", quote: $0.isEmpty ? nil : $0, occurrence: Int(rng.next() % 3) + 1) }
            func answers() -> [String] {
                var out = QuoteAnchor.locate(codings, in: body).map { "\($0.map { "\($0.start)-\($0.end)" } ?? "none")" }
                for q in quotes {
                    out.append("count \(QuoteAnchor.count(of: q, in: body))")
                    for start in 0..<4 { out.append("at \(start): \(QuoteAnchor.occurrence(of: q, startingAt: start, in: body) ?? 0)") }
                }
                return out
            }
            NormalizedText.asciiFastPath = true
            let fast = answers()
            NormalizedText.asciiFastPath = false
            let general = answers()
            NormalizedText.asciiFastPath = true
            XCTAssertEqual(fast, general, "body \(Array(body.unicodeScalars)) quotes \(quotes.map { Array($0.unicodeScalars) })")
        }
        XCTAssertGreaterThan(asciiBodies, 1500)
    }

    /// A quote as messages and `code ls` show it: one line, at most 60 characters.
    func testAQuoteIsShownOnOneShortLine() {
        XCTAssertEqual(CodeApplication.short("the login\r\nfailed\nagain"), "the login failed again")
        XCTAssertEqual(CodeApplication.short("one line"), "one line")
        let long = String(repeating: "é", count: 70)
        XCTAssertEqual(CodeApplication.short(long), String(repeating: "é", count: 57) + "…")
        XCTAssertEqual(CodeApplication.short(String(repeating: "x", count: 60)), String(repeating: "x", count: 60))
    }

    /// The word-at-a-time ASCII test must say what a byte-at-a-time one says: every byte value at
    /// every place of texts shorter and longer than a word.
    func testTheASCIITestAgreesWithOneByteAtATime() {
        var checked = 0
        for count in [1, 7, 8, 9, 16, 17] {
            for place in 0..<count {
                for c in 0...255 {
                    var bytes = [UInt8](repeating: 0x61, count: count)
                    bytes[place] = UInt8(c)
                    let expected = !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
                    XCTAssertEqual(bytes.withUnsafeBufferPointer(NormalizedText.isASCIIWithoutCR), expected, "\(bytes)")
                    checked += 1
                }
            }
        }
        XCTAssertTrue([UInt8]().withUnsafeBufferPointer(NormalizedText.isASCIIWithoutCR))
        XCTAssertGreaterThan(checked, 10000)
    }
}
