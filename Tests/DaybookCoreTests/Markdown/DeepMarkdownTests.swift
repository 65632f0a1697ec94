// Markdown nested thousands of levels deep: read without running out of stack (issue 20, item 3).
import XCTest
@testable import DaybookCore

final class DeepMarkdownTests: XCTestCase {
    func testDeepQuotesKeepTheirWordsAndTags() {
        let prose = Prose(markdown: String(repeating: "> ", count: 12_000) + "deep words #deep\n\nafter\n")
        XCTAssertEqual(prose.words, 4)
        XCTAssertEqual(prose.inlineTags, ["deep"])
    }

    func testDeepListsAndTheTreeStaysWithinTheBound() {
        let doc = Markdown.parse(String(repeating: "- ", count: 5_000) + "x\n")
        var depth = 0, level = [doc]
        while !level.isEmpty { depth += 1; level = level.flatMap(\.children) }
        XCTAssertLessThanOrEqual(depth, Markdown.maxDepth + 2)
        XCTAssertEqual(doc.plainText.trimmingCharacters(in: .whitespacesAndNewlines), "x")
    }

    func testDeepHTMLRenders() {
        let html = Markdown.html(String(repeating: "> ", count: 12_000) + "<b>x</b>\n")
        XCTAssertTrue(html.contains("&lt;b&gt;x&lt;/b&gt;"))
    }

    func testShallowTreesAreUnchanged() {
        let doc = Markdown.parse("> quote with *emphasis*\n\n- a\n  - b\n")
        XCTAssertEqual(doc.children.map(\.kind), [.blockQuote, .list])
        XCTAssertEqual(doc.children[0].children[0].children.map(\.kind), [.text, .emphasis])
        XCTAssertEqual(doc.children[1].children[0].children.map(\.kind), [.paragraph, .list])
    }
}
