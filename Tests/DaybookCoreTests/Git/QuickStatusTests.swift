// The quick outside-edit check answers exactly what libgit2's full status answers.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class QuickStatusTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false) }

    var repo: Repository!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try fixture.makeFolders("entries/2026/11")
        repo = try Repository.create(tmp, branch: "main")
        try ".daybook/\n*.daybook-tmp\nexports/\n".write(to: tmp.appendingPathComponent(".gitignore"), atomically: false, encoding: .utf8)
        for i in 0..<30 { try write("entries/2026/11/e\(i).md", "entry \(i)\n") }
        try write("daybook.yml", "name: x\n")
        try repo.commit(paths: [".gitignore", "daybook.yml", "entries"], message: "start")
        // Files written in the same second as the index would be racily clean: age them.
        age()
        try repo.commit(paths: ["entries"], message: "nothing")
    }

    func write(_ rel: String, _ text: String) throws {
        let url = tmp.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    /// Moves every file's times 10 s back, then refreshes the index's stat data with them.
    func age() {
        let e = FileManager.default.enumerator(atPath: tmp.path)!
        while let p = e.nextObject() as? String {
            if p.hasPrefix(".git") { continue }
            var t = [timespec(tv_sec: Int(Date().timeIntervalSince1970) - 10, tv_nsec: 0), timespec(tv_sec: Int(Date().timeIntervalSince1970) - 10, tv_nsec: 0)]
            utimensat(AT_FDCWD, tmp.appendingPathComponent(p).path, &t, 0)
        }
        _ = try? repo.fullPendingChanges(refreshIndex: true)
    }

    func both() throws -> ([PendingChange], [PendingChange]) {
        let quick = try repo.pendingChanges()
        let full = try repo.fullPendingChanges().sorted { $0.path < $1.path }
        return (quick, full)
    }

    /// A symbolic link whose target is gone is still a link (not read as deleted): pending, as git
    /// sees it, and, as every link, never committed by daybook (issue 41) but named as left out.
    func testADanglingSymbolicLinkIsPendingAndLeftOutOfTheCommit() throws {
        XCTAssertEqual(symlink("no-such-target", tmp.appendingPathComponent("notes-link").path), 0)
        XCTAssertEqual(try repo.pendingChanges().map(\.path), ["notes-link"])
        XCTAssertNil(try repo.commit(paths: ["notes-link"], message: "link"))
        XCTAssertEqual(repo.linksLeftOut, ["notes-link"])
        XCTAssertEqual(try repo.pendingChanges().map(\.path), ["notes-link"])
        XCTAssertEqual(try repo.fullPendingChanges(refreshIndex: false).map(\.path), ["notes-link"])
    }

    func testACleanTreeIsAnsweredQuicklyAndEmpty() throws {
        XCTAssertEqual(try repo.quickPendingChanges(), [])
    }

    func testEditsAddsAndIgnoredFiles() throws {
        try write("entries/2026/11/e3.md", "entry 3, edited\n")
        try write("entries/2026/11/new.md", "new\n")
        try write("entries/2026/11/x.md.daybook-tmp", "temp\n")
        try write("exports/site/index.html", "ignored\n")
        try write("templates/memo.md", "a template\n")
        let quick = try repo.quickPendingChanges()
        XCTAssertNotNil(quick, "a few changes are answered the quick way")
        let (q, full) = try both()
        XCTAssertEqual(q, full)
        XCTAssertEqual(Set(q.map(\.path)), ["entries/2026/11/e3.md", "entries/2026/11/new.md", "templates/memo.md"])
    }

    func testAnEditKeepingSizeAndModificationTimeIsSeen() throws {
        let url = tmp.appendingPathComponent("entries/2026/11/e4.md")
        var st = stat()
        stat(url.path, &st)
        try "ENTRY 4\n".write(to: url, atomically: false, encoding: .utf8)
        var t = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, url.path, &t, 0), 0)
        let (q, full) = try both()
        XCTAssertEqual(q, full)
        XCTAssertEqual(q.map(\.path), ["entries/2026/11/e4.md"])
    }

    func testAFileTouchedButNotChangedIsNotAChange() throws {
        var t = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, tmp.appendingPathComponent("entries/2026/11/e5.md").path, &t, 0)
        XCTAssertEqual(try repo.pendingChanges(), [])
    }

    func testDeletionsAndStagedChangesFallBackToTheFullStatus() throws {
        try FileManager.default.removeItem(at: tmp.appendingPathComponent("entries/2026/11/e6.md"))
        XCTAssertNil(try repo.quickPendingChanges())
        XCTAssertEqual(try repo.pendingChanges(), [PendingChange(path: "entries/2026/11/e6.md", kind: .deleted)])
        try repo.commit(paths: ["entries/2026/11/e6.md"], message: "gone")
        // Staged with git, not committed: the index no longer matches HEAD.
        try write("entries/2026/11/e7.md", "staged\n")
        _ = try repo.stage(["entries/2026/11/e7.md"])
        XCTAssertNil(try repo.quickPendingChanges())
        XCTAssertEqual(try repo.pendingChanges().map(\.path), ["entries/2026/11/e7.md"])
    }

    func testManyTouchedFilesRefreshTheIndexSoTheNextCheckIsQuick() throws {
        let now = Int(Date().timeIntervalSince1970) - 5
        for i in 0..<30 {
            var t = [timespec(tv_sec: now, tv_nsec: 0), timespec(tv_sec: now, tv_nsec: 0)]
            utimensat(AT_FDCWD, tmp.appendingPathComponent("entries/2026/11/e\(i).md").path, &t, 0)
        }
        Repository.quickCandidateLimit = 5
        defer { Repository.quickCandidateLimit = 256 }
        // Copying a diary changes every inode and time: all files differ from the index's data.
        XCTAssertNil(try repo.quickPendingChanges(), "30 files differ, over the limit of 5")
        XCTAssertEqual(try repo.pendingChanges(), [])
        XCTAssertEqual(try repo.quickPendingChanges(), [], "the full status refreshed the index")
    }
}
