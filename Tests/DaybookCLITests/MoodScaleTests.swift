// Each entry's mood on its own scale: emotion's 1–10 beside the diary's 1–5 (issue 13 item 7).
import Foundation
import XCTest

final class MoodScaleTests: CLITestCase {
    /// An emotion entry (mood 8 on 1–10) and a plain one (mood 2 on the diary's 1–5).
    func makeTwoScales() throws {
        try initDiary()
        try newEntry("--template", "emotion", "--set", "mood=8", "--no-edit", "--date", "2026-11-20 10:00", "Felt")
        try newEntry("-m", "x", "--mood", "2", "Plain")
    }

    func testShowPrintsTheMoodOnTheEntrysOwnScale() throws {
        try makeTwoScales()
        XCTAssertTrue(try ok("show", "2026-11-20-1000-felt").out.contains("mood 8/10"))
        XCTAssertTrue(try ok("show", "2026-11-21-1200-plain").out.contains("mood 2/5"))
    }

    func testStatsNeverAveragesAcrossScalesWithoutMappingOntoTheDiarysScale() throws {
        try makeTwoScales()
        // 8 on 1–10 is 1 + 7/9·4 = 4.111 on 1–5; with the plain 2 the average is 3.056 (not 5).
        let summary = try JSONSerialization.jsonObject(with: Data(ok("stats", "--json").out.utf8)) as? [String: Any]
        let mood = try XCTUnwrap(summary?["mood"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(mood["average"] as? Double), (1 + 7.0 / 9 * 4 + 2) / 2, accuracy: 0.001)
        let rows = try JSONSerialization.jsonObject(with: Data(ok("stats", "--by", "day", "--json").out.utf8)) as? [[String: Any]]
        XCTAssertEqual(try XCTUnwrap(rows?.first?["mood"] as? Double), 1 + 7.0 / 9 * 4, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(rows?.last?["mood"] as? Double), 2, accuracy: 0.001)
    }

    func testCheckReportsAMoodOutsideItsOwnScale() throws {
        try makeTwoScales()
        XCTAssertEqual(try run(["check"]).status, 0)
        let felt = diary.appendingPathComponent("entries/2026/11/2026-11-20-1000-felt.md")
        let plain = diary.appendingPathComponent("entries/2026/11/2026-11-21-1200-plain.md")
        try read(felt).replacingOccurrences(of: "mood: 8", with: "mood: 11").write(to: felt, atomically: true, encoding: .utf8)
        try read(plain).replacingOccurrences(of: "mood: 2", with: "mood: 7").write(to: plain, atomically: true, encoding: .utf8)
        let r = try run(["check"])
        XCTAssertEqual(r.status, 1)
        let report = r.out + r.err
        XCTAssertTrue(report.contains("2026-11-20-1000-felt.md:5:7: error: mood 11 is off the scale 1–10"), report)
        XCTAssertTrue(report.contains("2026-11-21-1200-plain.md:4:7: error: mood 7 is off the scale 1–5"), report)
    }
}
