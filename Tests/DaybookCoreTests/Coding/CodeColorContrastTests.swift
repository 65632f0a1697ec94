// A code's colour against the white page: the ratio WCAG defines, and the darker underline of a pale one.
import XCTest
@testable import DaybookCore

final class CodeColorContrastTests: XCTestCase {
    func testTheRatiosAreWCAGs() throws {
        XCTAssertEqual(try XCTUnwrap(CodeColorContrast.againstWhite("#000000")), 21, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(CodeColorContrast.againstWhite("#ffffff")), 1, accuracy: 0.01)
        // The two the audit measured: the highlighter's old yellow and the example's `workaround`.
        XCTAssertEqual(try XCTUnwrap(CodeColorContrast.againstWhite("#fff176")), 1.16, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(CodeColorContrast.againstWhite("#bf8700")), 3.14, accuracy: 0.01)
        // An alpha is laid over white first: half-transparent black is a mid grey.
        XCTAssertEqual(try XCTUnwrap(CodeColorContrast.againstWhite("#00000080")), try XCTUnwrap(CodeColorContrast.againstWhite("#7f7f7f")), accuracy: 0.05)
        XCTAssertNil(CodeColorContrast.againstWhite("yellow"))
    }

    func testAColourThatReachesThreeToOneIsKept() {
        XCTAssertEqual(CodeColorContrast.underline("#d1242f"), "#d1242f")
        XCTAssertEqual(CodeColorContrast.underline("#bf8700"), "#bf8700")
        XCTAssertNil(CodeColorContrast.warning(code: "frustration", color: "#d1242f"))
    }

    func testAPaleColourIsDarkenedInItsOwnHueJustEnough() throws {
        let line = CodeColorContrast.underline("#fff176")
        let ratio = try XCTUnwrap(CodeColorContrast.againstWhite(line))
        XCTAssertGreaterThanOrEqual(ratio, 3)
        XCTAssertLessThan(ratio, 3.2, "darkened no more than it takes")
        // The same hue: the channels keep their proportions (to rounding).
        let c = try XCTUnwrap(CodeColorContrast.channels(line))
        XCTAssertEqual(c[1] / c[0], 0xf1 / 255.0, accuracy: 0.02)
        XCTAssertEqual(c[2] / c[0], 0x76 / 255.0, accuracy: 0.02)
    }

    func testThePaleColourIsSaidWithItsRatioAndTheShadeUsed() throws {
        let warning = try XCTUnwrap(CodeColorContrast.warning(code: "pale", color: "#FFE08A"))
        XCTAssertTrue(warning.contains("`pale`") && warning.contains("1.29 : 1") && warning.contains(CodeColorContrast.underline("#FFE08A")), warning)
    }

    func testAHighlightOfAPaleCodeIsUnderlinedDarkerAndNamesItsCoding() {
        let body = "The nurse showed me the tablet.\n"
        let r = body.range(of: "The nurse")!
        let html = CodedSegmentMarker.render(body, segments: [CodedSegment(range: r, code: "pale", color: "#ffe08a", coding: 2)], unsafe: false)
        let line = CodeColorContrast.underline("#ffe08a")
        XCTAssertNotEqual(line, "#ffe08a")
        XCTAssertTrue(html.contains("<mark class=\"coded\" style=\"--code: #ffe08a; --code-line: \(line)\" data-coding=\"2\" title=\"pale\">The nurse</mark>"), html)
    }
}
