// A selection in the rendered body becomes the exact quote and occurrence of the Markdown body.
@testable import DaybookCore
import XCTest

final class RenderedSelectionTests: XCTestCase {
    func testPlainTextIsItsOwnQuote() {
        let body = "The login failed again. Later the login failed again.\n"
        let first = RenderedSelection.quote(selected: "login failed", index: 1, in: body)
        XCTAssertEqual(first?.quote, "login failed")
        XCTAssertEqual(first?.occurrence, 1)
        let second = RenderedSelection.quote(selected: "login failed", index: 2, in: body)
        XCTAssertEqual(second?.occurrence, 2)
        XCTAssertNil(RenderedSelection.quote(selected: "login failed", index: 3, in: body))
    }

    func testInlineMarksAndLinksAreTakenIntoTheQuote() {
        let body = "She said the **login** failed, see [the ticket](https://example.org/t/1) today.\n"
        let q = RenderedSelection.quote(selected: "the login failed", index: 1, in: body)
        XCTAssertEqual(q?.quote, "the **login** failed")
        let link = RenderedSelection.quote(selected: "see the ticket today", index: 1, in: body)
        XCTAssertEqual(link?.quote, "see [the ticket](https://example.org/t/1) today")
        XCTAssertEqual(QuoteAnchor.count(of: link?.quote ?? "", in: body), 1)
    }

    func testALineBreakIsWhiteSpaceInTheRenderedText() {
        let body = "first line ends here\nand the next goes on\n"
        XCTAssertEqual(RenderedSelection.quote(selected: "ends here and the next", index: 1, in: body)?.quote, "ends here\nand the next")
    }

    func testTheOccurrenceCountsExactQuotesNotLooseMatches() {
        // The loose match `a b` is found twice, but as exact text `a b` occurs once, after `a *b*`.
        let body = "a *b* and a b\n"
        let q = RenderedSelection.quote(selected: "a b", index: 2, in: body)
        XCTAssertEqual(q?.quote, "a b")
        XCTAssertEqual(q?.occurrence, 1)
    }

    func testNothingSelectedOrNotInTheBody() {
        XCTAssertNil(RenderedSelection.quote(selected: "  ", index: 1, in: "text"))
        XCTAssertNil(RenderedSelection.quote(selected: "absent", index: 1, in: "text"))
    }
}
