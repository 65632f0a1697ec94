// Erasing entries from history: which commits go, which keep their ids, messages, and determinism.
import XCTest
@testable import DaybookCore

final class HistoryPurgeTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(inside: "a", environment: HistoryPurgeTests.environment) }

    let dir = "entries/2026/11"
    let secret = "2026-11-20-0900-interview-zanzibar"
    let keep = "2026-11-19-0800-keep"
    let later = "2026-11-21-1000-later"
    static let environment = ["DAYBOOK_NOW": "2026-11-23T12:00:00+01:00", "TZ": "Europe/Vienna"]
    let env = HistoryPurgeTests.environment

    override func setUpWithError() throws {
        try super.setUpWithError()
        try commit("new: Keep", ["\(dir)/\(keep).md": entry("Keep", "alpha")])
        try commit("new: Interview Zanzibar", ["\(dir)/\(secret).md": entry("Interview Zanzibar", "Quixotical words")])
        try commit("attach: consent.txt to Interview Zanzibar", ["\(dir)/\(secret)/consent.txt": "signed\n",
                                                                 "\(dir)/\(secret).strokes.json": "{}\n"])
        try commit("tag: +x on 2 entries\n\nInterview Zanzibar\nKeep", ["\(dir)/\(secret).md": entry("Interview Zanzibar", "Quixotical words", tags: "[x]"),
                                                                          "\(dir)/\(keep).md": entry("Keep", "alpha", tags: "[x]")])
        try commit("new: Later", ["\(dir)/\(later).md": entry("Later", "beta")])
    }

    func open(_ name: String) throws -> Diary {
        let url = tmp.appendingPathComponent(name)
        return try Diary.open(url, environment: env, workingDirectory: url)
    }

    func entry(_ title: String, _ body: String, tags: String = "[]") -> String {
        "---\ntitle: \(title)\ndate: 2026-11-20T09:00:00+01:00\ntags: \(tags)\n---\n\(body)\n"
    }

    func commit(_ message: String, _ files: [String: String]) throws {
        let change = try Change(diary)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try change.write(text, to: path) }
        try change.commit(message)
    }

    func log(_ repo: Repository) throws -> [CommitInfo] {
        var out: [CommitInfo] = []
        try repo.walk { out.append($0); return true }
        return out
    }

    func testTheEntrysOwnCommitsGoOthersKeepMessagesDatesAndOlderOnesTheirIds() throws {
        let before = try log(diary.repository())
        let plan = try HistoryPurge.plan(["\(dir)/\(secret).md"], in: diary.repository())
        XCTAssertEqual(plan.files, ["\(dir)/\(secret).md", "\(dir)/\(secret).strokes.json", "\(dir)/\(secret)/"])
        XCTAssertEqual(plan.commits, 4, "from the entry's first commit on")
        let change = try Change(diary)
        let outcome = try HistoryPurge.run(plan, in: change, date: diary.clock.nowLocal)
        XCTAssertEqual(outcome.rewritten, 2)
        XCTAssertEqual(outcome.dropped, 2, "new: and attach: touched nothing else")
        XCTAssertGreaterThan(outcome.deletedObjects, 0)

        let after = try log(diary.repository())
        XCTAssertEqual(after.map { $0.message.components(separatedBy: "\n").first ?? "" },
                       ["purge: 1 entry erased from history", "new: Later", "tag: +x on 2 entries", "new: Keep", before.last?.message.components(separatedBy: "\n").first ?? ""])
        XCTAssertEqual(after[2].message, "tag: +x on 2 entries\n\n(purged)\nKeep\n")
        XCTAssertEqual(after[3].id, before[4].id, "a commit older than the entry keeps its id")
        XCTAssertEqual(after[1].date, before[0].date)
        XCTAssertNotEqual(after[1].id, before[0].id)
        let files = try diary.repository().blobIDs(commit: after[1].id).keys.sorted()
        XCTAssertEqual(files.filter { $0.hasPrefix("entries") }, ["\(dir)/\(keep).md", "\(dir)/\(later).md"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: diary.url("\(dir)/\(secret).md").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: diary.url("\(dir)/\(secret)").path))
        XCTAssertEqual(try diary.repository().pendingChanges(), [])
        let record = try PurgeRecord.at(after[0].id, in: diary.repository())
        XCTAssertEqual(record.items, [PurgeRecord.Item(digest: PurgeRecord.digest(ofID: secret), folder: dir, date: "2026-11-23T12:00:00+01:00")])
        XCTAssertFalse(try String(contentsOf: diary.url(PurgeRecord.path), encoding: .utf8).contains("zanzibar"))
        // The old commits are gone from the repository, not only unreachable.
        XCTAssertThrowsError(try diary.repository().resolve(before[0].id))
    }

    func testTheSameHistoryAndEntriesGiveTheSameCommitsOnAnyMachine() throws {
        try FileManager.default.copyItem(at: tmp.appendingPathComponent("a"), to: tmp.appendingPathComponent("b"))
        let head = try XCTUnwrap(diary.repository().headID)
        var results: [String?] = []
        for name in ["a", "b"] {
            let repo = try open(name).repository()
            // Machine b learns the id from the record's digest, as sync does.
            let erased = name == "a" ? [dir: [secret]]
                : try HistoryPurge.identify([PurgeRecord.Item(digest: PurgeRecord.digest(ofID: secret), folder: dir, date: "")], in: repo)
            XCTAssertEqual(erased, [dir: [secret]])
            let rewriter = HistoryRewriter(repo, erasing: erased)
            try rewriter.run()
            results.append(rewriter.newID(head))
        }
        XCTAssertNotEqual(results[0], head)
        XCTAssertEqual(results[0], results[1])
    }

    func testAnEntryThatIsNotInHistoryChangesNothing() throws {
        let head = try diary.repository().headID
        let rewriter = HistoryRewriter(try diary.repository(), erasing: [dir: ["2026-11-02-0000-nothing"]])
        try rewriter.run()
        XCTAssertEqual(rewriter.newID(try XCTUnwrap(head)), head)
        XCTAssertEqual(rewriter.rewritten + rewriter.dropped, 0)
    }

    func testTwoMachinesRecordsMergeKeyByKey() throws {
        let one = PurgeRecord.Item(digest: PurgeRecord.digest(ofID: secret), folder: dir, date: "2026-11-23T12:00:00+01:00")
        let two = PurgeRecord.Item(digest: PurgeRecord.digest(ofID: later), folder: dir, date: "2026-11-24T12:00:00+01:00")
        let merge = try TreeMerge(base: [:], ours: [PurgeRecord.path: "o"], theirs: [PurgeRecord.path: "t"], remoteHash: "abc1234") {
            Data(($0 == "o" ? PurgeRecord(items: [one]) : PurgeRecord(items: [two])).text.utf8)
        }
        XCTAssertEqual(merge.conflicts, [])
        guard case let .data(merged)? = merge.changes.first?.content else { return XCTFail("\(merge.changes)") }
        XCTAssertEqual(Set(try PurgeRecord(text: String(decoding: merged, as: UTF8.self)).items), [one, two])
    }

    /// The forced push after a purge replaces the remote's branch only while it points at the
    /// commit sync saw; a branch that moved meanwhile is left alone (false: fetch and merge).
    func testReplacingTheRemoteBranchOnlyWhileItIsWhereTheFetchSawIt() throws {
        let remote = tmp.appendingPathComponent("remote.git")
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["init", "-q", "--bare", "-b", "main", remote.path]
        try git.run()
        git.waitUntilExit()
        let repo = try diary.repository()
        try repo.setRemote("origin", url: remote.path)
        XCTAssertTrue(try repo.push(remote: "origin", branch: "main", to: "main", progress: nil))
        let pushed = try XCTUnwrap(repo.headID)
        let plan = try HistoryPurge.plan(["\(dir)/\(secret).md"], in: repo)
        _ = try HistoryPurge.run(plan, in: Change(diary), date: diary.clock.nowLocal)
        let purged = try XCTUnwrap(diary.repository().headID)
        let local = try diary.repository()
        XCTAssertFalse(try local.push(remote: "origin", branch: "main", to: "main", replacing: purged, progress: nil),
                       "the remote is not where this machine thinks")
        let remoteRepo = try Repository.open(remote)
        XCTAssertEqual(remoteRepo.referenceID("refs/heads/main"), pushed)
        XCTAssertTrue(try local.push(remote: "origin", branch: "main", to: "main", replacing: pushed, progress: nil))
        XCTAssertEqual(try Repository.open(remote).referenceID("refs/heads/main"), purged)
    }

    func testTheRecordReadsBackAndRefusesWhatIsNotOne() throws {
        let item = PurgeRecord.Item(digest: PurgeRecord.digest(ofID: secret), folder: dir, date: "2026-11-23T12:00:00+01:00")
        let record = PurgeRecord(items: [item])
        XCTAssertEqual(try PurgeRecord(text: record.text), record)
        XCTAssertEqual(item.digest.count, 64)
        XCTAssertThrowsError(try PurgeRecord(text: "abc: {folder: entries/2026/11}\n"))
        XCTAssertThrowsError(try PurgeRecord(text: "\(item.digest): {folder: ../../etc}\n"))
    }
}
