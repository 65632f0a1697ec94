// A change of many files is all or nothing (issue 38): its record in `.daybook/intent` is written
// before each file changes; a change stopped before its commit is rolled back, by itself when an
// error drops it, by the next change when it was killed; an edit made since is never undone.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class ChangeIntentTests: DiaryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let change = try Change(diary)
        for name in ["a", "b", "c"] { try change.write("---\ntitle: \(name)\n---\nold \(name)\n", to: path(name)) }
        try change.write("attached", to: "attachments/2026-11-21-1000-c/photo.txt")
        try change.commit("seed")
    }

    func path(_ name: String) -> String { "entries/2026/11/2026-11-21-1000-\(name).md" }
    func read(_ rel: String) -> String? { FileManager.default.contents(atPath: diary.url(rel).path).map { String(decoding: $0, as: UTF8.self) } }
    var intent: URL { diary.stateFolder.appendingPathComponent("intent") }

    /// What a killed command leaves: the record of `steps` (each written before its file), and
    /// the files it got to.
    func leaveKilled(_ command: String, _ steps: [(String, String?)]) throws {
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        var lines = [String(decoding: try JSONEncoder().encode(ChangeIntent.Header(command: command, pid: dead.processIdentifier)), as: UTF8.self)]
        for (rel, text) in steps {
            let id = try text.map { try Repository.blobID(of: Data($0.utf8)) }
            lines.append(String(decoding: try JSONEncoder().encode(ChangeIntent.Step(path: rel, new: id)), as: UTF8.self))
            if let text {
                try AtomicFile.makeDirectory(diary.url(rel).deletingLastPathComponent())
                try AtomicFile.write(text, to: diary.url(rel))
            } else {
                try FileManager.default.removeItem(at: diary.url(rel))
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(to: intent, atomically: false, encoding: .utf8)
    }

    func testAKilledChangeIsRolledBackByTheNextAndCommitsNothingOfIt() throws {
        let head = try diary.repository().headID
        try leaveKilled("tag rename #x #y", [(path("a"), "new a"), (path("b"), "new b"), (path("new"), "a new entry"),
                                             (path("c"), nil), ("attachments/2026-11-21-1000-c", nil)])
        XCTAssertEqual(ChangeIntent.pending(diary)?.command, "tag rename #x #y")
        XCTAssertEqual(ChangeIntent.pending(diary)?.running, false)
        var notices: [Diagnostic] = []
        Change.notice = { notices.append($0) }
        defer { Change.notice = { _ in } }
        let change = try Change(diary)
        XCTAssertEqual(change.rolledBack?.command, "tag rename #x #y")
        XCTAssertNil(change.outsideCommit, "nothing of the killed change is committed as an outside edit")
        XCTAssertEqual(read(path("a")), "---\ntitle: a\n---\nold a\n")
        XCTAssertEqual(read(path("b")), "---\ntitle: b\n---\nold b\n")
        XCTAssertEqual(read(path("c")), "---\ntitle: c\n---\nold c\n")
        XCTAssertEqual(read("attachments/2026-11-21-1000-c/photo.txt"), "attached")
        XCTAssertNil(read(path("new")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: intent.path))
        XCTAssertTrue(notices.contains { $0.message.contains("rolled back `tag rename #x #y`") })
        XCTAssertNil(try change.commit("nothing"))
        XCTAssertEqual(try diary.repository().headID, head)
    }

    func testAFileChangedSinceTheKillIsLeftAsItIs() throws {
        try leaveKilled("import jrnl", [(path("a"), "new a"), (path("b"), "new b")])
        try AtomicFile.write("new b, and the person's words", to: diary.url(path("b")))
        let change = try Change(diary)
        XCTAssertEqual(change.rolledBack?.restored, [path("a")])
        XCTAssertEqual(read(path("b")), "new b, and the person's words")
        let outside = try XCTUnwrap(change.outsideCommit, "the person's edit is committed apart")
        XCTAssertEqual(try diary.repository().changedPaths(outside), [path("b")])
    }

    func testAChangeDroppedBeforeItsCommitPutsItsFilesBack() throws {
        do {
            let change = try Change(diary)
            try change.allOrNothing("rm")
            try change.remove(path("a"))
            try change.write("changed", to: path("b"))
            XCTAssertTrue(FileManager.default.fileExists(atPath: intent.path))
            // An error stops the command here: the change is dropped.
        }
        XCTAssertEqual(read(path("a")), "---\ntitle: a\n---\nold a\n")
        XCTAssertEqual(read(path("b")), "---\ntitle: b\n---\nold b\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: intent.path))
    }

    func testACommittedChangeLeavesNoRecord() throws {
        let change = try Change(diary)
        try change.allOrNothing("rm")
        try change.remove(path("a"))
        try change.write("changed", to: path("b"))
        XCTAssertNotNil(try change.commit("rm"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: intent.path))
        XCTAssertNil(read(path("a")))
        XCTAssertNil(try Change(diary).rolledBack)
    }
}
