// SVG rendering: golden files, pressure and tilt widths, highlighter blending.
import XCTest
@testable import DaybookCore

final class InkRendererTests: XCTestCase {
    func file(_ name: String) throws -> StrokeFile {
        let outcome = StrokeFileParser(path: name).parse(try InkFixtures.data(name))
        return try XCTUnwrap(outcome.file, "\(outcome.problems)")
    }

    /// Compares with `golden/NAME.svg`; DAYBOOK_RECORD_GOLDEN=1 re-records it on purpose.
    func assertGolden(_ svg: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = InkFixtures.folder.appendingPathComponent("golden/\(name).svg")
        if ProcessInfo.processInfo.environment["DAYBOOK_RECORD_GOLDEN"] == "1" {
            try svg.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(svg, golden, "\(name).svg differs; look at it, then re-record with DAYBOOK_RECORD_GOLDEN=1", file: file, line: line)
    }

    func testGoldenPressureAndToolsDrawing() throws {
        let svg = InkRenderer.svg(try file("pressure.strokes.json"))
        try assertGolden(svg, "pressure")
        XCTAssertTrue(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 240" width="320pt" height="240pt">"#))
        XCTAssertEqual(svg, InkRenderer.svg(try file("pressure.strokes.json")), "deterministic")
    }

    func testGoldenWithoutCanvasFitsTheStrokes() throws {
        let svg = InkRenderer.svg(try file("no-canvas.strokes.json"))
        try assertGolden(svg, "no-canvas")
        XCTAssertTrue(svg.contains(#"viewBox="-22.4 -12.4 84.8 39.8""#), svg)
    }

    func testHighlighterIsMultipliedAndTranslucent() throws {
        let svg = InkRenderer.svg(try file("pressure.strokes.json"))
        let line = try XCTUnwrap(svg.split(separator: "\n").first { $0.contains("ink-highlighter") })
        XCTAssertTrue(line.contains("mix-blend-mode:multiply"))
        XCTAssertTrue(line.contains(#"fill-opacity="0.45""#))
        XCTAssertTrue(line.contains("<title>code: frustration</title>"))
        let marker = try XCTUnwrap(svg.split(separator: "\n").first { $0.contains("ink-marker") })
        XCTAssertTrue(marker.contains(##"fill="#8250df" fill-opacity="0.5""##), "the colour's own alpha")
    }

    func testWidthGrowsWithForceAndShrinksWithTilt() {
        let light = StrokeOutline.scale(tool: .pen, force: 0.1, altitude: nil)
        let hard = StrokeOutline.scale(tool: .pen, force: 0.9, altitude: nil)
        let unknown = StrokeOutline.scale(tool: .pen, force: .nan, altitude: nil)
        XCTAssertLessThan(light, unknown)
        XCTAssertLessThan(unknown, hard)
        XCTAssertEqual(unknown, 1, "unknown force draws the nominal width")
        let upright = StrokeOutline.scale(tool: .pen, force: 0.5, altitude: .pi / 2)
        let tilted = StrokeOutline.scale(tool: .pen, force: 0.5, altitude: 0.4)
        XCTAssertLessThan(tilted, upright)
        XCTAssertEqual(StrokeOutline.scale(tool: .highlighter, force: 0.1, altitude: 0.2), 1, "a highlighter keeps its width")
    }

    func testOutlineIsOneClosedSmoothPathWithRoundCaps() {
        var points = PointList(channels: ["x", "y", "force"])
        for i in 0..<20 { points.append([Double(i) * 3, Double(i % 5), Double(i) / 20]) }
        var out = SVGText()
        StrokeOutline(Stroke(width: 4, points: points)).write(to: &out)
        let d = out.string
        XCTAssertTrue(d.hasPrefix("M") && d.hasSuffix("Z"))
        XCTAssertEqual(d.filter { $0 == "A" }.count, 2, "a round cap at each end")
        XCTAssertEqual(d.filter { $0 == "Q" }.count, 2, "each side is one run of curves: no corner joints")
        XCTAssertEqual(d.filter { $0 == "M" }.count, 1)
    }

    func testASinglePointIsADotAndCloseDuplicatesAreDropped() {
        var points = PointList(channels: ["x", "y"])
        points.append([10, 10])
        points.append([10.1, 10])
        var out = SVGText()
        StrokeOutline(Stroke(width: 2, points: points)).write(to: &out)
        XCTAssertEqual(out.string, "M9 10A1 1 0 1 0 11 10A1 1 0 1 0 9 10Z")
    }

    func testNumbersAreWrittenCompactly() {
        var t = SVGText()
        for d in [0, -0.001, 1.5, -2.25, 100.004, 3.999] { t.number(d); t.text(" ") }
        XCTAssertEqual(t.string, "0 0 1.5 -2.25 100 4 ")
    }
}
