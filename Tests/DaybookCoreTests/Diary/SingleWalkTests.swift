// A mutation stats each file once (issue 19): the walk of the working folder a `Change` makes for
// the outside edits also finds the temporary leftovers and stamps the entry files for the entry
// scan. Over generated diaries with outside edits, deletions, new files, leftovers in many folders
// and racy files, each answer taken from that walk equals the one its own walk gives.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class SingleWalkTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false) }

    // MARK: Generated diaries

    /// A small deterministic generator (the tests must fail the same way each run).
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    func write(_ rel: String, _ text: String) throws {
        let url = diary.url(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func entryText(day: Int, hour: Int, title: String) -> String {
        "---\ntitle: \(title)\ndate: 2026-11-\(LocalDay.padded(day, 2))T\(LocalDay.padded(hour, 2)):00:00+01:00\ntags: [t\(day % 3)]\n---\nWords of \(title).\n"
    }

    func entryPath(month: Int, day: Int, hour: Int, slug: String) -> String {
        "entries/2026/\(LocalDay.padded(month, 2))/2026-\(LocalDay.padded(month, 2))-\(LocalDay.padded(day, 2))-\(LocalDay.padded(hour, 2))00-\(slug).md"
    }

    /// Moves every file's times back (out of git's and the cache's racy windows) and refreshes
    /// the index's stat data, as a diary left alone for a while is.
    func age(_ repo: Repository) {
        let e = FileManager.default.enumerator(atPath: tmp.path)!
        let past = Int(Date().timeIntervalSince1970) - 100
        while let p = e.nextObject() as? String {
            if p.hasPrefix(".git") { continue }
            var t = [timespec(tv_sec: past, tv_nsec: 0), timespec(tv_sec: past, tv_nsec: 0)]
            utimensat(AT_FDCWD, tmp.appendingPathComponent(p).path, &t, AT_SYMLINK_NOFOLLOW)
        }
        _ = try? repo.fullPendingChanges(refreshIndex: true)
    }

    /// A committed diary of `count` entries in three months (some with stroke files), with odd
    /// names beside them, its cache warm and its files aged; then outside edits, deletions, new
    /// entries (one the newest), a racy edit, and temporary leftovers in many folders, also in an
    /// ignored folder, in a folder named like one, in `.daybook` and in a nested `.git` (those two
    /// are never swept). Returns the leftovers planted.
    @discardableResult
    func generate(seed: UInt64, count: Int = 60, ignoreTemporaryFiles: Bool = true) throws -> [String] {
        var g = Generator(state: seed)
        try Diary.create(at: tmp, name: nil)
        diary = try fixture.open()
        if !ignoreTemporaryFiles { try write(".gitignore", ".daybook/\nexports/\n") } else { try write(".gitignore", Diary.gitignore + "exports/\n") }
        var paths: [String] = []
        for i in 0..<count {
            let month = 9 + g.next(3), day = 1 + g.next(20), hour = g.next(24)
            let rel = entryPath(month: month, day: day, hour: hour, slug: "e\(i)")
            try write(rel, entryText(day: day, hour: hour, title: "E\(i)"))
            if g.next(5) == 0 { try write(String(rel.dropLast(3)) + ".strokes.json", "{\"version\": 1, \"strokes\": []}\n") }
            paths.append(rel)
        }
        // Names beside the entries that are no entries, or no regular files.
        try write("entries/2026/11/.hidden.md", "hidden\n")
        try write("entries/2026/11/2026-11-02-0900-x.conflict-abc.md", entryText(day: 2, hour: 9, title: "conflict"))
        try FileManager.default.createDirectory(at: diary.url("entries/2026/11/2026-11-03-0900-folder.md"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: diary.url("entries/2026/11/2026-11-20-2300-link.md").path, withDestinationPath: "../../../templates/memo.md")
        try write("entries/2026/.secret/2026-11-04-0900-s.md", entryText(day: 4, hour: 9, title: "in a hidden folder"))
        try write("templates/memo.md", "---\ntitle: memo\n---\n")
        try write("notes/a/b/n.txt", "note\n")
        let repo = try diary.repository()
        try repo.commit(paths: try repo.fullPendingChanges().map(\.path), message: "start")
        age(repo)
        _ = diary.scanEntries() // the cache, warm

        // Outside edits.
        for _ in 0..<3 {
            let rel = paths[g.next(paths.count)]
            if FileManager.default.fileExists(atPath: diary.url(rel).path) {
                try write(rel, entryText(day: 1 + g.next(20), hour: g.next(24), title: "edited \(g.next(1000))"))
            }
        }
        for _ in 0..<2 { try? FileManager.default.removeItem(at: diary.url(paths[g.next(paths.count)])) }
        try write(entryPath(month: 11, day: 21, hour: 11, slug: "newest"), entryText(day: 21, hour: 11, title: "newest"))
        try write(entryPath(month: 10, day: 5, hour: 8, slug: "added"), entryText(day: 5, hour: 8, title: "added"))
        try write("templates/memo.md", "---\ntitle: memo two\n---\n")
        // A racy edit: the same size, the old modification time.
        let racy = paths[g.next(paths.count)]
        if FileManager.default.fileExists(atPath: diary.url(racy).path) {
            let before = try XCTUnwrap(FileStamp.of(diary.url(racy).path))
            var text = try String(contentsOf: diary.url(racy), encoding: .utf8)
            text = text.replacingOccurrences(of: "Words", with: "Wordz")
            try write(racy, text)
            var t = [timespec(tv_sec: before.mtime / 1_000_000_000, tv_nsec: before.mtime % 1_000_000_000),
                     timespec(tv_sec: before.mtime / 1_000_000_000, tv_nsec: before.mtime % 1_000_000_000)]
            utimensat(AT_FDCWD, diary.url(racy).path, &t, 0)
        }
        // Leftovers.
        let suffix = AtomicFile.temporarySuffix
        let leftovers = [".daybook.yml.7\(suffix)", "entries/2026/11/.2026-11-01-0900-e.md.9\(suffix)",
                         "entries/2026/10/.x.strokes.json\(suffix)", "templates/.memo.md\(suffix)", "notes/a/b/.n.txt\(suffix)",
                         "exports/.site.json\(suffix)", "odd\(suffix)/inner\(suffix)"]
        for rel in leftovers { try write(rel, "half written\n") }
        try write(".daybook/cache/.x\(suffix)", "the caches' own\n")
        try write("notes/sub/.git/y\(suffix)", "never swept\n")
        return leftovers
    }

    func walkOfWorkingFolder() throws -> WorkTree {
        try XCTUnwrap(try diary.repository().workingFolderWalk(noting: { Diary.isTemporaryName($0) }).files())
    }

    func describe(_ walk: EntryWalk) -> [String] {
        (0..<walk.count).map { i in
            let f = walk.files[i]
            return "\(walk.rel(i)) \(f.stamp) \(f.ink.map { "\($0)" } ?? "-")"
        }
    }

    // MARK: Leftovers from the walk

    func testLeftoversFromTheWalkAreThoseOfTheirOwnWalk() throws {
        for seed in [1, 2, 3] as [UInt64] {
            try? FileManager.default.removeItem(at: tmp)
            let planted = try generate(seed: seed)
            let own = diary.temporaryLeftovers()
            let fromWalk = diary.temporaryLeftovers(seen: try walkOfWorkingFolder())
            XCTAssertEqual(fromWalk, own, "seed \(seed)")
            XCTAssertEqual(Set(own), Set(planted.filter { !$0.hasPrefix("odd") } + ["odd\(AtomicFile.temporarySuffix)"]),
                           "a folder named like a leftover is listed, not gone into; .daybook and nested .git are not searched")
        }
    }

    func testAChangeSweepsEveryLeftoverAndCommitsTheOutsideEditsApart() throws {
        for (seed, ignoring) in [(4, true), (5, false), (6, true)] as [(UInt64, Bool)] {
            try? FileManager.default.removeItem(at: tmp)
            try generate(seed: seed, ignoreTemporaryFiles: ignoring)
            let leftovers = diary.temporaryLeftovers()
            let repo = try diary.repository()
            // What the old order gave: the leftovers removed first, then the status.
            let expected = try repo.fullPendingChanges().filter { !leftovers.contains($0.path) }.map(\.path).sorted()
            XCTAssertTrue(expected.contains(entryPath(month: 11, day: 21, hour: 11, slug: "newest")))
            if !ignoring { XCTAssertTrue(try repo.fullPendingChanges().contains { $0.path.hasSuffix(AtomicFile.temporarySuffix) }, "seen unless swept") }

            let change = try Change(diary)
            for rel in leftovers where !rel.hasPrefix("odd") {
                XCTAssertFalse(FileManager.default.fileExists(atPath: diary.url(rel).path), "\(rel) swept, seed \(seed)")
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: diary.url(".daybook/cache/.x\(AtomicFile.temporarySuffix)").path))
            XCTAssertTrue(FileManager.default.fileExists(atPath: diary.url("notes/sub/.git/y\(AtomicFile.temporarySuffix)").path))
            let outside = try XCTUnwrap(change.outsideCommit)
            // The symbolic link made outside is left out of the commit (issue 41: no commit adds a link) and stays pending.
            let link = "entries/2026/11/2026-11-20-2300-link.md"
            XCTAssertEqual(try repo.changedPaths(outside).sorted(), expected.filter { $0 != link }, "seed \(seed)")
            XCTAssertEqual(change.linksLeftOut, [link])
            XCTAssertEqual(try repo.fullPendingChanges().filter { !$0.path.hasPrefix("notes/sub/.git") }.map(\.path), [link], "everything else committed")
            XCTAssertNil(try change.commit("nothing"))
        }
    }

    // MARK: The entry scan from the walk

    func testTheEntryWalkFromTheWalkIsItsOwnWalk() throws {
        for seed in [7, 8, 9] as [UInt64] {
            try? FileManager.default.removeItem(at: tmp)
            try generate(seed: seed)
            let tree = try walkOfWorkingFolder()
            let own = describe(diary.walk())
            XCTAssertEqual(describe(diary.walk(seen: tree)), own, "seed \(seed)")
            XCTAssertTrue(own.contains { $0.contains(".md") && !$0.hasSuffix(" -") }, "some entries have stroke files")
            XCTAssertFalse(own.contains { $0.contains("-link.md") || $0.contains("-folder.md") || $0.contains(".secret") })
        }
    }

    func testLastAndDaysWithinAChangeAreThoseOfTheirOwnScan() throws {
        for seed in [10, 11, 12, 13] as [UInt64] {
            try? FileManager.default.removeItem(at: tmp)
            try generate(seed: seed)
            let change = try Change(diary)
            let own = EntryReference(diary), within = EntryReference(change)
            XCTAssertNotNil(within.seen)
            XCTAssertEqual(try within.resolve("last"), entryPath(month: 11, day: 21, hour: 11, slug: "newest"), "seed \(seed)")
            for ref in ["last", "today", "2026-10-05"] {
                XCTAssertEqual(try? within.resolve(ref), try? own.resolve(ref), "\(ref), seed \(seed)")
            }
            let a = diary.scanEntries(seen: change.seen), b = diary.scanEntries()
            XCTAssertEqual((0..<a.count).map { "\(a.path($0)) \(a.entry($0).title)" }, (0..<b.count).map { "\(b.path($0)) \(b.entry($0).title)" })
            XCTAssertEqual(a.diagnostics.map(\.message), b.diagnostics.map(\.message))
        }
    }

    func testAChangeThatHasWrittenFindsEntriesAfresh() throws {
        try generate(seed: 14)
        let change = try Change(diary)
        let later = entryPath(month: 11, day: 21, hour: 12, slug: "later")
        try change.write(entryText(day: 21, hour: 12, title: "later"), to: later)
        XCTAssertNil(EntryReference(change).seen)
        XCTAssertEqual(try EntryReference(change).resolve("last"), later)
        try change.commit("later")
    }

    /// The walk's beginning comes before any of its lstats: `noting` is asked about a name after
    /// its lstat, so the moment of the first question is later than that lstat.
    func testTheWalkBeginsBeforeItsFirstStat() throws {
        try generate(seed: 16)
        final class FirstAsked: @unchecked Sendable {
            let lock = NSLock()
            var moment: Int?
        }
        let first = FirstAsked()
        let tree = try XCTUnwrap(try diary.repository().workingFolderWalk(noting: { _ in
            first.lock.lock()
            if first.moment == nil { first.moment = FileStamp.now }
            first.lock.unlock()
            return false
        }).files())
        XCTAssertLessThanOrEqual(tree.startedAt, try XCTUnwrap(first.moment))
    }

    /// The scan taken from an earlier walk counts its files as stamped when that walk began: a file
    /// changed just before it is racy then, and cached only with its digest, even when the scan
    /// itself comes after the racy window.
    func testStampsFromTheWalkAreRacyAgainstTheWalksBeginning() throws {
        try generate(seed: 15)
        FileStamp.racyWindow = 1_000_000_000
        let rel = entryPath(month: 11, day: 21, hour: 11, slug: "newest")
        try write(rel, entryText(day: 21, hour: 11, title: "newest, again"))
        let tree = try walkOfWorkingFolder()
        usleep(1_300_000)
        let snapshot = diary.scanEntries(seen: tree)
        XCTAssertEqual(snapshot.entry(snapshot.count - 1).title, "newest, again")
        let cache = EntryCache(diary: diary)
        let k = try XCTUnwrap(cache.slots.firstIndex { String(decoding: cache.relBytes($0), as: UTF8.self) == rel })
        XCTAssertTrue(cache.slots[k].hasDigest, "racy against the walk that stamped it")
    }
}
