// Prose counted without a Markdown tree must equal prose counted from cmark's tree: a generated
// property test over text made of words, punctuation and the markup that must send it to cmark.
import XCTest
@testable import DaybookCore

final class PlainProseTests: XCTestCase {
    static let pieces = [
        "word", "Ward", "night", "café", "日記", "don't", "it's.", "end.", "(aside)", "\"said\"", "50%", "$3", "a/b", "e.g.",
        "1", "2.", "3)", "-", "+", "=", "---", "===", "*", "**bold**", "_it_", "`code`", "#tag", "#12", "[link](x)", "<b>",
        "&amp;", "\\*", "|", "~~x~~", "user@example.org", "www.example.org", "WWW.x.org", "http://x.org", ":", "!", "?",
        "\u{A0}", "\t", "  ", "\r", "\u{3000}", "—", "…",
    ]

    func testAgreesWithTheTree() {
        var rng = SplitMix64(seed: 19)
        var plain = 0, tree = 0
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) {
                let r = rng.next() % 10
                if r == 0 { text += "\n" } else if r == 1 { text += "\n\n" } else if r < 6 { text += " " }
                if rng.next() % 3 == 0 {
                    text += PlainProseTests.pieces[Int(rng.next() % UInt64(PlainProseTests.pieces.count))]
                } else {
                    text += ["Around", "system", "nurse", "quiet", "chart", "we", "Über", "la"][Int(rng.next() % 8)]
                }
            }
            let fromTree = Prose(document: Markdown.parse(text))
            let quick = Prose(markdown: text)
            if Prose.plain(text) != nil { plain += 1 } else { tree += 1 }
            XCTAssertEqual(quick.words, fromTree.words, text.debugDescription)
            XCTAssertEqual(quick.firstHeading, fromTree.firstHeading, text.debugDescription)
            XCTAssertEqual(quick.inlineTags, fromTree.inlineTags, text.debugDescription)
        }
        // Both ways were taken many times, or the test shows nothing.
        XCTAssertGreaterThan(plain, 500)
        XCTAssertGreaterThan(tree, 500)
    }

    func testSendsMarkupToTheTree() {
        for text in ["a *b*", "# H", "H\n===", "H\n---", "- item", "1. one", "    code", "see www.x.org", "a@b.org", "x #tag", "a & b", "a\\b"] {
            XCTAssertNil(Prose.plain(text), text)
        }
        XCTAssertEqual(Prose.plain("Plain words, (here) too.\n\nTwo paragraphs!")?.words, 6)
    }
}
