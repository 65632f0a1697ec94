// Words of prose and inline tags, read from the cmark-gfm tree.
import XCTest
@testable import DaybookCore

final class ProseTests: XCTestCase {
    func testMarkupAndURLsAreNotWords() {
        XCTAssertEqual(Prose(markdown: "# Heading here\n\n**bold** [link](http://example.org/a/b)\n\n- item one\n").words, 6)
        XCTAssertEqual(Prose(markdown: "See https://example.org/x for more.\n").words, 3)
        XCTAssertEqual(Prose(markdown: "```\nlet code = 1\n```\nafter\n").words, 1)
        XCTAssertEqual(Prose(markdown: "| a | b |\n|---|---|\n| one two | three |\n").words, 5)
        XCTAssertEqual(Prose(markdown: "— – ... !!\n").words, 0)
    }

    func testInlineTagsOnlyInProse() {
        let text = "A #hashtag and `#notatag` in code, [#inlink](http://x.org/#frag), #Mixed/Case.\n\n```\n#alsonotatag\n```\n\n# Heading #intitle\n\nIssue #12 and a&#39;b and x#y.\n"
        XCTAssertEqual(Prose(markdown: text).inlineTags, ["hashtag", "mixed/case", "intitle"])
    }

    func testFirstHeading() {
        XCTAssertEqual(Prose(markdown: "intro\n\n## Second *level*\n\n# First\n").firstHeading, "Second level")
        XCTAssertNil(Prose(markdown: "no heading\n").firstHeading)
    }

    func testHTMLEscapesRawHTMLUnlessUnsafe() {
        let html = Markdown.html("Hello <script>alert(1)</script> **world**\n\n<div>block</div>\n")
        XCTAssertFalse(html.contains("<script>"))
        XCTAssertTrue(html.contains("&lt;script&gt;"))
        XCTAssertTrue(html.contains("<strong>world</strong>"))
        XCTAssertTrue(Markdown.html("<b>x</b>\n", unsafe: true).contains("<b>x</b>"))
        let comments = Markdown.html("## Why?\n<!-- a prompt -->\n\ntext <!-- inline --> more\n")
        XCTAssertFalse(comments.contains("prompt") || comments.contains("inline") || comments.contains("&lt;!--"), comments)
        let gfm = Markdown.html("| a |\n|---|\n| 1 |\n\n- [x] done\n\n~~gone~~ www.example.org\n")
        XCTAssertTrue(gfm.contains("<table>") && gfm.contains("checkbox") && gfm.contains("<del>") && gfm.contains("<a href"))
    }
}
