// InkML import: difference encoding, contexts, brushes, timestamps, tilt, and refusals.
import XCTest
@testable import DaybookCore

final class InkMLReaderTests: XCTestCase {
    func read(_ text: String) throws -> (file: StrokeFile, warnings: [Diagnostic]) {
        try InkMLReader(path: "t.inkml").read(Data(text.utf8))
    }

    func xy(_ s: Stroke) -> [[Double]] {
        (0..<s.points.count).map { [s.points[$0, 0], s.points[$0, 1]] }
    }

    func testDifferenceEncodedTracesDecodeToTheSamePoints() throws {
        let (file, warnings) = try InkMLReader(path: "d.inkml").read(try InkFixtures.data("difference-encoding.inkml"))
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(file.channels, ["x", "y"])
        let expected: [[Double]] = [[10, 20], [15, 15], [20, 10], [26, 6], [33, 3], [50, 50], [50, 51]]
        XCTAssertEqual(file.strokes.count, 3)
        for s in file.strokes { XCTAssertEqual(xy(s), expected) }
    }

    func testContextsBrushesAndTimestamps() throws {
        let (file, warnings) = try InkMLReader(path: "c.inkml").read(try InkFixtures.data("contexts-brushes.inkml"))
        XCTAssertEqual(file.channels, ["x", "y", "t", "force", "azimuth", "altitude"])
        XCTAssertEqual(file.strokes.count, 5)
        XCTAssertTrue(warnings.contains { $0.message.contains("`S` is ignored") }, "\(warnings)")

        let (a, b, c, d, e) = (file.strokes[0], file.strokes[1], file.strokes[2], file.strokes[3], file.strokes[4])
        XCTAssertEqual(a.tool, .pen)
        XCTAssertEqual(a.color, "#0969DA")
        XCTAssertEqual(a.width, 2.5)
        XCTAssertEqual(a.start, "2026-11-21T09:30:00+01:00")
        XCTAssertEqual((0..<3).map { a.points[$0, 2] }, [0, 500, 1000], "T in seconds becomes milliseconds")
        XCTAssertEqual(b.start, "2026-11-21T09:30:02.500+01:00", "timeOffset moves the start, keeping the offset")

        XCTAssertEqual(c.tool, .highlighter, "rasterOp maskPen is a highlighter")
        XCTAssertEqual(c.color, "#FFF17680", "transparency 127 is alpha 0x80")
        XCTAssertEqual(c.width, 14)
        XCTAssertNil(c.start)
        XCTAssertEqual(c.points[0, 3], 1)
        XCTAssertEqual(c.points[1, 3], 0.5, "F is scaled by its max")
        XCTAssertEqual(c.points[0, 4], .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(c.points[0, 5], .pi / 4, accuracy: 1e-12)
        XCTAssertTrue(c.points[0, 2].isNaN, "no T channel: time unknown")

        XCTAssertEqual(d.code, "workaround", "a brush inherits its brushRef and adds a code")
        XCTAssertEqual(d.tool, .highlighter)

        XCTAssertEqual(e.tool, .pen)
        XCTAssertNil(e.color)
        XCTAssertEqual(e.points[0, 5], .pi / 2, accuracy: 1e-12, "an upright pen")
        XCTAssertEqual(e.points[1, 4], 0, accuracy: 1e-12)
        XCTAssertEqual(e.points[1, 5], .pi / 2 - 0.5, accuracy: 1e-9, "tilt along x lowers the altitude by the same angle")
    }

    func testUnknownValuesRepeatsBooleansAndHex() throws {
        let (file, _) = try read("<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"F\"/></traceFormat><trace>#A 2 ?, * 3 0.5, 'T 'F 1</trace></ink>")
        let s = file.strokes[0]
        XCTAssertEqual(s.points[0, 0], 10)
        XCTAssertTrue(s.points[0, 2].isNaN)
        XCTAssertEqual(s.points[1, 0], 10, "* repeats the last value")
        XCTAssertEqual(s.points[2, 0], 11, "'T is a first difference of 1")
    }

    func testPointsWithoutXOrYAreLeftOutWithAWarning() throws {
        let (file, warnings) = try read("<ink><trace>1 2, ? 3, '1e308 0, '1e308 0, !5 6</trace>\n<trace>? ?</trace></ink>")
        XCTAssertEqual(file.strokes.count, 1)
        XCTAssertEqual(file.strokes[0].points.values, [1, 2, 1e308, 0, 5, 6], "the unknown and the overflowed point are left out")
        XCTAssertEqual(warnings.map(\.message), ["2 points without a known X and Y left out", "1 point without a known X and Y left out",
                                                "a <trace> without points is skipped"])
        XCTAssertEqual(warnings.last?.location?.line, 2)
    }

    func testAContextInTheStreamAppliesToTheTracesAfterIt() throws {
        let (file, _) = try read("<ink><context><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"T\"/></traceFormat></context><trace>1 2 3</trace></ink>")
        XCTAssertEqual(file.channels, ["x", "y", "t"])
        XCTAssertEqual(file.strokes[0].points.values, [1, 2, 3])
    }

    func testBrokenInkMLIsRefusedWithItsLine() {
        let cases: [(String, String)] = [
            ("<ink>\n<trace>1 2, 3 x</trace></ink>", "point 2: unexpected `x`"),
            ("<ink><trace>1 2, 3 4", "ends inside <trace>"),
            ("<svg/>", "root element"),
            ("<ink>\n<trace contextRef=\"#nowhere\">1 2</trace></ink>", "`#nowhere`"),
            ("<ink><traceFormat><channel name=\"X\"/></traceFormat><trace>1</trace></ink>", "channels X and Y"),
            ("<ink></ink>", "no <trace>"),
            ("not xml at all", "InkML"),
            ("<ink><context xml:id=\"a\" contextRef=\"#a\"/><trace contextRef=\"#a\">1 2</trace></ink>", "loop"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try read(text), text) { error in
                let e = error as? DaybookError
                XCTAssertEqual(e?.location?.path, "t.inkml")
                XCTAssertTrue(e?.message.contains(reason) == true, "\(text): \(e?.message ?? "\(error)")")
            }
        }
    }

    func testTraceLinesAreNamed() {
        XCTAssertThrowsError(try read("<ink>\n\n<trace>1 2, 3 x</trace></ink>")) { error in
            XCTAssertEqual((error as? DaybookError)?.location?.line, 3)
        }
    }

    /// Issue 13 item 14: points without commas (`0 0'3'4"1"1"0"0`) were read as one point of eight
    /// values, seven dropped, exit 0. The grammar allows a value per channel: the rest is refused, with the place.
    func testPointsWithoutCommasAreRefusedWithThePointAndCharacter() {
        let text = "<ink>\n<trace>0 0'3'4\"1\"1\"0\"0</trace></ink>"
        XCTAssertThrowsError(try read(text)) { error in
            let e = error as? DaybookError
            XCTAssertEqual(e?.location?.path, "t.inkml")
            XCTAssertEqual(e?.location?.line, 2)
            XCTAssertTrue(e?.message.contains("point 1, character 5 of its text") == true, e?.message ?? "\(error)")
            XCTAssertTrue(e?.message.contains("more values than the trace format's 2 channels") == true, e?.message ?? "\(error)")
        }
        // The same values with commas are four points of two values each.
        XCTAssertEqual(try read("<ink><trace>0 0, '3 '4, \"1 \"1, \"0 \"0</trace></ink>").file.strokes[0].points.count, 4)
    }

    func testDeclaredIntermittentChannelsStillTakeTheirValues() throws {
        let text = "<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><intermittentChannels><channel name=\"S\"/></intermittentChannels></traceFormat>"
            + "<trace>1 2 5, 3 4</trace></ink>"
        let (file, _) = try read(text)
        XCTAssertEqual(xy(file.strokes[0]), [[1, 2], [3, 4]])
        XCTAssertThrowsError(try read(text.replacingOccurrences(of: "1 2 5,", with: "1 2 5 6,"))) { error in
            XCTAssertTrue((error as? DaybookError)?.message.contains("3 channels") == true, "\(error)")
        }
    }
}
