// The entry cache never returns stale results, and gives back exactly what a fresh parse gives.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class EntryCacheTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0, folders: ["entries/2026/11"]) }

    let dir = "entries/2026/11"

    func write(_ name: String, _ text: String) throws {
        try text.write(to: diary.url("\(dir)/\(name)"), atomically: false, encoding: .utf8)
    }

    func load(bodies: Bool = false) -> ([Entry], [Diagnostic]) {
        var d: [Diagnostic] = []
        let e = diary.loadEntries(diagnostics: &d, bodies: bodies)
        return (e, d)
    }

    /// Sets a file's modification time, as an editor or a copy tool may.
    func setMtime(_ name: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, diary.url("\(dir)/\(name)").path, &times, 0), 0)
    }

    func testCachedEntriesEqualFreshParses() throws {
        try write("2026-11-01-0900-a.md", "---\ntitle: A\ndate: 2026-11-01T09:00:00+01:00\ntags: [x, y/z]\nmood: 3\nplace: {name: Ward, n: 2.5}\ncodes:\n  - trust\n  - code: care\n    quote: \"words\"\n    occurrence: 2\n    memo: m\n    coder: ann\n    coded: 2026-11-02T10:30:00-05:00\n---\nSome words and #inline words.\n")
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02\n---\n# Heading title\n")
        let (fresh, _) = load()
        XCTAssertTrue(FileManager.default.fileExists(atPath: diary.stateFolder.appendingPathComponent("cache/entries.bin").path))
        let (cached, _) = load()
        XCTAssertEqual(fresh.count, 2)
        XCTAssertEqual(fresh.map { String(describing: $0) }, cached.map { String(describing: $0) })
        XCTAssertEqual(cached.first?.codings.last?.coded?.description, "2026-11-02T10:30:00-05:00", "coded: through the cache")
        let (withBodies, _) = load(bodies: true)
        XCTAssertEqual(withBodies.first?.body, "Some words and #inline words.\n")
    }

    /// Parsed a few files a chunk (many chunks, with cached, broken and fresh files between
    /// them), a diary reads as parsed in one chunk: the same entries, order and problems.
    func testSmallChunksReadAsOneChunk() throws {
        for k in 0..<90 {
            let day = String(format: "%02d", 1 + k % 28), minute = String(format: "%02d", k % 60)
            let text = k % 17 == 5 ? "---\ndate: nope\n---\nx\n"
                : "---\ndate: 2026-11-\(day)T09:\(minute):00+01:00\ntags: [t\(k % 5)]\n---\nWords #w\(k % 3) here \(k).\n"
            try write(String(format: "2026-11-%02d-%04d-e.md", 1 + k % 28, k), text)
        }
        func scan() -> String {
            let s = diary.scanEntries()
            return (0..<s.count).map { String(describing: s.entry($0, parts: .all)) }.joined(separator: "\n")
                + "\n" + s.diagnostics.map { "\($0.location?.path ?? ""):\($0.location?.line ?? 0) \($0.message)" }.sorted().joined(separator: "\n")
        }
        defer { Diary.parseChunk = Diary.defaultParseChunk }
        Diary.parseChunk = 1_000_000
        let whole = scan()
        for chunk in [1, 7, 64] {
            // Cold, then with every third file touched since (so cached and parsed files alternate).
            try FileManager.default.removeItem(at: diary.stateFolder.appendingPathComponent("cache"))
            Diary.parseChunk = chunk
            XCTAssertEqual(scan(), whole, "chunk \(chunk), cold")
            for k in stride(from: chunk % 3, to: 90, by: 3) {
                setMtime(String(format: "2026-11-%02d-%04d-e.md", 1 + k % 28, k), seconds: 1_700_000_000 + chunk * 100 + k)
            }
            XCTAssertEqual(scan(), whole, "chunk \(chunk), a third touched")
        }
        XCTAssertTrue(whole.contains("w2"))
        XCTAssertTrue(whole.contains("date"), "the broken files' problems are there")
    }

    /// An entry the cache does not take (its stroke file is broken, so its warning must come
    /// again) is kept as parsed, on a cold cache and a warm one, with its warning each time.
    func testAnEntryTheCacheDoesNotTakeIsStillRead() throws {
        for k in 0..<30 {
            try write(String(format: "2026-11-%02d-0900-e%d.md", 1 + k % 28, k), "---\ndate: 2026-11-\(String(format: "%02d", 1 + k % 28))T09:00:00+01:00\ntitle: E\(k)\n---\nWords \(k).\n")
        }
        try write("2026-11-05-0900-e4.strokes.json", "{\"format\": \"daybook-strokes\", \"version\": 1, \"strokes\": [oops]}\n")
        for run in ["cold", "warm"] {
            let snapshot = diary.scanEntries()
            XCTAssertEqual(snapshot.count, 30, run)
            let k = try XCTUnwrap((0..<snapshot.count).first { snapshot.path($0).hasSuffix("-e4.md") }, run)
            XCTAssertEqual(snapshot.entry(k).title, "E4", run)
            // Kept from the parse, not read again when asked for.
            XCTAssertEqual(snapshot.parsed[snapshot.fileIndex(k)]?.title, "E4", run)
            XCTAssertEqual(snapshot.diagnostics.filter { $0.message.contains("stroke file is broken") }.count, 1, run)
        }
    }

    /// The chunks cover every file once, in order, none larger than asked, and end short.
    func testParseChunksCoverEveryFileOnceAndEndShort() {
        for size in [1, 7, 64, 4096] {
            for count in [0, 1, 2, size - 1, size, size + 1, 2 * size, 2 * size + 1, 3 * size + 5, 100_003] {
                let chunks = Diary.parseChunks(count, size: size)
                XCTAssertEqual(chunks.map(\.count).reduce(0, +), count, "size \(size), count \(count)")
                XCTAssertEqual(chunks.first?.lowerBound ?? 0, 0)
                XCTAssertEqual(chunks.last?.upperBound ?? 0, count)
                for (a, b) in zip(chunks, chunks.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
                XCTAssertTrue(chunks.allSatisfy { !$0.isEmpty && $0.count <= size }, "size \(size), count \(count)")
                if let last = chunks.last { XCTAssertLessThanOrEqual(last.count, max(1, size / 16), "size \(size), count \(count)") }
            }
        }
        let sizes = Diary.parseChunks(100_003, size: 4096).map(\.count)
        XCTAssertTrue(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "\(sizes)") // they only get smaller
        XCTAssertEqual(sizes.first, 4096)
    }

    /// The cold parse reads files into a reused buffer from the month folder's descriptor: it must
    /// parse and digest the same as reading the file on its own, or racy records never confirm.
    func testTheBufferedReadParsesAndDigestsAsTheFileRead() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntags: [x]\n---\nSome #words.\n")
        try write("2026-11-01-0900-a.strokes.json", "{\"version\": 1, \"strokes\": []}\n")
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02T09:00:00+01:00\n---\n" + String(repeating: "long body ", count: 20000))
        let reader = FileBytes()
        for name in ["2026-11-01-0900-a.md", "2026-11-02-0900-b.md"] {
            let rel = "\(dir)/\(name)"
            let plain = diary.readEntry(rel, digest: true)
            let stamp = try XCTUnwrap(FileStamp.of(diary.url(rel).path))
            // The walk's stamp, a stamp of another size (read to the end), none (taken from the file).
            for walked in [stamp, FileStamp(size: 3, mtime: stamp.mtime, ctime: stamp.ctime, inode: stamp.inode), .unknown] {
                var asked: [FileStamp] = []
                let buffered = diary.readEntry(rel, stamp: walked, digest: { asked.append($0); return true }, ink: true, reader: reader)
                // The scan keeps no body, so the buffered read may leave it out (EntryCutTests).
                var whole = plain.outcome.entry
                whole?.body = ""
                var read = buffered.outcome.entry
                read?.body = ""
                XCTAssertEqual(read.map { String(describing: $0) }, whole.map { String(describing: $0) })
                XCTAssertEqual(buffered.digest, plain.digest)
                XCTAssertEqual(buffered.stamp, walked == .unknown ? stamp : walked, "the stamp taken from the opened file is the file's")
                XCTAssertEqual(asked, [buffered.stamp], "the digest is decided on that stamp")
            }
            XCTAssertEqual(plain.digest, EntryCache.digest(ofEntry: diary.url(rel).path))
        }
    }

    /// On a cold cache the walk stamps no entry file: each is stamped from the file the parse
    /// opens. The snapshot and the cache it writes must hold the stamps a stat by name gives, the
    /// same files (no link, pipe or folder named like an entry), and the next read parses nothing.
    func testAColdScanStampsEachFileFromTheFileItOpens() throws {
        for k in 0..<40 {
            try write(String(format: "2026-11-%02d-%04d-e.md", 1 + k % 28, k), "---\ndate: 2026-11-\(String(format: "%02d", 1 + k % 28))T09:00:00+01:00\n---\nWords \(k).\n")
        }
        try write("2026-11-01-0000-e.strokes.json", "{\"format\": \"daybook-strokes\", \"version\": 1, \"strokes\": []}\n")
        try FileManager.default.createSymbolicLink(atPath: diary.url("\(dir)/2026-11-05-0900-link.md").path,
                                                   withDestinationPath: diary.url("\(dir)/2026-11-01-0000-e.md").path)
        XCTAssertEqual(mkfifo(diary.url("\(dir)/2026-11-06-0900-pipe.md").path, 0o600), 0)
        try FileManager.default.createDirectory(at: diary.url("\(dir)/2026-11-07-0900-folder.md"), withIntermediateDirectories: false)
        setMtime("2026-11-02-0001-e.md", seconds: 1_700_000_000)
        let stamped = diary.walk()
        XCTAssertEqual(stamped.count, 40)
        let cold = diary.scanEntries()
        XCTAssertEqual(cold.count, 40)
        XCTAssertEqual((0..<cold.files.count).map { cold.files.rel($0) }, (0..<stamped.count).map { stamped.rel($0) })
        XCTAssertEqual(cold.files.files.map(\.stamp), stamped.files.map(\.stamp))
        XCTAssertEqual(cold.files.files.map(\.ink), stamped.files.map(\.ink))
        XCTAssertFalse(cold.files.files.contains { $0.stamp == .unknown })
        XCTAssertEqual(cold.diagnostics.map(\.message), [])
        // The cache written holds those stamps: every file is found in it.
        let cache = EntryCache(diary: diary, now: FileStamp.now)
        XCTAssertEqual(cache.count, 40)
        XCTAssertEqual((0..<stamped.count).filter { cache.slot(stamped, $0) == nil }, [])
    }

    /// Settings edited after a diary read them: what that diary parses under the old settings
    /// must not be cached as if made under the new ones (the next diary opened must see them).
    func testSettingsEditedAfterTheDiaryReadThemAreNotAdoptedByItsCache() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\nmood: 4\n---\nwords\n")
        let old = try open() // reads the settings (mood 1–5); no cache yet
        try "mood: {min: 1, max: 3}\n".write(to: diary.configFile, atomically: true, encoding: .utf8)
        var d: [Diagnostic] = []
        XCTAssertEqual(old.loadEntries(diagnostics: &d, bodies: false).first?.mood, 4, "the old settings still hold for the diary that read them")
        diary = try open() // reads the new settings: mood 4 is off the scale
        let (entries, diagnostics) = load()
        XCTAssertTrue(entries.isEmpty)
        XCTAssertTrue(diagnostics.contains { $0.message.contains("mood 4 is off the scale 1–3") }, "\(diagnostics)")
    }

    func testAnEditOfTheSameSizeAndTimeIsSeen() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: one\n---\nb\n")
        setMtime("2026-11-01-0900-a.md", seconds: 1_700_000_000)
        XCTAssertEqual(load().0.first?.title, "one")
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: two\n---\nb\n")
        setMtime("2026-11-01-0900-a.md", seconds: 1_700_000_000)
        XCTAssertEqual(load().0.first?.title, "two")
    }

    func testAFileReplacedBehindOurBackIsSeen() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: old\n---\nb\n")
        setMtime("2026-11-01-0900-a.md", seconds: 1_700_000_000)
        XCTAssertEqual(load().0.first?.title, "old")
        let other = tmp.appendingPathComponent("other.md")
        try "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: new\n---\nb\n".write(to: other, atomically: false, encoding: .utf8)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, other.path, &times, 0)
        XCTAssertEqual(rename(other.path, diary.url("\(dir)/2026-11-01-0900-a.md").path), 0)
        XCTAssertEqual(load().0.first?.title, "new")
    }

    func testDeletedAndAddedFiles() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01\n---\na\n")
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02\n---\nb\n")
        XCTAssertEqual(load().0.count, 2)
        try FileManager.default.removeItem(at: diary.url("\(dir)/2026-11-01-0900-a.md"))
        try write("2026-11-03-0900-c.md", "---\ndate: 2026-11-03\n---\nc\n")
        XCTAssertEqual(load().0.map(\.id), ["2026-11-02-0900-b", "2026-11-03-0900-c"])
    }

    func testProblemsAreCachedWithTheirPlaceAndStillReported() throws {
        try write("2026-11-01-0900-bad.md", "---\ndate: 2026-11-01\nmood: 9\n---\na\n")
        XCTAssertEqual(load().1.first?.location?.line, 3)
        let (entries, problems) = load()
        XCTAssertEqual(entries.count, 0)
        XCTAssertEqual(problems.first?.location?.line, 3)
        XCTAssertEqual(problems.first?.location?.path, "entries/2026/11/2026-11-01-0900-bad.md")
    }

    func testSettingsThatChangeTheParseInvalidateTheCache() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01\nmood: 7\n---\na\n")
        XCTAssertEqual(load().0.count, 0)
        try "mood: {min: 1, max: 10}\n".write(to: diary.configFile, atomically: true, encoding: .utf8)
        diary = try open()
        XCTAssertEqual(load().0.first?.mood, 7)
    }

    func testADamagedOrTruncatedCacheIsRebuilt() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01\ntitle: kept\n---\na\n")
        _ = load()
        let cacheFile = diary.stateFolder.appendingPathComponent("cache/entries.bin")
        let full = try Data(contentsOf: cacheFile)
        for cut in [0, 5, full.count / 2, full.count - 1] {
            try full.prefix(cut).write(to: cacheFile)
            XCTAssertEqual(load().0.first?.title, "kept", "cache cut at \(cut)")
        }
        var garbage = full
        for i in stride(from: 30, to: garbage.count, by: 7) { garbage[i] ^= 0x5A }
        try garbage.write(to: cacheFile)
        let (entries, _) = load()
        XCTAssertLessThanOrEqual(entries.count, 1) // never a crash; a damaged record is never trusted blindly
        try FileManager.default.removeItem(at: cacheFile)
        XCTAssertEqual(load().0.first?.title, "kept")
    }

    func testAKilledWriteLeavesTheOldCacheAndItsTemporaryFileGoes() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01\ntitle: kept\n---\na\n")
        _ = load()
        let folder = diary.stateFolder.appendingPathComponent("cache")
        // A write killed half-way: its temporary file, named after a process that is gone.
        let leftover = folder.appendingPathComponent(".entries.bin.999999\(AtomicFile.temporarySuffix)")
        try Data((try Data(contentsOf: folder.appendingPathComponent("entries.bin"))).prefix(20)).write(to: leftover)
        XCTAssertEqual(load().0.first?.title, "kept")
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02\ntitle: new\n---\nb\n")
        XCTAssertEqual(load().0.map(\.title), ["kept", "new"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path), "the next write sweeps it")
    }

    func testRacyFilesAreCachedWithTheDigestOfTheirBytes() throws {
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02\ntitle: old\n---\nb\n")
        _ = load() // cached as settled (a racy window of 0)
        FileStamp.racyWindow = 2_000_000_000
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01\ntitle: fresh\n---\na\n")
        _ = load()
        let cache = EntryCache(diary: diary)
        XCTAssertEqual(cache.count, 2)
        XCTAssertEqual(cache.slots.map(\.hasDigest), [true, false], "only the racy record carries a digest")
        let stamp = cacheStamp()
        XCTAssertEqual(load().0.map(\.title), ["fresh", "old"])
        XCTAssertEqual(cacheStamp(), stamp, "a confirmed racy record is not written again")
    }

    // MARK: Racy records and mutations (issue 19)

    var cacheFile: String { diary.stateFolder.appendingPathComponent("cache/entries.bin").path }

    /// The cache file's inode and modification time: what changes when it is written again.
    func cacheStamp() -> FileStamp? { FileStamp.of(cacheFile) }

    /// A cache made with the old racy window of files written long ago.
    func settledDiary() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: a\n---\na\n")
        try write("2026-11-03-0900-c.md", "---\ndate: 2026-11-03T09:00:00+01:00\ntitle: c\n---\nc\n")
        setMtime("2026-11-01-0900-a.md", seconds: 1_700_000_000)
        setMtime("2026-11-03-0900-c.md", seconds: 1_700_000_000)
        _ = load()
        XCTAssertEqual(EntryCache(diary: diary).count, 2)
    }

    func testARacyRecordWhoseFileChangedWithinItsTickIsNotTrusted() throws {
        // The race the digest closes: a file parsed, then changed again within the same clock
        // tick, so its stamp stays the one recorded with the old parse.
        FileStamp.racyWindow = 2_000_000_000
        let name = "2026-11-01-0900-a.md", rel = "\(dir)/2026-11-01-0900-a.md"
        try write(name, "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: one\n---\nb\n")
        let (old, oldDigest) = diary.readEntry(rel, digest: true)
        try write(name, "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: two\n---\nb\n")
        let stamp = try XCTUnwrap(FileStamp.of(diary.url(rel).path))
        let cache = EntryCache(diary: diary)
        var out = cache.writer()
        XCTAssertNotNil(cache.add(EntryCache.Fresh(rel: rel, stamp: stamp, ink: nil, entry: old.entry, problems: [], digest: oldDigest), into: &out))
        XCTAssertTrue(cache.finish(&out))
        XCTAssertEqual(EntryCache(diary: diary).slots.first?.hasDigest, true)
        XCTAssertEqual(load().0.first?.title, "two")
        XCTAssertEqual(load().0.first?.title, "two")
    }

    func testARacyParseWithoutItsDigestIsNotCached() throws {
        FileStamp.racyWindow = 2_000_000_000
        let rel = "\(dir)/2026-11-01-0900-a.md"
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: one\n---\nb\n")
        let cache = EntryCache(diary: diary)
        var out = cache.writer()
        let stamp = try XCTUnwrap(FileStamp.of(diary.url(rel).path))
        XCTAssertNil(cache.add(EntryCache.Fresh(rel: rel, stamp: stamp, ink: nil, entry: diary.readEntry(rel).entry, problems: []), into: &out))
    }

    func testAMutationWritesItsRecordsAndTheNextReadWritesNothing() throws {
        try settledDiary()
        FileStamp.racyWindow = 2_000_000_000
        let added = "\(dir)/2026-11-02-0900-b.md"
        let change = try Change(diary)
        try change.write("---\ndate: 2026-11-02T09:00:00+01:00\ntitle: b\n---\nnew\n", to: added)
        try change.write("---\ndate: 2026-11-03T09:00:00+01:00\ntitle: c2\n---\nc\n", to: "\(dir)/2026-11-03-0900-c.md")
        try change.remove("\(dir)/2026-11-01-0900-a.md")
        XCTAssertNotNil(try change.commit("test"))
        let cache = EntryCache(diary: diary)
        XCTAssertEqual(cache.slots.map { String(decoding: cache.relBytes($0), as: UTF8.self) },
                       ["\(dir)/2026-11-02-0900-b.md", "\(dir)/2026-11-03-0900-c.md"], "in walk order, the removed one gone")
        XCTAssertEqual(cache.slots.map(\.hasDigest), [true, true], "written within the racy window")
        let written = cacheStamp()
        let (entries, problems) = load()
        XCTAssertEqual(entries.map(\.title), ["b", "c2"])
        XCTAssertEqual(problems.count, 0)
        XCTAssertEqual(cacheStamp(), written, "the reading command found every record valid")
        // Another mutation within the window keeps the digests of the records still racy.
        let next = try Change(diary)
        try next.write("---\ndate: 2026-11-04T09:00:00+01:00\ntitle: d\n---\nd\n", to: "\(dir)/2026-11-04-0900-d.md")
        try next.commit("test")
        XCTAssertEqual(EntryCache(diary: diary).slots.map(\.hasDigest), [true, true, true])
        XCTAssertEqual(describe(load().0), describe(try freshParse()))
    }

    func testAMutationWithoutACacheLeavesItToTheNextRead() throws {
        let change = try Change(diary)
        try change.write("---\ndate: 2026-11-02T09:00:00+01:00\ntitle: b\n---\nnew\n", to: "\(dir)/2026-11-02-0900-b.md")
        try change.commit("test")
        XCTAssertNil(cacheStamp())
        XCTAssertEqual(load().0.map(\.title), ["b"])
    }

    func testAMutationUnderOtherSettingsLeavesTheCache() throws {
        try settledDiary()
        let before = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        try "mood: {min: 1, max: 10}\n".write(to: diary.configFile, atomically: true, encoding: .utf8)
        diary = try open()
        let change = try Change(diary)
        try change.write("---\ndate: 2026-11-02T09:00:00+01:00\nmood: 7\n---\nnew\n", to: "\(dir)/2026-11-02-0900-b.md")
        try change.commit("test")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cacheFile)), before)
        XCTAssertEqual(load().0.map(\.mood), [nil, 7, nil])
    }

    func testADigestConfirmedOnceTheWindowPassedIsDropped() throws {
        try settledDiary()
        FileStamp.racyWindow = 2_000_000_000
        let change = try Change(diary)
        try change.write("---\ndate: 2026-11-02T09:00:00+01:00\ntitle: b\n---\nnew\n", to: "\(dir)/2026-11-02-0900-b.md")
        try change.commit("test")
        XCTAssertEqual(EntryCache(diary: diary).slots.map(\.hasDigest), [false, true, false])
        FileStamp.racyWindow = 0 // the window has passed
        let next = try Change(diary)
        try next.write("---\ndate: 2026-11-04T09:00:00+01:00\ntitle: d\n---\nd\n", to: "\(dir)/2026-11-04-0900-d.md")
        try next.commit("test")
        let cache = EntryCache(diary: diary)
        XCTAssertEqual(cache.slots.map(\.hasDigest), [false, false, false, false])
        XCTAssertEqual(describe(load().0), describe(try freshParse()))
    }

    func testAReadWritesSettledDigestsAwayOnlyWhenThereAreMany() throws {
        FileStamp.racyWindow = 2_000_000_000
        for i in 0..<(EntryCache.settleLimit + 1) {
            try write("2026-11-01-0900-e\(i).md", "---\ndate: 2026-11-01T09:00:00+01:00\n---\ne\n")
        }
        _ = load()
        XCTAssertTrue(EntryCache(diary: diary).slots.allSatisfy(\.hasDigest))
        FileStamp.racyWindow = 0
        XCTAssertEqual(load().0.count, EntryCache.settleLimit + 1)
        XCTAssertTrue(EntryCache(diary: diary).slots.allSatisfy { !$0.hasDigest })
    }

    func testTheWalkOrderOfPaths() {
        let paths = ["entries/2026/1/b.md", "entries/2026/11/a.md", "entries/2026/1/a.md", "entries/2026/1/a.mdx", "entries/2025/12/z.md"]
        let sorted = paths.sorted { EntryCache.walkOrder($0.utf8, $1.utf8) < 0 }
        XCTAssertEqual(sorted, ["entries/2025/12/z.md", "entries/2026/1/a.md", "entries/2026/1/a.mdx", "entries/2026/1/b.md", "entries/2026/11/a.md"])
        XCTAssertEqual(EntryCache.walkOrder("entries/2026/11/a.md".utf8, "entries/2026/11/a.md".utf8), 0)
    }

    func describe(_ entries: [Entry]) -> [String] { entries.map { String(describing: $0) } }

    /// The entries parsed from their files, without the cache.
    func freshParse() throws -> [Entry] {
        try FileManager.default.removeItem(atPath: cacheFile)
        return load().0
    }

    /// `code ls` leaves out entries without codings by the count at the head of their record's
    /// codings, without decoding them: the count must be what decoding gives, from the cache and
    /// from a fresh parse, and `--last` still counts every entry the filters pass.
    func testCodingCountsReadWithoutDecodingAreWhatDecodingGives() throws {
        try write("2026-11-01-0900-a.md", "---\ndate: 2026-11-01T09:00:00+01:00\ntitle: A long title that is not a small string\ntags: [x]\ncodes:\n  - trust\n  - code: care\n    quote: \"words\"\n---\nSome words.\n")
        try write("2026-11-02-0900-b.md", "---\ndate: 2026-11-02T09:00:00+01:00\nplace: {name: Ward}\n---\nNo codes here.\n")
        try write("2026-11-03-0900-c.md", "---\ndate: 2026-11-03T09:00:00+01:00\ncodes: [relief]\n---\n")
        try write("2026-11-04-0900-d.md", "---\ndate: 2026-11-04T09:00:00+01:00\n---\nThe last, without codes.\n")
        try write("2026-11-05-0900-broken.md", "---\ndate: [\n---\n")
        for run in ["fresh", "cached"] {
            let s = diary.scanEntries()
            XCTAssertEqual(s.count, 4, run)
            XCTAssertEqual((0..<s.count).map(s.hasCodings), (0..<s.count).map { !s.entry($0).codings.isEmpty }, run)
            XCTAssertEqual((0..<s.count).map(s.hasCodings), [true, false, true, false], run)
            let all = try EntryFilter().compile(clock: diary.clock, mondayFirst: true)
            XCTAssertEqual(all.select(s, among: s.hasCodings).map(\.path), ["\(dir)/2026-11-01-0900-a.md", "\(dir)/2026-11-03-0900-c.md"], run)
            var last = EntryFilter()
            last.last = 1
            XCTAssertEqual(try last.compile(clock: diary.clock, mondayFirst: true).select(s, among: s.hasCodings).map(\.path),
                           ["\(dir)/2026-11-04-0900-d.md"], "\(run): --last counts the entries the filters pass")
        }
    }
}

/// The snapshot reads lazily from the cache: what it gives must not depend on how it was read.
final class EntrySnapshotTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0) }

    /// Writes `n` entries over several months, every fourth with codings, some with a stroke file.
    func writeEntries(_ n: Int, salt: Int = 0) throws {
        for i in 0..<n {
            let day = LocalDay(year: 2026, month: 1, day: 1)!.adding(days: i * 3 + salt)
            let dir = "entries/\(day.description.prefix(4))/\(day.description.dropFirst(5).prefix(2))"
            try FileManager.default.createDirectory(at: diary.url(dir), withIntermediateDirectories: true)
            var fm = "title: Entry \(i)\ndate: \(day)T0\(i % 10):30:00+01:00\ntags: [t\(i % 3), shared]\n"
            if i % 2 == 0 { fm += "mood: \(i % 5 + 1)\nenergy: \(i)\n" }
            if i % 4 == 0 { fm += "codes:\n  - trust\n  - code: care\n    quote: \"words \(i)\"\n    coder: ann\n" }
            let name = "\(day)-0\(i % 10)30-entry-\(i)"
            try "---\n\(fm)---\nSome words \(i) here #inline\(i % 2).\n".write(to: diary.url("\(dir)/\(name).md"), atomically: false, encoding: .utf8)
        }
    }

    func describe(_ entries: [Entry]) -> [String] { entries.map { String(describing: $0) } }

    func testPartsLeaveOutOnlyWhatWasNotAskedFor() throws {
        try writeEntries(40)
        let cold = diary.scanEntries()
        let full = describe(cold.entries(0..<cold.count))
        let warm = diary.scanEntries()
        XCTAssertEqual(describe(warm.entries(0..<warm.count)), full, "a warm read gives what a cold one gave")
        for k in 0..<warm.count {
            let all = warm.entry(k), tags = warm.entry(k, parts: .tags), none = warm.entry(k, parts: [])
            XCTAssertEqual(tags.tags, all.tags)
            XCTAssertEqual(tags.title, "")
            XCTAssertTrue(tags.codings.isEmpty)
            XCTAssertEqual([none.id, none.path, none.date.description], [all.id, all.path, all.date.description])
            XCTAssertEqual([none.mood, none.words, none.bodyStartLine], [all.mood, all.words, all.bodyStartLine])
            let codings = warm.entry(k, parts: .codings)
            XCTAssertEqual(codings.codings, all.codings)
            XCTAssertEqual(codings.anchors, all.anchors)
        }
        XCTAssertNotNil(warm.entries(0..<warm.count).first { !$0.codings.isEmpty }?.anchors)
    }

    func testSelectingByDateDecodesTheSameEntriesAsFiltering() throws {
        try writeEntries(30)
        let snapshot = diary.scanEntries()
        let all = snapshot.entries(0..<snapshot.count)
        var f = EntryFilter()
        f.from = "2026-02-01"; f.to = "2026-02-28"; f.last = 4
        let c = try f.compile(clock: diary.clock, mondayFirst: true)
        XCTAssertEqual(describe(c.select(snapshot)), describe(c.apply(all)))
        XCTAssertEqual(c.select(snapshot).count, 4)
        f.tags = ["t1"]; f.last = nil
        let t = try f.compile(clock: diary.clock, mondayFirst: true)
        XCTAssertEqual(t.select(snapshot, parts: []).map(\.id), t.apply(all).map(\.id), "a filter decodes the parts it needs")
        XCTAssertEqual(t.select(snapshot, parts: .all).map(\.id), t.apply(all).map(\.id))
        XCTAssertFalse(t.select(snapshot, parts: .all).isEmpty)
    }

    func testFilesAddedBetweenCachedOnesAreReadInOrder() throws {
        try writeEntries(20)
        _ = diary.scanEntries()
        // New files land between cached ones (days 1, 4, 7, … then 2, 5, 8, …), one is removed.
        try writeEntries(10, salt: 1)
        let first = try FileManager.default.contentsOfDirectory(atPath: diary.url("entries/2026/01").path).sorted()[0]
        try FileManager.default.removeItem(at: diary.url("entries/2026/01/\(first)"))
        let warm = diary.scanEntries()
        try FileManager.default.removeItem(at: diary.stateFolder.appendingPathComponent("cache"))
        let cold = diary.scanEntries()
        XCTAssertEqual(warm.count, 29)
        XCTAssertEqual(describe(warm.entries(0..<warm.count)), describe(cold.entries(0..<cold.count)))
        XCTAssertEqual(warm.entries(0..<warm.count).map(\.date), warm.entries(0..<warm.count).map(\.date).sorted())
    }

    func testAnySingleDamagedByteMeansARebuildNeverAWrongEntry() throws {
        try writeEntries(6)
        let truth = describe(diary.scanEntries().entries(0..<6))
        let file = diary.stateFolder.appendingPathComponent("cache/entries.bin")
        let good = try Data(contentsOf: file)
        for i in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            var bad = good
            bad[i] ^= 0x20
            try bad.write(to: file)
            let s = diary.scanEntries()
            XCTAssertEqual(describe(s.entries(0..<s.count)), truth, "byte \(i) flipped")
        }
    }
}
