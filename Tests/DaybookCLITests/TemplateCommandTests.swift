// End-to-end: template ls/show, new --template with --set and with prompts in a pseudo-terminal, and check.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class TemplateCommandTests: CLITestCase {
    func testLsListsBuiltinsAndTheDiarysOwn() throws {
        try initDiary()
        _ = try write("templates/daily.md", "---\ntemplate: daily\ndescription: My own day\n---\nMINE\n")
        let out = try ok("template", "ls").out
        XCTAssertTrue(out.contains("daily") && out.contains("My own day") && out.contains("(templates/daily.md)"), out)
        XCTAssertTrue(out.contains("emotion") && out.contains("(built-in)"), out)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ok("template", "ls", "--json").out.utf8)) as? [[String: Any]])
        let daily = try XCTUnwrap(json.first { $0["name"] as? String == "daily" })
        XCTAssertEqual(daily["origin"] as? String, "diary")
        let emotion = try XCTUnwrap(json.first { $0["name"] as? String == "emotion" })
        XCTAssertEqual((emotion["fields"] as? [[String: Any]])?.map { $0["type"] as? String }, ["scale", "choice", "text", "number"])
    }

    func testShowPrintsTheFileAndUnknownNamesFail() throws {
        try initDiary()
        XCTAssertTrue(try ok("template", "show", "emotion").out.hasPrefix("---\ntemplate: emotion\n"))
        let r = try run(["template", "show", "emotio"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("did you mean `emotion`"), r.err)
    }

    func testABrokenDiaryTemplateIsReportedWithItsLine() throws {
        try initDiary()
        _ = try write("templates/visit.md", "---\ndescription: x\nfields:\n  n: {type: numbr}\n---\n")
        let ls = try run(["template", "ls"])
        XCTAssertEqual(ls.status, 2)
        XCTAssertTrue(ls.out.contains("memo"), "the others are still listed")
        XCTAssertTrue(ls.err.contains("templates/visit.md:4:"), ls.err)
        let check = try run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.out.contains("templates/visit.md:4:") && check.out.contains("unknown type `numbr`"), check.out)
        let new = try run(["new", "--template", "visit", "--no-edit"])
        XCTAssertEqual(new.status, 2)
        XCTAssertEqual(try commitCount(), 1)
    }

    func testNewFromTemplateWithSetValues() throws {
        try initDiary()
        let p = try newEntry("Feeling", "--template", "emotion", "--set", "mood=8", "--set", "minutes=12.5", "--set", "place=home", "--no-edit")
        XCTAssertEqual(try read(p), """
        ---
        title: Feeling
        date: 2026-11-21T12:00:00+01:00
        tags: [mood]
        mood: 8
        template: emotion
        minutes: 12.5
        place: home
        ---
        ## What happened?


        """)
        XCTAssertEqual(try commitCount(), 2)
        // Mood 8 is on emotion's scale (1–10), not the diary's (1–5): the entry reads and checks clean.
        XCTAssertEqual(try run(["check"]).status, 0)
        XCTAssertTrue(try ok("ls", "--json").out.contains("\"mood\": 8"))
    }

    func testSetValuesAreYAMLInTheFileAndInJSON() throws {
        try initDiary()
        let p = try newEntry("Ward", "-m", "Notes.", "--set", "location={name: Ward 3, lat: 48.2, lon: 16.3}",
                             "--set", "rooms=[a, b]", "--set", "beds=7", "--set", "night=true", "--set", "place=home")
        XCTAssertEqual(try read(p), """
        ---
        title: Ward
        date: 2026-11-21T12:00:00+01:00
        location: {name: Ward 3, lat: 48.2, lon: 16.3}
        rooms: [a, b]
        beds: 7
        night: true
        place: home
        ---
        Notes.

        """)
        let json = try JSONSerialization.jsonObject(with: Data(try ok("show", "last", "--json").out.utf8)) as? [String: Any]
        let fields = try XCTUnwrap(json?["fields"] as? [String: Any])
        let location = try XCTUnwrap(fields["location"] as? [String: Any])
        XCTAssertEqual(location["name"] as? String, "Ward 3")
        XCTAssertEqual(location["lat"] as? Double, 48.2)
        XCTAssertEqual(fields["rooms"] as? [String], ["a", "b"])
        XCTAssertEqual(fields["beds"] as? Int, 7)
        XCTAssertEqual(fields["night"] as? Bool, true)
        XCTAssertEqual(fields["place"] as? String, "home")
    }

    func testSetValueThatIsNotYAMLWritesNothing() throws {
        try initDiary()
        let r = try run(["new", "Ward", "-m", "Notes.", "--set", "location={name: Ward 3, lat: 48.2"])
        XCTAssertEqual(r.status, 2, r.err)
        XCTAssertTrue(r.err.contains("--set location: the value `{name: Ward 3, lat: 48.2` is not valid YAML"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: diary.appendingPathComponent("entries").path))
        XCTAssertEqual(try commitCount(), 1)
    }

    func testTypedSetValuesStillMeetTheTemplatesFields() throws {
        try initDiary()
        let p = try newEntry("Evening", "--template", "emotion", "--set", "mood=7", "--set", "feeling=enjoyment", "--no-edit")
        let text = try read(p)
        XCTAssertTrue(text.contains("mood: 7\ntemplate: emotion\nfeeling: enjoyment\n---\n"), text)
        let r = try run(["new", "x", "--template", "emotion", "--no-edit", "--set", "mood=7", "--set", "feeling=[enjoyment]"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("field `feeling`: must be one of"), r.err)
    }

    func testBadValuesWriteNothing() throws {
        try initDiary()
        for (sets, field) in [(["mood=0"], "mood"), (["mood=2", "minutes=-5"], "minutes"), (["mood=2", "feeling=joy"], "feeling"), ([], "mood")] {
            let r = try run(["new", "x", "--template", "emotion", "--no-edit"] + sets.flatMap { ["--set", $0] })
            XCTAssertEqual(r.status, 2, r.err)
            XCTAssertTrue(r.err.contains("field `\(field)`"), r.err)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: diary.appendingPathComponent("entries").path))
        XCTAssertEqual(try commitCount(), 1)
    }

    func testStdinBodyWinsAndAnEmptyOneTakesTheTemplate() throws {
        try initDiary()
        let p = try newEntry("Plan", "--template", "planning", input: "my own plan\n")
        XCTAssertTrue(try read(p).hasSuffix("horizon: week\n---\nmy own plan\n"))
        let q = try newEntry("Plan two", "--template", "planning", input: "")
        XCTAssertTrue(try read(q).contains("## Aims"))
    }

    func testWeeklyReviewCountsThePastWeek() throws {
        try initDiary()
        try ok("new", "Visit", "--date", "2026-11-18 10:00", "-t", "fieldwork", "--mood", "4", "-m", "The nurse showed me the tablet.")
        try ok("new", "Feeling", "--template", "emotion", "--set", "mood=10", "--date", "2026-11-19 10:00", "-m", "Good day.")
        try ok("new", "Old", "--date", "2026-11-10 10:00", "--mood", "2", "-m", "Long ago.")
        let p = try newEntry("Review", "--template", "weekly-review", "--set", "synopsis=Slow & steady", "--no-edit")
        let text = try read(p)
        XCTAssertTrue(text.contains("2026-11-15 to 2026-11-21: 2 entries, 8 words.\n"), text)
        // Emotion's 10 on its 1–10 scale is 5 on the diary's 1–5.
        XCTAssertTrue(text.contains("Mood: 4.5 on average (the week before: 2.0, +2.5).\n"), text)
        XCTAssertTrue(text.contains("Tags: fieldwork (1), mood (1).\n"), text)
        XCTAssertTrue(text.contains("## Synopsis\nSlow & steady\n"), text)
        XCTAssertFalse(text.contains("{{"), text)
    }

    func testCheckNamesTheFieldLineAndReason() throws {
        try initDiary()
        _ = try write("entries/2026/11/2026-11-20-1000-hand.md", """
        ---
        date: 2026-11-20T10:00:00+01:00
        template: emotion
        mood: 6
        feeling: bored
        minutes: "45"
        ---
        Written by hand.

        """)
        let r = try run(["check"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.out.contains("2026-11-20-1000-hand.md:5: error: field `feeling`: `bored` is not one of"), r.out)
        XCTAssertTrue(r.out.contains("2026-11-20-1000-hand.md:6: error: field `minutes`: must be a number, not `45`"), r.out)
        XCTAssertFalse(r.out.contains("field `mood`"), r.out)
    }

    // MARK: Prompts in a terminal

    /// Runs daybook with stdin on a pseudo-terminal, typing `typed` into it; returns status and stderr.
    func runInTerminal(_ args: [String], typed: String) throws -> RunResult {
        var fds: (master: Int32, slave: Int32) = (-1, -1)
        guard openpty(&fds.master, &fds.slave, nil, nil, nil) == 0 else { throw XCTSkip("no pseudo-terminal here") }
        let master = fds.master, slave = fds.slave
        defer { close(master) }
        let p = Process()
        p.executableURL = CLITestCase.binary
        p.arguments = args
        p.environment = environment
        p.currentDirectoryURL = diary.deletingLastPathComponent()
        p.standardInput = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // The terminal echoes what is typed back on the master side: drain it so it never fills.
        let echo = DispatchQueue(label: "echo")
        echo.async { var buf = [UInt8](repeating: 0, count: 4096); while Glibc.read(master, &buf, buf.count) > 0 {} }
        _ = typed.withCString { Glibc.write(master, $0, strlen($0)) }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return RunResult(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    func testPromptsExplainAndAskAgain() throws {
        try initDiary()
        let r = try runInTerminal(["new", "Evening", "--template", "emotion", "--no-edit"], typed: "11\n7\nbored\nfear\n\n45 min\n")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("Mood right now (1–10): "), r.err)
        XCTAssertTrue(r.err.contains("mood: 11 is off the scale 1–10; try again"), r.err)
        XCTAssertTrue(r.err.contains("feeling: `bored` is not one of"), r.err)
        XCTAssertTrue(r.err.contains("The more precise emotion (at most 40 characters) [skip]: "), r.err)
        let text = try read(diary.appendingPathComponent("entries/2026/11/2026-11-21-1200-evening.md"))
        XCTAssertTrue(text.contains("mood: 7\ntemplate: emotion\nfeeling: fear\nminutes: 45\n---\n"), text)
    }

    func testPromptsShowTheDefaultAndTakeItOnEnter() throws {
        try initDiary()
        let r = try runInTerminal(["new", "Next", "--template", "planning", "--no-edit"], typed: "\n2026-12-01\n")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("What does this plan cover (1 day / 2 week / 3 month / 4 project) [week]: "), r.err)
        let text = try read(diary.appendingPathComponent("entries/2026/11/2026-11-21-1200-next.md"))
        XCTAssertTrue(text.contains("horizon: week\nreview: 2026-12-01\n"), text)  // a date field is a YAML date
    }
}
