// Stroke file validation: every problem names line, column, JSON path and what is wrong.
import XCTest
@testable import DaybookCore

final class StrokeFileParserTests: XCTestCase {
    func parse(_ text: String) -> StrokeFileParser.Outcome {
        StrokeFileParser(path: "s.strokes.json").parse(Data(text.utf8))
    }

    func problems(_ text: String) -> [String] {
        parse(text).problems.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)" }
    }

    let header = #"{"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "t", "force"], "strokes": ["#

    func testTheSpecExampleReads() throws {
        let text = """
        {
          "format": "daybook-strokes",
          "version": 1,
          "canvas": {"width": 768, "height": 1024, "unit": "pt"},
          "channels": ["x", "y", "t", "force", "azimuth", "altitude"],
          "strokes": [
        {"tool": "pen", "color": "#1f2328", "width": 2, "start": "2026-11-21T22:41:07.250+01:00", "points": [[12.5, 40, 0, 0.42, 1.57, 1.1], [13, 41.5, 8, 0.47, 1.57, 1.1]]},
        {"tool": "highlighter", "color": "#fff176", "width": 14, "code": "frustration", "points": [[40, 200, 0], [260, 201, 180]]}
          ]
        }

        """
        let outcome = parse(text)
        XCTAssertEqual(outcome.problems, [])
        let file = try XCTUnwrap(outcome.file)
        XCTAssertEqual(file.canvas, StrokeFile.Canvas(width: 768, height: 1024, unit: "pt"))
        XCTAssertEqual(file.strokes.map(\.tool), [.pen, .highlighter])
        XCTAssertEqual(file.strokes[1].points[1, 0], 260)
        XCTAssertTrue(file.strokes[1].points[1, 3].isNaN, "a point that stops early has unknown force")
        XCTAssertEqual(file.codings, [Coding(code: "frustration", source: .ink(stroke: 1))])
        XCTAssertEqual(file.pointCount, 4)
        XCTAssertEqual(file.penTime, 188)
        XCTAssertEqual(StrokeFileWriter.text(file), text, "daybook writes the spec's layout byte for byte")
    }

    func testAPointWithoutYIsNamedByItsPath() {
        XCTAssertEqual(problems(#"{"format": "daybook-strokes", "version": 1, "strokes": [{"tool": "pen", "points": [[1]]}]}"#),
                       ["1:84: `strokes[0].points[0]`: a point needs x and y (y is missing)"])
    }

    func testEveryKindOfProblemIsNamed() {
        let text = header + "\n"
            + #"{"tool": "brush", "color": "red", "width": -1, "points": [[1, 2]]},"# + "\n"
            + #"{"tool": "pen", "code": "not a code", "start": "yesterday", "points": [[1, 2, 3, 4, 5], [1, 2, NaN], [1, 2, 0, 1.5], [1, "a"]]},"# + "\n"
            + #"{"tool": "pen", "tool": "pen"},"# + "\n"
            + #"{"tool": "pen", "points": []}"# + "\n]}"
        let p = problems(text)
        let expected = [
            "2:10: `strokes[0].tool`: unknown tool \"brush\" (known: pen, pencil, marker, highlighter)",
            "2:28: `strokes[0].color`: \"red\" is not a colour: write #RRGGBB or #RRGGBBAA",
            "2:44: `strokes[0].width`: must be a number above 0 (got -1)",
            "3:25: `strokes[1].code`: \"not a code\" is not a code name: use letters, digits, _, - and /",
            "3:48: `strokes[1].start`: must be an ISO 8601 date-time with offset, such as 2026-11-21T22:41:07.250+01:00 (got \"yesterday\")",
            "3:82: `strokes[1].points[0]`: force must be within 0…1 (got 4)",
            "3:72: `strokes[1].points[0]`: has 5 values but the file has 4 channels (x, y, t, force)",
            "3:96: `strokes[1].points[1]`: NaN is not a number JSON can hold",
            "3:112: `strokes[1].points[2]`: force must be within 0…1 (got 1.5)",
            "3:122: `strokes[1].points[3]`: a point holds only numbers (or null for unknown)",
            "4:17: `strokes[2].tool`: the key appears twice",
            "4:1: `strokes[2]`: has no `points`",
            "5:27: `strokes[3].points`: a stroke needs at least one point",
        ]
        XCTAssertEqual(p, expected)
        XCTAssertNil(parse(text).file)
    }

    func testHeaderProblems() {
        XCTAssertEqual(problems(#"{"format": "inkml", "version": 2, "strokes": []}"#), [
            "1:12: `format`: must be \"daybook-strokes\" (got \"inkml\")",
            "1:32: `version`: version 2 is not one this daybook reads (it reads version 1)",
        ])
        XCTAssertEqual(problems(#"{"strokes": []}"#).count, 2, "format and version are required")
        XCTAssertEqual(problems(#"{"format": "daybook-strokes", "version": 1, "channels": ["t", "t"], "strokes": []}"#).count, 3)
        XCTAssertEqual(problems(#"{"format": "daybook-strokes", "version": 1, "canvas": {"width": 0}, "strokes": []}"#).count, 2)
    }

    func testSyntaxErrorsStopWithALocation() {
        for (text, message) in [
            ("", "a stroke file is a JSON object"),
            ("[1]", "a stroke file is a JSON object"),
            (#"{"format": "daybook-strokes","#, "the file ends where `\"` was expected"),
            (#"{"format": "daybook-strokes", "version": 1, "strokes": [{"tool": "pen", "points": [[1, 2]]"#, "the file ends inside a value"),
            (#"{"format": "daybook-strokes" "version": 1}"#, "expected `,` or `}` here"),
            (#"{"format": "daybook-strokes", "version": 01}"#, "cannot start with 0"),
            (#"{"format": "daybook-strokes", "version": 1, "strokes": []} x"#, "something follows"),
            ("{\"format\": \"a\nb\"}", "control character"),
            (#"{"format": 1e999}"#, "too large"),
            (#"{"strokes": "abc"#, "ends inside a string"),
            (#"{"strokes": ["a\"#, "ends inside a string"),
            (#"{"strokes": [[1, 2"#, "ends inside a value"),
        ] {
            let p = parse(text).problems
            XCTAssertTrue(p.last?.message.contains(message) == true, "\(text): \(p)")
            XCTAssertNotNil(p.last?.location?.line, text)
        }
    }

    func testChannelsMayComeAfterTheStrokes() throws {
        let file = try XCTUnwrap(parse(#"{"strokes": [{"tool": "pen", "points": [[1, 2, 0.5]]}], "channels": ["x", "y", "force"], "format": "daybook-strokes", "version": 1}"#).file)
        XCTAssertEqual(file.strokes[0].points.values, [1, 2, 0.5])
    }

    func testUnknownKeysAndNullsAreKept() throws {
        let text = #"{"format": "daybook-strokes", "version": 1, "app": {"name": "Sketch \u00e9\ud83d\ude00"}, "channels": ["x", "y", "t", "force"], "strokes": [{"tool": "pen", "layer": [1, true, null], "points": [[1, 2, null, 0.5]]}]}"#
        let file = try XCTUnwrap(parse(text).file)
        XCTAssertEqual(file.extra[0].1, .object([("name", .string("Sketch é😀"))]))
        XCTAssertEqual(file.strokes[0].extra[0].1, .array([.int(1), .bool(true), .null]))
        let written = StrokeFileWriter.text(file)
        XCTAssertTrue(written.contains(#"[[1, 2, null, 0.5]]"#), written)
        XCTAssertEqual(parse(written).file, file)
    }

    func testRenamingACodeChangesOnlyThatStrokesLine() throws {
        var file = try XCTUnwrap(parse(header + #"{"tool": "pen", "points": [[1, 2]]}, {"tool": "highlighter", "code": "trust", "points": [[1, 2]]}]}"#).file)
        let before = StrokeFileWriter.text(file).split(separator: "\n")
        XCTAssertEqual(file.renameCode("trust", to: "distrust"), 1)
        XCTAssertEqual(file.renameCode("absent", to: "x"), 0)
        let after = StrokeFileWriter.text(file).split(separator: "\n")
        XCTAssertEqual(zip(before, after).filter { $0 != $1 }.count, 1)
        XCTAssertEqual(file.codings, [Coding(code: "distrust", source: .ink(stroke: 1))])
    }

    func testAppendingAddsChannelsWithoutTouchingWrittenPoints() throws {
        var a = try XCTUnwrap(parse(header + #"{"tool": "pen", "points": [[1, 2, 3, 0.5]]}]}"#).file)
        let b = try XCTUnwrap(parse(#"{"format": "daybook-strokes", "version": 1, "channels": ["x", "y", "altitude"], "strokes": [{"tool": "pencil", "points": [[5, 6, 1]]}]}"#).file)
        let before = StrokeFileWriter.text(a).split(separator: "\n")
        a.append(b)
        XCTAssertEqual(a.channels, ["x", "y", "t", "force", "altitude"])
        let after = StrokeFileWriter.text(a).split(separator: "\n")
        XCTAssertEqual(after.count, before.count + 1, "one more line: the new stroke")
        XCTAssertEqual(after[after.count - 4], before[before.count - 3] + ",", "the stroke before only gains its comma")
        XCTAssertEqual(String(after[after.count - 3]), #"{"tool": "pencil", "points": [[5, 6, null, null, 1]]}"#)
    }
}
