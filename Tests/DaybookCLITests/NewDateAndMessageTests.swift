// `new -m` with text that starts with `-`, and `new --date` / `import jrnl` across daylight-saving changes.
import Foundation
import XCTest

final class NewDateAndMessageTests: CLITestCase {
    func testAMessageMayStartWithADash() throws {
        try initDiary()
        for (flag, text) in [("-m", "- buy milk"), ("-m", "-5 degrees"), ("--message", "--not an option"), ("-m", "-")] {
            let r = try run(["new", flag, text, "Note"])
            XCTAssertEqual(r.status, 0, "\(flag) \(text): \(r.err)")
            guard r.status == 0 else { continue }
            let path = diary.deletingLastPathComponent().appendingPathComponent(r.out.trimmingCharacters(in: .whitespacesAndNewlines))
            XCTAssertTrue(try read(path).hasSuffix("---\n\(text)\n"), text)
            try FileManager.default.removeItem(at: path)
        }
        // An option after it is still an option.
        let p = try newEntry("-m", "-x", "-t", "weather", "Cold")
        XCTAssertTrue(try read(p).contains("tags: [weather]"))
    }

    func testATrailingDashMWithoutTextIsStillAUsageError() throws {
        try initDiary()
        let n = try commitCount()
        // `--diary D` given before the command moves to the end, where `-m` must not take it as text.
        let r = try run(["--diary", diary.path, "new", "T", "-m"], env: ["DAYBOOK_DIR": ""])
        XCTAssertEqual(r.status, 2, r.err)
        XCTAssertTrue(r.err.contains("Missing value for '-m <message>'"), r.err)
        XCTAssertEqual(try commitCount(), n)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("daybook").path))
    }

    func testADateInTheSpringGapMovesForwardAndSaysSo() throws {
        try initDiary()
        let r = try run(["new", "--date", "2026-03-29 02:30", "-m", "x", "Gap"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("2026-03-29-0330-gap.md"), r.out)
        XCTAssertTrue(r.err.contains("warning: --date: 2026-03-29 02:30 does not exist in Europe/Vienna"), r.err)
        XCTAssertTrue(r.err.contains("moved forward to 03:30"), r.err)
        let text = try read(diary.appendingPathComponent("entries/2026/03/2026-03-29-0330-gap.md"))
        XCTAssertTrue(text.contains("date: 2026-03-29T03:30:00+02:00"), text)
    }

    func testTheRepeatedAutumnHourTakesTheFirstAndSaysSo() throws {
        try initDiary()
        let r = try run(["new", "--date", "2026-10-25 02:30", "-m", "x", "Twice"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("2026-10-25 02:30 happens twice in Europe/Vienna"), r.err)
        XCTAssertTrue(r.err.contains("took the first, 2026-10-25T02:30:00+02:00"), r.err)
        let text = try read(diary.appendingPathComponent("entries/2026/10/2026-10-25-0230-twice.md"))
        XCTAssertTrue(text.contains("date: 2026-10-25T02:30:00+02:00"), text)
        // An ordinary date says nothing.
        XCTAssertFalse(try run(["new", "--date", "2026-10-26 02:30", "-m", "x", "Plain"]).err.contains("warning"))
    }

    func testJrnlImportMovesAGapTimeForwardWithAWarning() throws {
        try initDiary()
        let f = home.appendingPathComponent("j.json")
        try #"{"entries": [{"title": "In the gap.", "body": "", "date": "2026-03-29", "time": "02:30", "tags": []}]}"#
            .write(to: f, atomically: true, encoding: .utf8)
        let r = try run(["import", "jrnl", f.path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("entries[0]: 2026-03-29 02:30 does not exist in Europe/Vienna"), r.err)
        let text = try read(diary.appendingPathComponent("entries/2026/03/2026-03-29-0330-in-the-gap.md"))
        XCTAssertTrue(text.contains("date: 2026-03-29T03:30:00+02:00"), text)
    }
}
