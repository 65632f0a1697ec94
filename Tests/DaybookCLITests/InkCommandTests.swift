// End-to-end: ink add, render, ls, export, new --ink, check, and highlighter codings.
import XCTest

final class InkCommandTests: CLITestCase {
    let strokes = """
    {"format": "daybook-strokes", "version": 1, "canvas": {"width": 200, "height": 100, "unit": "pt"},
     "channels": ["x", "y", "t", "force"],
     "strokes": [
      {"tool": "pen", "color": "#1f2328", "width": 2, "points": [[10, 10, 0, 0.3], [20, 12, 8, 0.6], [30, 15, 1016, 0.8]]},
      {"tool": "highlighter", "color": "#fff176", "width": 12, "code": "Frustration", "points": [[5, 50, 0], [150, 52, 90]]}
     ]}
    """

    func sidecar(_ entry: URL) -> URL {
        entry.deletingPathExtension().appendingPathExtension("strokes.json")
    }

    func input(_ name: String, _ text: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAddWritesOneStrokePerLineInOneCommit() throws {
        try initDiary()
        let p = try newEntry("Sketch", "-m", "See drawing.")
        let r = try ok("ink", "add", "last", try input("s.json", strokes))
        XCTAssertTrue(r.err.contains("added 2 strokes"), r.err)
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "ink: +2 strokes on Sketch")
        XCTAssertEqual(try git("status", "--porcelain"), "")
        let lines = try read(sidecar(p)).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("{\"tool\"") }.count, 2)

        // A second add is a small diff: the old last stroke gains a comma, one line is added.
        let more = #"{"format": "daybook-strokes", "version": 1, "channels": ["x", "y"], "strokes": [{"tool": "pencil", "points": [[1, 2]]}]}"#
        try ok("ink", "add", "last", try input("more.json", more))
        XCTAssertEqual(try commitCount(), 4)
        let stat = try git("diff", "--numstat", "HEAD~1", "HEAD").split(separator: "\t")
        XCTAssertEqual(stat.prefix(2), ["2", "1"], "2 lines added, 1 removed: the comma and the new stroke")
        XCTAssertTrue(try read(sidecar(p)).contains(#"{"tool": "pencil", "points": [[1, 2]]}"#))
    }

    func testBrokenInputIsRefusedAndWritesNothing() throws {
        try initDiary()
        let p = try newEntry("Ink", "-m", "x")
        let bad = try input("bad.json", #"{"format": "daybook-strokes", "version": 1, "strokes": [{"tool": "crayon", "points": [[1]]}]}"#)
        let r = try run(["ink", "add", "last", bad])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("bad.json:1:") && r.err.contains("`strokes[0].tool`: unknown tool \"crayon\"") && r.err.contains("and 1 more problem"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar(p).path))
        XCTAssertEqual(try commitCount(), 2)
    }

    func testHighlighterCodesAreCodingsOfTheEntry() throws {
        try initDiary()
        _ = try newEntry("Sketch", "-m", "See drawing.")
        try ok("ink", "add", "last", try input("s.json", strokes))
        let show = try ok("show", "last", "--json").out
        XCTAssertTrue(show.contains("\"code\": \"frustration\""), show)
        XCTAssertTrue(show.contains("\"stroke\": 1"), show)
        XCTAssertTrue(try ok("ls", "--has-ink", "--json").out.contains("\"has_ink\": true"))
    }

    func testABrokenStrokeFileWarnsButTheEntryStaysReadable() throws {
        try initDiary()
        let p = try newEntry("Sketch", "-m", "words")
        try "{\"format\": \"daybook-strokes\", \"version\": 1, \"strokes\": [{\"tool\": \"pen\", \"points\": [[1, NaN]]}, {\"tool\": \"crayon\", \"points\": [[1, 2]]}]}\n"
            .write(to: sidecar(p), atomically: true, encoding: .utf8)
        let ls = try run(["ls"])
        XCTAssertEqual(ls.status, 0)
        XCTAssertTrue(ls.out.contains("Sketch"))
        XCTAssertTrue(ls.err.contains(".strokes.json:1:") && ls.err.contains("crayon"), ls.err)
        XCTAssertFalse(ls.err.contains("NaN"), "reading commands do not read points")
        let check = try run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.out.contains("error: `strokes[0].points[0]`: NaN is not a number JSON can hold"), check.out)
        let inkLs = try run(["ink", "ls"])
        XCTAssertEqual(inkLs.status, 1)
        XCTAssertTrue(inkLs.err.contains("warning: skipped: `strokes[0].points[0]`: NaN"), inkLs.err)
        XCTAssertEqual(try run(["ink", "render", "last"]).status, 2)
        XCTAssertEqual(try run(["ink", "add", "last", try input("s.json", strokes)]).status, 2, "a broken stroke file is not overwritten")
    }

    func testRenderLsAndExportRoundTrip() throws {
        try initDiary()
        let p = try newEntry("Sketch", "-m", "See drawing.")
        try ok("ink", "add", "last", try input("s.json", strokes))
        let svg = try ok("ink", "render", "last").out
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 200 100\""), svg)
        let out = home.appendingPathComponent("out.svg")
        try ok("ink", "render", "last", "-o", out.path)
        XCTAssertEqual(try read(out), svg)

        XCTAssertTrue(try ok("ink", "ls").out.contains("Sketch  2 strokes, 5 points, 1.1 s"))
        let ls = try ok("ink", "ls", "--json").out
        XCTAssertTrue(ls.contains("\"points\": 5") && ls.contains("\"pen_time\": 1.106"), ls)

        let inkml = try ok("ink", "export", "last", "--format", "inkml").out
        let q = try newEntry("Copy", "-m", "again", "--ink", try input("e.inkml", inkml))
        XCTAssertEqual(try read(sidecar(q)), try read(sidecar(p)).replacingOccurrences(of: "  \"canvas\": {\"width\": 200, \"height\": 100, \"unit\": \"pt\"},\n", with: ""),
                       "InkML carries the strokes, not the canvas")
        XCTAssertEqual(try git("show", "--stat", "--format=%s", "HEAD").contains("copy.strokes.json"), true, "new --ink commits the strokes with the entry")
    }

    func testNothingToShowIsExitOne() throws {
        try initDiary()
        _ = try newEntry("Plain", "-m", "x")
        XCTAssertEqual(try run(["ink", "render", "last"]).status, 1)
        XCTAssertEqual(try run(["ink", "ls"]).status, 1)
        XCTAssertEqual(try run(["ink", "export", "last", "--format", "svg"]).status, 2)
    }
}
