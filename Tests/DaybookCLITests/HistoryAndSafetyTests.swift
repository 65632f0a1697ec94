// End-to-end: outside edits, the lock under concurrent writers, the editor, attachments, log, check.
import XCTest

final class HistoryAndSafetyTests: CLITestCase {
    func testOutsideEditsAreCommittedApartBeforeTheNextChange() throws {
        try initDiary()
        let p = try newEntry("Edited by hand", "-m", "first")
        try (try read(p) + "\nAdded in vim.\n").write(to: p, atomically: true, encoding: .utf8)
        _ = try newEntry("Next", "-m", "second")
        let subjects = try git("log", "--format=%s", "-n", "2").split(separator: "\n")
        XCTAssertEqual(subjects.first, "new: Next")
        XCTAssertEqual(subjects.last, "edit outside daybook: 1 entry")
        XCTAssertEqual(try git("status", "--porcelain"), "")
    }

    func testParallelWritersAllLand() throws {
        try initDiary()
        var procs: [Process] = []
        for i in 0..<6 {
            let p = Process()
            p.executableURL = CLITestCase.binary
            p.arguments = ["new", "Parallel \(i)", "-m", "body \(i)"]
            p.environment = environment
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            procs.append(p)
        }
        procs.forEach { $0.waitUntilExit() }
        XCTAssertEqual(procs.map(\.terminationStatus), Array(repeating: 0, count: 6))
        XCTAssertEqual(try commitCount(), 7)
        XCTAssertEqual(try git("status", "--porcelain"), "")
    }

    func testEditCommitsWhatTheEditorChanged() throws {
        try initDiary()
        let p = try newEntry("Target", "-m", "original")
        let script = home.appendingPathComponent("editor.sh")
        try "#!/bin/sh\nprintf 'from the editor\\n' >> \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let r = try run(["edit", "last"], env: ["EDITOR": script.path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(try read(p).hasSuffix("original\nfrom the editor\n"))
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "edit: Target")
    }

    func testEditThatBreaksTheFrontMatterKeepsTheTextAndSaysWhere() throws {
        try initDiary()
        let p = try newEntry("Target", "-m", "my words")
        let script = home.appendingPathComponent("breaker.sh")
        try "#!/bin/sh\nsed -i 's/^date: .*/date: [broken/' \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let n = try commitCount()
        let r = try run(["edit", "last"], env: ["EDITOR": script.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("2026-11-21-1200-target.md:"), r.err)
        XCTAssertTrue(r.err.contains("`daybook edit 2026-11-21-1200-target`"), r.err)
        XCTAssertTrue(try read(p).contains("my words"))
        XCTAssertEqual(try commitCount(), n)
    }

    func testAttachCopiesAndLinks() throws {
        try initDiary()
        let p = try newEntry("Photo day", "-m", "Look:")
        let img = home.appendingPathComponent("lake view.jpg")
        try Data([0xFF, 0xD8, 0xFF]).write(to: img)
        let notes = home.appendingPathComponent("notes.txt")
        try "n".write(to: notes, atomically: true, encoding: .utf8)
        try ok("attach", "last", img.path, notes.path)
        let text = try read(p)
        XCTAssertTrue(text.hasSuffix("Look:\n\n![lake view.jpg](2026-11-21-1200-photo-day/lake%20view.jpg)\n[notes.txt](2026-11-21-1200-photo-day/notes.txt)\n"), text)
        let folder = p.deletingPathExtension()
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("lake view.jpg").path))
        try ok("attach", "last", img.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("lake view-2.jpg").path))
        let log = try run(["log", "last", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as? [[String: Any]]
        XCTAssertEqual(items?.count, 3)
        XCTAssertEqual(items?.first?["entries"] as? [String], ["2026-11-21-1200-photo-day"])
    }

    func testRmRemovesAttachmentsAndStrokesTooAndLogFindsTheDeletedEntry() throws {
        try initDiary()
        let p = try newEntry("Doomed", "-m", "x")
        let notes = home.appendingPathComponent("a.txt")
        try "n".write(to: notes, atomically: true, encoding: .utf8)
        try ok("attach", "last", notes.path)
        try "{}".write(to: p.deletingPathExtension().appendingPathExtension("strokes.json"), atomically: true, encoding: .utf8)
        try ok("rm", "last")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p.deletingPathExtension().path))
        XCTAssertEqual(try git("status", "--porcelain"), "")
        let log = try run(["log", "2026-11-21-1200-doomed", "--json"])
        XCTAssertEqual(log.status, 0, log.err)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as? [Any])?.count, 4)
        try ok("restore", "2026-11-21-1200-doomed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: p.deletingPathExtension().appendingPathComponent("a.txt").path))
    }

    func testCheckReportsEveryBrokenEntryAndExitsOne() throws {
        try initDiary()
        _ = try newEntry("Fine", "-m", "ok")
        _ = try write("entries/2026/11/2026-11-08-1000-nodate.md", "---\ntitle: No date\n---\nbody\n")
        _ = try write("entries/2026/11/2026-11-08-1100-mood.md", "---\ndate: 2026-11-08T11:00:00+01:00\nmood: 9\n---\nbody\n")
        let r = try run(["check", "--json"])
        XCTAssertEqual(r.status, 1)
        let problems = r.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let paths = problems.compactMap { $0["path"] as? String }
        XCTAssertTrue(paths.contains { $0.hasSuffix("nodate.md") })
        XCTAssertTrue(problems.contains { ($0["path"] as? String)?.hasSuffix("mood.md") == true && $0["line"] as? Int == 3 })
        let ls = try run(["ls"])
        XCTAssertEqual(ls.status, 0)
        XCTAssertTrue(ls.err.contains("mood.md:3"), ls.err)
        let fix = try run(["check", "--fix"])
        XCTAssertTrue(fix.err.contains("committed"), fix.err)
        XCTAssertEqual(fix.status, 1) // the broken entries are not safe to repair
        XCTAssertEqual(try git("status", "--porcelain"), "")
    }

    func testDefaultDiaryIsCreatedByNewOnly() throws {
        let r = try run(["ls"], env: ["DAYBOOK_DIR": ""])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("daybook init"))
        let n = try run(["new", "First", "-m", "hello"], env: ["DAYBOOK_DIR": ""])
        XCTAssertEqual(n.status, 0, n.err)
        XCTAssertTrue(n.err.contains("created the default diary"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent("daybook/daybook.yml").path))
    }

    func testTemporaryFilesOfAKilledWriteAreSweptByTheNextWriteThere() throws {
        try initDiary()
        let p = try newEntry("Survivor", "-m", "x")
        let folder = p.deletingPathExtension()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stale = folder.appendingPathComponent(".big.bin.4242.daybook-tmp")
        try Data(count: 1000).write(to: stale)
        XCTAssertEqual(try run(["check"]).status, 1)
        let small = home.appendingPathComponent("small.txt")
        try "after".write(to: small, atomically: true, encoding: .utf8)
        try ok("attach", "last", small.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
        XCTAssertEqual(try run(["check"]).status, 0)
    }
}
