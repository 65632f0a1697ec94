// Word counting on tricky Markdown: markup, links, autolinks, code, tables, footnotes; inline tags.
import XCTest
@testable import DaybookCore

final class WordCountTests: XCTestCase {
    func words(_ text: String) -> Int { Prose(markdown: text).words }

    /// The rule `countWords` states, from Unicode properties alone: runs of non-space characters
    /// holding a letter or a digit. Its byte table for ASCII must agree with it.
    func referenceCount(_ s: String) -> Int {
        var n = 0, inWord = false, hasAlnum = false
        for u in s.unicodeScalars {
            let space = u.properties.isWhitespace && (u.value >= 0x80 || u.value == 0x20 || (0x09...0x0D).contains(u.value))
            if space {
                if inWord && hasAlnum { n += 1 }
                inWord = false; hasAlnum = false
            } else {
                inWord = true
                if u.properties.isAlphabetic || u.properties.numericType != nil { hasAlnum = true }
            }
        }
        return inWord && hasAlnum ? n + 1 : n
    }

    func testEveryASCIICharacterIsCountedAsTheUnicodeRuleSays() {
        for v in 0..<128 {
            let c = String(Unicode.Scalar(UInt8(v)))
            for s in [c, "x" + c + "y", c + c + " " + c, "- " + c, "é" + c + "é"] {
                XCTAssertEqual(Prose.countWords(s), referenceCount(s), "byte \(v) in \(s.debugDescription)")
                if let plain = Prose.plain(s) { XCTAssertEqual(plain.words, referenceCount(s), "plain, byte \(v)") }
            }
        }
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "9", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", ".", ",", "-", "é", "日本", "\u{00A0}", "\u{2003}", "٣", "🙂"]
        for _ in 0..<2000 {
            let s = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            XCTAssertEqual(Prose.countWords(s), referenceCount(s), s.debugDescription)
        }
    }

    /// Long ASCII runs take the eight-bytes-at-once path: every offset and lane, against the rule.
    func testLongRunsAreCountedAsTheUnicodeRuleSays() {
        var rng = SplitMix64(seed: 5)
        let pieces = ["a", "Z", "9", " ", " ", "word", "\t", "\n", ".", "'", "-", "é", "\u{00A0}", "x.y", "  "]
        var long = 0
        for n in 0..<6000 {
            let count = Int(rng.next() % 40)
            let s = (0..<count).map { _ in pieces[Int(rng.next() % UInt64(n % 3 == 0 ? 6 : pieces.count))] }.joined()
            if s.utf8.count >= 16 { long += 1 }
            XCTAssertEqual(Prose.countWords(s), referenceCount(s), s.debugDescription)
        }
        XCTAssertGreaterThan(long, 3000)
    }

    func testMarkupIsNotWords() {
        XCTAssertEqual(words("# Heading here\n\n**bold** _it_ ~~gone~~\n\n- item one\n- [ ] task two\n\n---\n"), 2 + 3 + 2 + 2)
        XCTAssertEqual(words("> quoted words here\n"), 3)
    }

    func testMarkupInsideAWordKeepsItOneWord() {
        XCTAssertEqual(words("un**believ**able and *half*way\n"), 3)
    }

    func testLinksCountTheirTextNotTheirAddress() {
        XCTAssertEqual(words("[the link text](http://example.org/a/b \"title words\")\n"), 3)
        XCTAssertEqual(words("see <https://example.org/a/b> now\n"), 2)
        XCTAssertEqual(words("see https://example.org/a/b and www.example.org or me@example.org\n"), 3)
        XCTAssertEqual(words("![alt text of a photo](photo.jpg) caption\n"), 1)
    }

    func testCodeBlocksAreNotWordsButCodeSpansAre() {
        XCTAssertEqual(words("Run `grep` now.\n\n```swift\nlet a = 1 + 2\nprint(a)\n```\n\n    indented code block\n"), 3)
    }

    func testTablesCountEachCell() {
        let table = "| who | said what |\n|---|---|\n| nurse | login failed |\n| me | restart |\n"
        XCTAssertEqual(words(table), 1 + 2 + 1 + 2 + 1 + 1)
    }

    func testFootnoteMarkersAreNotWordsButTheirTextIs() {
        XCTAssertEqual(words("A claim[^1] stands.\n\n[^1]: Source in the archive.\n"), 3 + 4)
    }

    func testPunctuationAndHTMLAreNotWords() {
        XCTAssertEqual(words("well-known — yes , 2026 …\n"), 3)
        XCTAssertEqual(words("<div>\nblock html is markup\n</div>\n\nshort<br>line\n"), 2)
    }

    func testInlineTagsSkipCodeLinksAndHeadings() {
        let p = Prose(markdown: "# Title #notatag\n\nMet #Fieldwork and **#bold/tag** `#code` [#link](x) #1 a#b\n")
        XCTAssertEqual(p.inlineTags, ["notatag", "fieldwork", "bold/tag"])
        XCTAssertEqual(p.firstHeading, "Title #notatag")
    }
}
