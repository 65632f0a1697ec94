// The watcher a server asks whether to read the entries again: every kind of change counts, no change does not.
import XCTest
@testable import DaybookCore

final class DiaryWatcherTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false) }
    var folder: URL { tmp }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("2026/11"), withIntermediateDirectories: true)
        try "a".write(to: folder.appendingPathComponent("2026/11/a.md"), atomically: false, encoding: .utf8)
    }

    func testEveryChangeBelowTheFolderCountsAndNothingElse() throws {
        let watcher = DiaryWatcher(folder: folder)
        XCTAssertTrue(watcher.isWatching)
        var g = watcher.generation()
        XCTAssertEqual(watcher.generation(), g, "nothing changed")
        _ = try String(contentsOf: folder.appendingPathComponent("2026/11/a.md"), encoding: .utf8)
        XCTAssertEqual(watcher.generation(), g, "reading is no change")

        func changes(_ what: String, _ change: () throws -> Void) throws {
            try change()
            let now = watcher.generation()
            XCTAssertGreaterThan(now, g, what)
            g = now
        }
        let file = folder.appendingPathComponent("2026/11/a.md")
        try changes("written in place") {
            let h = try FileHandle(forWritingTo: file)
            try h.write(contentsOf: Data("b".utf8))
            try h.close()
        }
        try changes("replaced by a rename") { try "c".write(to: file, atomically: true, encoding: .utf8) }
        try changes("a new month folder") {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("2019/03"), withIntermediateDirectories: true)
        }
        try changes("a file in the new folder") {
            try "d".write(to: folder.appendingPathComponent("2019/03/d.md"), atomically: false, encoding: .utf8)
        }
        try changes("a mode") { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path) }
        try changes("a removal") { try FileManager.default.removeItem(at: file) }
    }

    func testAFolderThatIsNotThereYetIsWatchedOnceItIs() throws {
        let later = folder.appendingPathComponent("later")
        let watcher = DiaryWatcher(folder: later)
        let g = watcher.generation()
        XCTAssertNotEqual(watcher.generation(), g, "nothing to watch: nothing is trusted")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        let h = watcher.generation()
        XCTAssertEqual(watcher.generation(), h, "watched now")
        try "x".write(to: later.appendingPathComponent("x.md"), atomically: false, encoding: .utf8)
        XCTAssertGreaterThan(watcher.generation(), h)
    }
}
