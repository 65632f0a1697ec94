// End-to-end: new, ls, show, rm, restore, undo on a temporary diary.
import XCTest

final class EntryCommandTests: CLITestCase {
    func testNewWritesOneFileAndOneCommit() throws {
        try initDiary()
        let p = try newEntry("Clinic visit", "-m", "The login failed again.", "-t", "Fieldwork")
        XCTAssertEqual(p.lastPathComponent, "2026-11-21-1200-clinic-visit.md")
        let text = try read(p)
        XCTAssertEqual(text, "---\ntitle: Clinic visit\ndate: 2026-11-21T12:00:00+01:00\ntags: [fieldwork]\n---\nThe login failed again.\n")
        XCTAssertEqual(try commitCount(), 2)
        XCTAssertEqual(try git("status", "--porcelain"), "")
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "new: Clinic visit")
    }

    func testEmptyBodySavesNothingAndExitsOne() throws {
        try initDiary()
        let r = try run(["new", "Nothing"], input: "  \n")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(try commitCount(), 1)
    }

    func testRmThenRestoreBringsTheWordsBack() throws {
        try initDiary()
        let p = try newEntry("Gone soon", "-m", "precious words")
        try ok("rm", p.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: p.path))
        try ok("restore", "2026-11-21-1200-gone")
        XCTAssertTrue(try read(p).contains("precious words"))
    }

    func testUndoTwiceRedoes() throws {
        try initDiary()
        let p = try newEntry("Oops", "-m", "y")
        try ok("undo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p.path))
        try ok("undo")
        XCTAssertTrue(FileManager.default.fileExists(atPath: p.path))
    }

    func testUnknownReferenceAndEscapingPathsAreErrors() throws {
        try initDiary()
        XCTAssertEqual(try run(["show", "nosuchentry"]).status, 2)
        XCTAssertEqual(try run(["show", "/etc/passwd"]).status, 2)
        XCTAssertEqual(try run(["show", "entries/../../../etc/passwd"]).status, 2)
    }

    func testUsageErrorsExitTwo() throws {
        try initDiary()
        XCTAssertEqual(try run(["ls", "--mood", "lots"]).status, 2)
        XCTAssertEqual(try run(["ls", "--from", "next fortnight"]).status, 2)
        XCTAssertEqual(try run(["nosuchcommand"]).status, 2)
    }
}
