// Renaming inline #tags: prose only, never in code, link destinations, URLs, HTML or heading marks.
import XCTest
@testable import DaybookCore

final class InlineTagRenameTests: XCTestCase {
    func testRenamesOnlyProseTags() {
        let body = """
        # Heading with #old
        #old at the start, #OLD in caps, #old/sub nested, #older not, x#old not, &#old; not.
        `#old` in code and [#old link text](http://example.org/#old) and <http://example.org/#old>.
        http://example.org/page#old and <span title="#old">#old</span>

        ```
        #old in a fence
        ```

            #old indented code
        """
        let (text, replaced) = Prose.renamingInlineTag("old", to: "new", in: body)
        XCTAssertEqual(text, """
        # Heading with #new
        #new at the start, #new in caps, #new/sub nested, #older not, x#old not, &#old; not.
        `#old` in code and [#old link text](http://example.org/#old) and <http://example.org/#old>.
        http://example.org/page#old and <span title="#old">#new</span>

        ```
        #old in a fence
        ```

            #old indented code
        """)
        XCTAssertEqual(replaced.count, 5, "a link's text is not searched for tags, as Prose.inlineTags reads it")
        XCTAssertEqual(Prose(markdown: text).inlineTags.filter { $0.hasPrefix("new") }, ["new", "new/sub"])
        XCTAssertFalse(Prose(markdown: text).inlineTags.contains("old"))
    }

    func testScalarRangesAreRightAfterEmoji() {
        let body = "👩‍⚕️ #old é\u{301} #old"
        let ranges = Prose.inlineTagRanges("old", in: body)
        XCTAssertEqual(ranges, [5..<9, 13..<17], "the emoji is four scalars, é + combining acute two")
        XCTAssertEqual(Prose.renamingInlineTag("old", to: "n", in: body).text, "👩‍⚕️ #n é\u{301} #n")
    }

    func testQuotesFollowTheRenamedTag() {
        let before = "a #old b. c #old d."
        let (after, replaced) = Prose.renamingInlineTag("old", to: "newer", in: before)
        let edits = replaced.map { (range: $0, length: 6) }
        let inside = Coding(code: "x", quote: "c #old d").following(edits, from: before, to: after)
        XCTAssertEqual(inside.quote, "c #newer d")
        let second = Coding(code: "x", quote: "#old", occurrence: 2).following(edits, from: before, to: after)
        XCTAssertEqual(second.quote, "#newer")
        XCTAssertEqual(second.occurrence, 2)
        let untouched = Coding(code: "x", quote: "b. c").following(edits, from: before, to: after)
        XCTAssertEqual(untouched.quote, "b. c")
        XCTAssertNotNil(QuoteAnchor.locate(untouched, in: after))
        let cut = Coding(code: "x", quote: "ld b").following(edits, from: before, to: after)
        XCTAssertEqual(cut.quote, "ld b", "a quote an edit cuts through stays (and is reported orphaned)")
    }
}
