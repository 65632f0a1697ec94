// Finding, creating and changing a diary: locate order, private modes, lock, one commit per change.
import XCTest
@testable import DaybookCore

final class DiaryTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false) }

    func open(_ url: URL) throws -> Diary {
        try Diary.open(url, environment: TemporaryDiary.environment, workingDirectory: tmp)
    }

    func testLocateOrder() throws {
        let nested = tmp.appendingPathComponent("d/entries/2026")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try "name: x\n".write(to: tmp.appendingPathComponent("d/daybook.yml"), atomically: true, encoding: .utf8)
        let env = ["HOME": tmp.path]
        XCTAssertEqual(Diary.locate(explicit: "/elsewhere", environment: ["DAYBOOK_DIR": "/env"], workingDirectory: nested).url.path, "/elsewhere")
        XCTAssertEqual(Diary.locate(explicit: nil, environment: ["DAYBOOK_DIR": "/env"], workingDirectory: nested).url.path, "/env")
        XCTAssertEqual(Diary.locate(explicit: nil, environment: env.merging(["DAYBOOK_DIR": ""]) { $1 }, workingDirectory: nested).url.path, tmp.appendingPathComponent("d").path)
        let fallback = Diary.locate(explicit: nil, environment: env, workingDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(fallback.url.path, tmp.appendingPathComponent("daybook").path)
        XCTAssertTrue(fallback.isDefault)
    }

    func testPathsAreShownRelativeToTheWorkingFolderWhereverItIs() throws {
        let url = tmp.appendingPathComponent("diary")
        try Diary.create(at: url, name: nil)
        let env = ["DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "TZ": "Europe/Vienna"]
        let rel = "entries/2026/11/2026-11-21-1200-x.md"
        let root = try Diary.open(url, environment: env, workingDirectory: url)
        XCTAssertEqual(root.displayPath(rel), rel)
        let above = try Diary.open(url, environment: env, workingDirectory: tmp)
        XCTAssertEqual(above.displayPath(rel), "diary/" + rel)
        let inside = try Diary.open(url, environment: env, workingDirectory: url.appendingPathComponent("entries"))
        XCTAssertEqual(inside.displayPath(rel), "2026/11/2026-11-21-1200-x.md")
        let elsewhere = try Diary.open(url, environment: env, workingDirectory: URL(fileURLWithPath: "/usr"))
        XCTAssertEqual(elsewhere.displayPath(rel), url.resolvingSymlinksInPath().path + "/" + rel)
        XCTAssertEqual(root.displayPath("entries/../daybook.yml"), Diary.displayPath(url.appendingPathComponent("entries/../daybook.yml"), relativeTo: url))
    }

    func testCreateIsPrivateAndCommitted() throws {
        let url = tmp.appendingPathComponent("diary")
        XCTAssertTrue(try Diary.create(at: url, name: "Field notes"))
        XCTAssertFalse(try Diary.create(at: url, name: "again"))
        let dirMode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: url.appendingPathComponent("daybook.yml").path)[.posixPermissions] as! Int
        XCTAssertEqual(dirMode & 0o077, 0)
        XCTAssertEqual(fileMode & 0o077, 0)
        let diary = try open(url)
        XCTAssertEqual(diary.config.name, "Field notes")
        XCTAssertEqual(try diary.repository().pendingChanges(), [])
        var n = 0
        try diary.repository().walk { _ in n += 1; return true }
        XCTAssertEqual(n, 1)
    }

    func testChangeCommitsOutsideEditsApartThenItsOwn() throws {
        let url = tmp.appendingPathComponent("diary")
        try Diary.create(at: url, name: nil)
        let diary = try open(url)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("entries/2026/11"), withIntermediateDirectories: true)
        try "---\ndate: 2026-11-01\n---\nby hand\n".write(to: url.appendingPathComponent("entries/2026/11/hand.md"), atomically: true, encoding: .utf8)
        let change = try Change(diary)
        XCTAssertNotNil(change.outsideCommit)
        try change.write("---\ndate: 2026-11-02\n---\nmine\n", to: "entries/2026/11/mine.md")
        try change.commit("new: mine")
        let log = try History.log(diary.repository())
        XCTAssertEqual(log.map { $0.commit.message.split(separator: "\n").first.map(String.init) ?? "" },
                       ["new: mine", "edit outside daybook: 1 entry", "init: My diary"])
        XCTAssertEqual(log[0].entries, ["mine"])
        XCTAssertEqual(log[1].entries, ["hand"])
    }

    func testRewriteRefusesAFileChangedMeanwhile() throws {
        let url = tmp.appendingPathComponent("diary")
        try Diary.create(at: url, name: nil)
        let diary = try open(url)
        let rel = "entries/2026/11/a.md"
        let change = try Change(diary)
        try change.write("one\n", to: rel)
        let read = try Data(contentsOf: diary.url(rel))
        try "changed by someone else\n".write(to: diary.url(rel), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try change.rewrite(rel, expected: read, with: Data("two\n".utf8)))
        XCTAssertEqual(try String(contentsOf: diary.url(rel), encoding: .utf8), "changed by someone else\n")
    }

    func testSecondLockWaitsThenNamesTheHolder() throws {
        let state = tmp.appendingPathComponent(".daybook")
        let first = try DiaryLock(stateFolder: state)
        // flock locks belong to the open file description, so a second open in the same process conflicts.
        XCTAssertThrowsError(try DiaryLock(stateFolder: state, timeout: 0.2)) { error in
            XCTAssertTrue((error as? DaybookError)?.message.contains("\(getpid())") == true)
        }
        _ = first
    }

    func testUndoAndRestore() throws {
        let url = tmp.appendingPathComponent("diary")
        try Diary.create(at: url, name: nil)
        let diary = try open(url)
        let rel = "entries/2026/11/2026-11-01-0900-a.md"
        var c = try Change(diary)
        try c.write("---\ndate: 2026-11-01\n---\nfirst\n", to: rel)
        try c.commit("new: a")
        c = try Change(diary)
        try c.write("---\ndate: 2026-11-01\n---\nsecond\n", to: rel)
        try c.commit("edit: a")
        c = try Change(diary)
        _ = try History.undo(in: c)
        try c.commit("undo")
        XCTAssertEqual(try String(contentsOf: diary.url(rel), encoding: .utf8), "---\ndate: 2026-11-01\n---\nfirst\n")
        c = try Change(diary)
        try c.remove(rel)
        try c.commit("rm: a")
        let known = try XCTUnwrap(History.lastKnown(idPrefix: "2026-11-01-0900", in: diary.repository()))
        XCTAssertEqual(known.path, rel)
        c = try Change(diary)
        XCTAssertTrue(try History.restore(entryPath: rel, from: known.commit, in: c))
        try c.commit("restore")
        XCTAssertTrue(try String(contentsOf: diary.url(rel), encoding: .utf8).contains("first"))
    }
}
