// End-to-end: grep's exit codes and formats, stats and streak on a temporary diary.
import XCTest

final class SearchCommandTests: CLITestCase {
    func seed() throws {
        try initDiary()
        _ = try newEntry("Alpha", "--date", "2026-11-19 08:00", "-m", "Coffee then interview.\nThe Login failed.\nlogin again", "-t", "work", "--mood", "2")
        _ = try newEntry("Beta", "--date", "2026-11-20 21:00", "-m", "Quiet evening, no login today.", "-t", "home", "--mood", "4")
        _ = try newEntry("Gamma", "--date", "2026-11-21 07:30", "-m", "Grüße: login login", "-t", "work", "--mood", "5")
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: grep

    func testGrepExitCodes() throws {
        try seed()
        XCTAssertEqual(try run(["grep", "login"]).status, 0)
        let none = try run(["grep", "nowhere"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.out + none.err, "")
        let bad = try run(["grep", "a(b"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("missing closing parenthesis at character 4"), bad.err)
        XCTAssertEqual(try run(["grep", "-F", "a(b"]).status, 1)
        XCTAssertEqual(try run(["grep", "-C", "-1", "x"]).status, 2)
        XCTAssertEqual(try run(["grep", "login", "--on", "2030"]).status, 1)
    }

    func testGrepJSONLinesPointAtTheBytesOfTheFile() throws {
        try seed()
        let hits = try jsonLines(try ok("grep", "--json", "login").out)
        XCTAssertEqual(hits.count, 3)
        for hit in hits {
            let path = try XCTUnwrap(hit["path"] as? String)
            let file = try read(diary.deletingLastPathComponent().appendingPathComponent(path))
            let line = try XCTUnwrap(hit["line"] as? Int), column = try XCTUnwrap(hit["column"] as? Int)
            let text = try XCTUnwrap(hit["text"] as? String)
            XCTAssertEqual(file.components(separatedBy: "\n")[line - 1], text)
            for m in try XCTUnwrap(hit["matches"] as? [[Int]]) {
                XCTAssertEqual(String(decoding: Array(text.utf8)[m[0]..<m[1]], as: UTF8.self), "login")
            }
            XCTAssertEqual((hit["matches"] as? [[Int]])?.first?.first, column - 1)
            XCTAssertTrue(path.hasSuffix((hit["id"] as? String ?? "?") + ".md"))
        }
        let gamma = try XCTUnwrap(hits.last)
        XCTAssertEqual(gamma["column"] as? Int, 10, "columns count bytes: ü and ß take two each")
        XCTAssertEqual((gamma["matches"] as? [[Int]])?.count, 2)
    }

    func testGrepLinesCountsPathsAndContext() throws {
        try seed()
        let out = try ok("grep", "-i", "login", "--tag", "work").out.split(separator: "\n")
        XCTAssertEqual(out.count, 3)
        XCTAssertTrue(out[0].hasSuffix("-alpha.md:8:5:The Login failed."), String(out[0]))
        XCTAssertEqual(try ok("grep", "-c", "-i", "login").out.split(separator: "\n").map { $0.split(separator: ":").last }, ["2", "1", "1"])
        XCTAssertEqual(try ok("grep", "-l", "login", "-n", "1").out.trimmingCharacters(in: .newlines), "diary/entries/2026/11/2026-11-21-0730-gamma.md")
        let context = try ok("grep", "-B1", "failed").out.split(separator: "\n").map(String.init)
        XCTAssertEqual(context.map { $0.replacingOccurrences(of: "diary/entries/2026/11/2026-11-19-0800-alpha.md", with: "P") },
                       ["P-7-Coffee then interview.", "P:8:11:The Login failed."])
        let counts = try jsonLines(try ok("grep", "-c", "--json", "login").out)
        XCTAssertEqual(counts.map { $0["count"] as? Int }, [1, 1, 1])
    }

    func testGrepSearchesTitlesAndFrontMatterOnlyWhenAsked() throws {
        try seed()
        let title = try ok("grep", "^Gamma$").out
        XCTAssertTrue(title.hasSuffix(":2:8:title: Gamma\n"), title)
        XCTAssertEqual(try run(["grep", "title|mood"]).status, 1)
        XCTAssertEqual(try ok("grep", "--front-matter", "-c", "^mood:").out.split(separator: "\n").count, 3)
    }

    func testGrepSearchesAnUnparsedEntryWithAWarning() throws {
        try seed()
        _ = try write("entries/2026/11/2026-11-18-0900-broken.md", "---\ndate: [login\n---\nlogin here too\n")
        let r = try run(["grep", "-l", "login"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.out.split(separator: "\n").count, 4, "the broken entry's words are found (issue 39)")
        XCTAssertTrue(r.out.contains("2026-11-18-0900-broken.md"), r.out)
        XCTAssertTrue(r.err.contains("2026-11-18-0900-broken.md:2:7: warning: invalid YAML"), r.err) // where `[` opens (issue 39)
    }

    func testGrepEndsQuietlyOnABrokenPipe() throws {
        try initDiary()
        _ = try newEntry("Long", input: String(repeating: "login line that repeats itself\n", count: 20_000))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "('\(CLITestCase.binary.path)' grep login; echo \"status $?\" >&2) | head -1 >/dev/null"]
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(message, "status 0\n")
    }

    // MARK: stats

    func testStatsSummaryAndTables() throws {
        try seed()
        let s = try json(try ok("stats", "--json").out)
        XCTAssertEqual(s["entries"] as? Int, 3)
        XCTAssertEqual(s["words"] as? Int, 8 + 5 + 3)
        XCTAssertEqual(s["last_7_days"] as? Int, 3)
        XCTAssertEqual((s["tags"] as? [[String: Any]])?.first?["tag"] as? String, "work")
        XCTAssertEqual((s["mood"] as? [String: Any])?["this_week"] as? Double ?? 0, 11.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(s["weeks"] as? [Int], [3])
        let csv = try ok("stats", "--by", "day", "--csv").out.split(separator: "\n")
        XCTAssertEqual(csv, ["period,start,entries,words,mood", "2026-11-19,2026-11-19,1,8,2", "2026-11-20,2026-11-20,1,5,4", "2026-11-21,2026-11-21,1,3,5"])
        XCTAssertEqual(try run(["stats", "--by", "fortnight"]).status, 2)
    }

    func testStatsWeeksStartOnTheDiarysWeekStart() throws {
        try seed()
        _ = try newEntry("Sunday", "--date", "2026-11-22 10:00", "-m", "x")
        let monday = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try ok("stats", "--by", "week", "--json").out.utf8)) as? [[String: Any]])
        XCTAssertEqual(monday.map { $0["period"] as? String }, ["2026-11-16"])
        let yml = diary.appendingPathComponent("daybook.yml")
        try read(yml).replacingOccurrences(of: "week_start: monday", with: "week_start: sunday").write(to: yml, atomically: true, encoding: .utf8)
        let sunday = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try ok("stats", "--by", "week", "--json").out.utf8)) as? [[String: Any]])
        XCTAssertEqual(sunday.map { $0["period"] as? String }, ["2026-11-15", "2026-11-22"])
        XCTAssertEqual(sunday.map { $0["entries"] as? Int }, [3, 1])
    }

    // MARK: streak

    func testStreakJSONCheckAndGoal() throws {
        try initDiary()
        for d in ["2026-11-13", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"] {
            _ = try newEntry("Day", "--date", d + " 09:00", "-m", "x")
        }
        let daily = try json(try ok("streak", "--json").out)
        XCTAssertEqual((daily["current"] as? [String: Any])?["days"] as? Int, 5)
        XCTAssertEqual((daily["current"] as? [String: Any])?["start"] as? String, "2026-11-16")
        XCTAssertEqual(daily["today_met"] as? Bool, false)
        _ = try write("entries/2026/11/2026-11-21-0800-broken.md", "---\ndate: soon\n---\nx\n")
        let check = try run(["streak", "--check"])
        XCTAssertEqual(check.status, 1, "an unreadable entry does not count")
        XCTAssertEqual(check.out + check.err, "", "--check is silent, warnings included")
        let weekdays = try json(try ok("streak", "--goal", "weekdays", "--json").out)
        XCTAssertEqual((weekdays["current"] as? [String: Any])?["days"] as? Int, 6)
        XCTAssertEqual(weekdays["today_met"] as? Bool, true, "Saturday asks nothing")
        XCTAssertEqual(try run(["streak", "--goal", "weekdays", "--check"]).status, 0)
        XCTAssertEqual(try run(["streak", "--goal", "someday"]).status, 2)
    }

    func testCalendarIsReadableWithoutColour() throws {
        try seed()
        _ = try newEntry("Again", "--date", "2026-11-21 09:00", "-m", "x")
        let lines = try ok("streak", "--calendar", "--weeks", "3").out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0].trimmingCharacters(in: .whitespaces), "Nov")
        XCTAssertEqual(lines[1], "Mon · · ·")
        XCTAssertEqual(lines[4], "Thu · · ░")
        XCTAssertEqual(lines[6], "Sat · · ▒")
        XCTAssertEqual(lines[7], "Sun · ·", "tomorrow is not drawn")
        XCTAssertTrue(lines.contains { $0.contains("░ 1 entry") })
        XCTAssertFalse(lines.joined().contains("\u{1B}["))
        XCTAssertTrue(try run(["streak", "--calendar", "--color", "always"]).out.contains("\u{1B}["))
    }

    func testEditsCountTheDaysHistoryChangedAnEntry() throws {
        // Commits carry the real time, so "today" is the real today here.
        let now = ISO8601DateFormatter().string(from: Date())
        try initDiary()
        _ = try run(["new", "Old", "--date", "2020-01-01 10:00", "-m", "old words"], env: ["DAYBOOK_NOW": now])
        let attachment = try write("../note.txt", "n")
        XCTAssertEqual(try run(["attach", "2020-01-01", attachment.path], env: ["DAYBOOK_NOW": now]).status, 0)
        let plain = try json(try run(["streak", "--json"], env: ["DAYBOOK_NOW": now]).out)
        XCTAssertEqual(plain["today_met"] as? Bool, false)
        let edits = try json(try run(["streak", "--edits", "--json"], env: ["DAYBOOK_NOW": now]).out)
        XCTAssertEqual(edits["today_met"] as? Bool, true)
        XCTAssertEqual((edits["current"] as? [String: Any])?["days"] as? Int, 1)
    }
}
