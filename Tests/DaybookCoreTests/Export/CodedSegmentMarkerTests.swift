// Coded segments in rendered HTML: marked per text run, named beside, never breaking the markup.
import XCTest
@testable import DaybookCore

final class CodedSegmentMarkerTests: XCTestCase {
    func segment(_ body: String, _ quote: String, _ code: String) -> CodedSegment {
        let r = body.range(of: quote)!
        return CodedSegment(range: r, code: code, color: "#d1242f")
    }

    func testASegmentIsMarkedAndNamed() {
        let body = "The login failed again, and she restarted it.\n"
        let html = CodedSegmentMarker.render(body, segments: [segment(body, "failed again", "frustration")], unsafe: false)
        XCTAssertTrue(html.contains("<mark class=\"coded\" style=\"--code: #d1242f\" title=\"frustration\">failed again</mark><sup class=\"code-label\">frustration</sup>"), html)
    }

    func testASegmentAcrossEmphasisIsMarkedInPiecesThatNest() {
        let body = "one **two three** four\n"
        let html = CodedSegmentMarker.render(body, segments: [segment(body, "two three** four", "x")], unsafe: false)
        XCTAssertTrue(html.contains("<strong><mark class=\"coded\" style=\"--code: #d1242f\" title=\"x\">two three</mark></strong>"), html)
        XCTAssertTrue(html.contains("<mark class=\"coded\" style=\"--code: #d1242f\" title=\"x\"> four</mark><sup"), html)
        XCTAssertFalse(html.unicodeScalars.contains { $0.value >= 0xF0000 }, "no marker is left")
    }

    func testOverlappingSegmentsNestAndBothAreNamed() {
        let body = "alpha beta gamma\n"
        let html = CodedSegmentMarker.render(body, segments: [segment(body, "alpha beta", "a"), segment(body, "beta gamma", "b")], unsafe: false)
        XCTAssertTrue(html.contains(">a</sup>") && html.contains(">b</sup>"), html)
        XCTAssertEqual(html.components(separatedBy: "<mark").count, html.components(separatedBy: "</mark>").count)
    }

    func testRawHTMLStaysEscapedAroundMarks() {
        let body = "before <script>alert(1)</script> after\n"
        let html = CodedSegmentMarker.render(body, segments: [segment(body, "after", "x")], unsafe: false)
        XCTAssertFalse(html.contains("<script>"))
        XCTAssertTrue(html.contains("&lt;script&gt;"))
    }
}
