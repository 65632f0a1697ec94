// `daybook import`: jrnl, Day One (with escapes, time zones, photos, missing fields), Markdown folders, jsonl round trips.
import XCTest

final class ImportCommandTests: CLITestCase {
    var sources: URL { diary.deletingLastPathComponent().appendingPathComponent("sources") }

    func source(_ name: String, _ text: String) throws -> URL {
        let url = sources.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func entryTexts() throws -> [String] {
        let walker = FileManager.default.enumerator(at: diary.appendingPathComponent("entries"), includingPropertiesForKeys: nil)
        let files = (walker?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        return try files.map { try read($0) }
    }

    func testJrnlImportsInOneCommitAndSkipsDuplicates() throws {
        try initDiary()
        let f = try source("j.json", """
        {"tags": {"@work": 1}, "entries": [
          {"title": "Imported one.", "body": "Body one @work", "date": "2020-05-01", "time": "09:30", "tags": ["@work"], "starred": false},
          {"title": "Imported two.", "body": "", "date": "2020-05-02", "time": "21:00", "tags": [], "starred": true}]}
        """)
        try ok("import", "jrnl", f.path)
        XCTAssertEqual(try commitCount(), 2)
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "import: 2 entries from jrnl")
        XCTAssertEqual(try entryTexts(), [
            "---\ntitle: Imported one.\ndate: 2020-05-01T09:30:00+02:00\ntags: [work]\n---\nBody one @work\n",
            "---\ntitle: Imported two.\ndate: 2020-05-02T21:00:00+02:00\nstarred: true\n---\n\n",
        ])
        let again = try ok("import", "jrnl", f.path)
        XCTAssertTrue(again.err.contains("2 already in the diary skipped"), again.err)
        XCTAssertEqual(try commitCount(), 2)
    }

    func testMalformedInputNamesRecordAndFieldAndImportsNothing() throws {
        try initDiary()
        let f = try source("bad.json", #"{"entries": [{"date": "2020-05-01", "title": "fine"}, {"date": "2020-05-02", "time": "25:00"}]}"#)
        let r = try run(["import", "jrnl", f.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("entries[1], field `time`"), r.err)
        XCTAssertEqual(try commitCount(), 1)
        XCTAssertEqual(try entryTexts(), [])
        let broken = try source("broken.json", "{\"entries\": [\n  {\"text\": \"x\",}\n]}")
        let b = try run(["import", "dayone", broken.path])
        XCTAssertTrue(b.err.hasPrefix(broken.path + ":2:"), b.err)
        let missing = try source("missing.json", #"{"entries": [{"text": "no date"}]}"#)
        XCTAssertTrue(try run(["import", "dayone", missing.path]).err.contains("entries[0], field `creationDate`: is missing"))
    }

    func testDayOneZipWithPhotosEscapesAndTimeZones() throws {
        try initDiary()
        let folder = sources.appendingPathComponent("dayone")
        _ = try source("dayone/Journal.json", #"""
        {"metadata": {"version": "1.0"}, "entries": [
          {"uuid": "A1", "creationDate": "2021-03-05T03:30:00Z", "timeZone": "America/New_York",
           "text": "# Trip\n\nWe walked to the lake\\. \\*Really\\*\\!\n\n![](dayone-moment://P1)\n",
           "tags": ["travel", "road trip"], "starred": true,
           "location": {"latitude": 47.1, "longitude": 13.2, "placeName": "Lake"},
           "weather": {"conditionsDescription": "Sunny", "temperatureCelsius": 21},
           "photos": [{"identifier": "P1", "md5": "abc123", "type": "jpeg"}, {"identifier": "P2", "md5": "def456", "type": "png"}]},
          {"creationDate": "2021-07-01T10:00:00Z", "text": "No zone, no tags, no uuid"}]}
        """#)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8]).write(to: folder.appendingPathComponent("photos/abc123.jpeg"))
        try Data([0x89, 0x50]).write(to: folder.appendingPathComponent("photos/def456.png"))
        let zip = sources.appendingPathComponent("export.zip")
        XCTAssertEqual(try tool("/usr/bin/python3", ["-m", "zipfile", "-c", zip.path, "Journal.json", "photos"], cwd: folder), 0)

        try ok("import", "dayone", zip.path)
        let texts = try entryTexts()
        XCTAssertEqual(texts.count, 2)
        // 03:30 UTC is the evening before in New York: the entry belongs to that day.
        XCTAssertEqual(texts[0], """
        ---
        date: 2021-03-04T22:30:00-05:00
        tags: [travel, road-trip]
        starred: true
        location: {name: Lake, lat: 47.1, lon: 13.2}
        weather: {conditions: Sunny, temperature_c: 21}
        uuid: A1
        ---
        # Trip

        We walked to the lake. \\*Really\\*!

        ![](2021-03-04-2230/abc123.jpeg)
        ![def456.png](2021-03-04-2230/def456.png)

        """)
        XCTAssertEqual(texts[1], "---\ndate: 2021-07-01T12:00:00+02:00\n---\nNo zone, no tags, no uuid\n", "no time zone: the diary's")
        for name in ["abc123.jpeg", "def456.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: diary.appendingPathComponent("entries/2021/03/2021-03-04-2230/\(name)").path), name)
        }
        XCTAssertEqual(try git("status", "--porcelain"), "")
        XCTAssertTrue(try ok("import", "dayone", zip.path).err.contains("nothing new"), "photos do not defeat duplicate detection")
    }

    func testMarkdownFolderDatesFromFrontMatterFileNameOrModificationTime() throws {
        try initDiary()
        _ = try source("vault/note.md", "---\ndate: 2024-02-03 08:15\ntags: [Work]\nproject: alpha\n---\nA note #inline\n")
        _ = try source("vault/daily/2024-01-05.md", "Daily note\n")
        let undated = try source("vault/random.md", "Undated\n")
        _ = try source("vault/.obsidian/workspace.md", "not an entry\n")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_688_205_600)], ofItemAtPath: undated.path)
        let r = try ok("import", "markdown", sources.appendingPathComponent("vault").path, "--dry-run")
        XCTAssertEqual(try commitCount(), 1, "a dry run writes nothing")
        XCTAssertEqual(r.out.split(separator: "\n").count, 3)
        let w = try ok("import", "markdown", sources.appendingPathComponent("vault").path)
        XCTAssertTrue(w.err.contains("random.md: no date in the front matter or the file name"), w.err)
        XCTAssertEqual(try entryTexts(), [
            "---\ntitle: random\ndate: 2023-07-01T12:00:00+02:00\n---\nUndated\n",
            "---\ndate: 2024-01-05T00:00:00+01:00\n---\nDaily note\n",
            "---\ntitle: note\ndate: 2024-02-03T08:15:00+01:00\ntags: [work]\nproject: alpha\n---\nA note #inline\n",
        ])
    }

    func testJSONLinesRoundTripsWithoutLoss() throws {
        try initDiary()
        _ = try write("entries/2026/11/2026-11-20-0900-night-shift.md", """
        ---
        title: Night shift
        date: 2026-11-20T09:00:00+01:00
        tags: [fieldwork]
        mood: 2
        template: memo
        zeta: 1
        alpha: {name: "Ward 3", lat: 48.2}
        codes: [trust, {code: frustration, quote: "login failed", memo: again, coder: mp}]
        ---
        # Night

        The login failed, #inline tag.

        """)
        _ = try newEntry("Second", "-m", "Plain words", "-t", "a", "--set", "energy=7")
        let exported = try ok("export", "jsonl").out
        let before = try entryTexts()
        let file = try source("all.jsonl", exported)

        let other = diary.deletingLastPathComponent().appendingPathComponent("other")
        try ok("init", other.path)
        let imported = try run(["import", "jsonl", file.path], env: ["DAYBOOK_DIR": other.path])
        XCTAssertEqual(imported.status, 0, imported.err)
        let again = try run(["export", "jsonl"], env: ["DAYBOOK_DIR": other.path])
        XCTAssertEqual(again.out, exported)
        diary = other
        XCTAssertEqual(try entryTexts().count, before.count)
        XCTAssertEqual(try entryTexts()[1], before[1])
    }
}
