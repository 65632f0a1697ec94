// The entry cache's journal (issue 19): a mutation appends its records instead of writing the
// cache file again, and whatever becomes of the journal, a read gives what a fresh parse gives.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class EntryCacheJournalTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0, folders: ["entries/2026/11"]) }

    let dir = "entries/2026/11"

    override func setUpWithError() throws {
        try super.setUpWithError()
        for (day, title) in [(1, "a"), (2, "b"), (3, "c")] { try write(day, title) }
        _ = load()
        XCTAssertEqual(EntryCache(diary: diary).count, 3)
    }

    override func tearDownWithError() throws {
        EntryCache.journalLimit = EntryCache.defaultJournalLimit
        try super.tearDownWithError()
    }

    var cacheFile: String { diary.stateFolder.appendingPathComponent("cache/entries.bin").path }
    var journalFile: String { diary.stateFolder.appendingPathComponent("cache/entries.journal").path }

    func rel(_ day: Int) -> String { "\(dir)/2026-11-0\(day)-0900-e.md" }

    func text(_ day: Int, _ title: String) -> String {
        "---\ndate: 2026-11-0\(day)T09:00:00+01:00\ntitle: \(title)\ntags: [t\(day)]\n---\nWords of \(title) #inline\n"
    }

    /// Written by hand, as an editor would.
    func write(_ day: Int, _ title: String) throws {
        try text(day, title).write(to: diary.url(rel(day)), atomically: false, encoding: .utf8)
    }

    /// A mutation, as `new`, `tag` or `rm` make one.
    func mutate(write: [(Int, String)] = [], remove: [Int] = []) throws {
        let change = try Change(diary)
        for (day, title) in write { try change.write(text(day, title), to: rel(day)) }
        for day in remove { try change.remove(rel(day)) }
        XCTAssertNotNil(try change.commit("test"))
    }

    func load() -> [String] {
        var d: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &d, bodies: false)
        XCTAssertEqual(d.count, 0)
        return entries.map { String(describing: $0) }
    }

    /// What the files give, parsed without cache or journal (both are put back as they were).
    func freshParse() throws -> [String] {
        let saved = [cacheFile, journalFile].map { FileManager.default.contents(atPath: $0) }
        for f in [cacheFile, journalFile] { try? FileManager.default.removeItem(atPath: f) }
        let entries = load()
        for (f, data) in zip([cacheFile, journalFile], saved) {
            try? FileManager.default.removeItem(atPath: f)
            if let data { XCTAssertTrue(FileManager.default.createFile(atPath: f, contents: data)) }
        }
        return entries
    }

    func titles() -> [String] {
        var d: [Diagnostic] = []
        return diary.loadEntries(diagnostics: &d, bodies: false).map(\.title)
    }

    func slotPaths() -> [String] {
        let cache = EntryCache(diary: diary)
        return cache.slots.map { String(decoding: cache.relBytes($0), as: UTF8.self) }
    }

    func testAMutationAppendsToTheJournalAndLeavesTheCacheFile() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: cacheFile)), stamp = FileStamp.of(cacheFile)
        try mutate(write: [(4, "d"), (2, "b2")], remove: [1])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cacheFile)), before, "the cache file is not written")
        XCTAssertEqual(FileStamp.of(cacheFile), stamp)
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 3)
        XCTAssertEqual(slotPaths(), [rel(2), rel(3), rel(4)], "in walk order: one replaced, one added, one gone")
        let journal = FileStamp.of(journalFile)
        XCTAssertEqual(titles(), ["b2", "c", "d"])
        XCTAssertEqual(FileStamp.of(cacheFile), stamp, "the read found every record valid")
        XCTAssertEqual(FileStamp.of(journalFile), journal)
        try mutate(write: [(5, "e")])
        let appended = try XCTUnwrap(FileStamp.of(journalFile))
        XCTAssertEqual(appended.inode, journal?.inode, "appended to, not replaced")
        XCTAssertGreaterThan(appended.size, journal?.size ?? .max)
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 4)
        XCTAssertEqual(titles(), ["b2", "c", "d", "e"])
        XCTAssertEqual(FileStamp.of(cacheFile), stamp)
        XCTAssertEqual(FileStamp.of(journalFile), appended)
        XCTAssertEqual(load(), try freshParse())
    }

    func testEachPathsLastBlockCounts() throws {
        try mutate(write: [(2, "one")])
        try mutate(write: [(2, "two")])
        XCTAssertEqual(titles(), ["a", "two", "c"])
        try mutate(remove: [2])
        XCTAssertEqual(titles(), ["a", "c"])
        XCTAssertEqual(slotPaths(), [rel(1), rel(3)])
        try mutate(write: [(2, "three")])
        XCTAssertEqual(titles(), ["a", "three", "c"])
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 4)
        XCTAssertEqual(load(), try freshParse())
    }

    func testATornOrDamagedJournalCostsTimeNotCorrectness() throws {
        try mutate(write: [(2, "b2"), (4, "d")])
        // A mutation killed halfway through its append: half a block at the end.
        let good = try Data(contentsOf: URL(fileURLWithPath: journalFile))
        let block = EntryCache.journalBlock(rel: rel(3), fresh: nil, now: FileStamp.now)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journalFile))
        handle.seekToEndOfFile()
        handle.write(Data(block.prefix(block.count / 2)))
        handle.closeFile()
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 2, "the torn block is left out")
        XCTAssertEqual(load(), try freshParse())
        XCTAssertEqual(titles(), ["a", "b2", "c", "d"])
        // The next mutation writes a journal of the blocks that read and its own.
        let torn = FileStamp.of(journalFile)
        try mutate(write: [(5, "e")])
        XCTAssertNotEqual(FileStamp.of(journalFile)?.inode, torn?.inode, "replaced, not appended after the torn block")
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 3)
        let whole = try Data(contentsOf: URL(fileURLWithPath: journalFile))
        XCTAssertEqual(whole.prefix(good.count), good)
        XCTAssertEqual(titles(), ["a", "b2", "c", "d", "e"])
        // A byte changed inside the first block: it and every block after it are left out, and
        // the files they held are parsed again (the read then writes the cache file).
        let first = try XCTUnwrap(whole.withUnsafeBytes { raw in
            EntryCache.journalBlocks(raw.bindMemory(to: UInt8.self), fingerprint: EntryCache.fingerprint(diary),
                                     against: EntryCache(diary: diary).fileChecksum).first
        })
        var damaged = whole
        damaged[first.lowerBound + 5] ^= 0x55
        try damaged.write(to: URL(fileURLWithPath: journalFile))
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 0)
        XCTAssertEqual(titles(), ["a", "b2", "c", "d", "e"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalFile), "the read that wrote the cache file took the journal's place")
        XCTAssertEqual(load(), try freshParse())
    }

    func testAJournalWrittenAgainstAnotherCacheFileIsIgnored() throws {
        try mutate(write: [(2, "b2")])
        let journal = try Data(contentsOf: URL(fileURLWithPath: journalFile))
        // A file added by hand makes the next read write the cache file (and unlink the journal).
        try write(6, "f")
        XCTAssertEqual(titles(), ["a", "b2", "c", "f"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalFile))
        XCTAssertEqual(slotPaths(), [rel(1), rel(2), rel(3), rel(6)], "the journal's record is in the cache file")
        // The old journal comes back (a reader unlinked it while a mutation appended): it names
        // the cache file before, so it is not taken in, even with a block for a file since edited.
        try journal.write(to: URL(fileURLWithPath: journalFile))
        try write(2, "b3")
        XCTAssertEqual(EntryCache(diary: diary).journalCount, 0)
        XCTAssertEqual(titles(), ["a", "b3", "c", "f"])
        XCTAssertEqual(load(), try freshParse())
    }

    func testALongJournalIsWrittenIntoTheCacheFileByTheNextRead() throws {
        EntryCache.journalLimit = 3
        try mutate(write: [(4, "d")])
        try mutate(write: [(5, "e")])
        let stamp = FileStamp.of(cacheFile)
        XCTAssertEqual(titles(), ["a", "b", "c", "d", "e"])
        XCTAssertEqual(FileStamp.of(cacheFile), stamp, "two blocks: the read writes nothing")
        try mutate(write: [(6, "f")])
        XCTAssertEqual(titles(), ["a", "b", "c", "d", "e", "f"])
        XCTAssertNotEqual(FileStamp.of(cacheFile), stamp, "three blocks: the read wrote the cache file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalFile))
        let cache = EntryCache(diary: diary)
        XCTAssertEqual(cache.journalCount, 0)
        XCTAssertEqual(cache.count, 6)
        XCTAssertEqual(load(), try freshParse())
    }

    /// Mutations of random entries (written, rewritten, removed, several at once), with a read
    /// now and then: after each, the records are one per file in walk order, and a read gives
    /// what a fresh parse gives.
    func testRandomMutationsReadAsFreshParses() throws {
        var rng = SystemRandomNumberGenerator()
        var present: Set<Int> = [1, 2, 3]
        for step in 0..<40 {
            var writes: [(Int, String)] = [], removes: [Int] = []
            for day in Set((0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 1...9, using: &rng) }) {
                if present.contains(day), Bool.random(using: &rng) { removes.append(day); present.remove(day) }
                else { writes.append((day, "s\(step)")); present.insert(day) }
            }
            try mutate(write: writes, remove: removes)
            XCTAssertEqual(slotPaths(), present.sorted().map(rel), "step \(step)")
            if step % 7 == 0 { XCTAssertEqual(load(), try freshParse(), "step \(step)") }
        }
        XCTAssertGreaterThan(EntryCache(diary: diary).journalCount, 40)
        XCTAssertEqual(load(), try freshParse())
    }

    func testAMutationWithoutACacheFileWritesNoJournal() throws {
        try FileManager.default.removeItem(atPath: cacheFile)
        try mutate(write: [(4, "d")])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalFile))
        XCTAssertEqual(titles(), ["a", "b", "c", "d"])
    }
}
