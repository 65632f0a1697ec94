// Day One's backslash-escaped Markdown: escapes that mean nothing go, escapes that matter stay.
import XCTest
@testable import DaybookCore

final class DayOneUnescapeTests: XCTestCase {
    func testNeedlessEscapesAreDropped() {
        XCTAssertEqual(DayOneImport.unescape("We walked to the lake\\. It cost \\$5 \\- cheap\\!"), "We walked to the lake. It cost $5 - cheap!")
        XCTAssertEqual(DayOneImport.unescape("\\(aside\\) a\\+b \\#1"), "(aside) a+b #1")
    }

    func testEscapesThatKeepTextFromBecomingMarkupStay() {
        XCTAssertEqual(DayOneImport.unescape("\\*stars\\* and \\_under\\_ and \\[x\\]"), "\\*stars\\* and \\_under\\_ and \\[x\\]")
        XCTAssertEqual(DayOneImport.unescape("\\# not a heading\n\\- not a list\n12\\. not a list\n"), "\\# not a heading\n\\- not a list\n12\\. not a list\n")
        XCTAssertEqual(DayOneImport.unescape("a \\\\ b"), "a \\\\ b")
    }

    func testTextWithoutEscapesIsUnchanged() {
        let t = "# Trip\n\nGrüße 🙂, C:\\path and a trailing \\"
        XCTAssertEqual(DayOneImport.unescape(t), t)
    }
}
