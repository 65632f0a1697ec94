// The word index never makes grep miss or invent a match: stale, replaced, deleted, new and damaged
// files, killed builds, and random patterns on a random diary against a line-by-line search.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class WordIndexTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0, folders: ["entries/2026/11"]) }

    let dir = "entries/2026/11"
    var policy: WordIndexPolicy {
        var p = WordIndexPolicy()
        p.minimumEntries = 0
        p.everyFile = false // the index's choice, even of a word in every file (GrepEveryFileTests)
        return p
    }

    var indexFile: URL { WordIndex.file(of: diary) }

    func write(_ name: String, _ body: String, title: String = "Note", day: Int = 1) throws {
        let text = "---\ntitle: \(title)\ndate: 2026-11-\(String(format: "%02d", day))T09:00:00+01:00\n---\n\(body)"
        try text.write(to: diary.url("\(dir)/\(name)"), atomically: false, encoding: .utf8)
    }

    func setMtime(_ name: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, diary.url("\(dir)/\(name)").path, &times, 0), 0)
    }

    /// The paths with a match (or `path:line:col:text` lines), searched with the index.
    func grep(_ pattern: String, configure: (inout GrepOptions) -> Void = { _ in }, index: Bool = true) throws -> [String] {
        var options = GrepOptions()
        configure(&options)
        var out: [String] = []
        var policy = self.policy
        policy.enabled = index
        try Grep(pattern, options: options).search(diary, filter: try EntryFilter().compile(clock: diary.clock, mondayFirst: true),
                                                   index: policy, problem: { _ in }) { result in
            out.append(result.path)
        }
        return out.map { ($0 as NSString).lastPathComponent }
    }

    /// Ten entries with the words `w0`…`w9`, one each, and a common word; the index built.
    func seedTen() throws {
        for k in 0..<10 { try write("2026-11-\(String(format: "%02d", k + 1))-0900-n\(k).md", "common text w\(k)\n", day: k + 1) }
        XCTAssertEqual(try grep("common").count, 10)
        XCTAssertNotNil(WordIndex.open(indexFile))
    }

    /// The count grep chooses by reads only the word list and postings: it gives what the whole
    /// index gives, answers when only the list of files is damaged (which `open` refuses), and
    /// gives nothing for a word list that does not hold together or a file cut short.
    func testNarrowingCountsAsTheWholeIndexDoes() throws {
        try seedTen()
        let whole = try XCTUnwrap(WordIndex.open(indexFile))
        for runs in [["common"], ["w3"], ["w3", "common"], ["text", "w"], ["absent"], ["w1", "w2"]] {
            let expected = try XCTUnwrap(WordIndexLookup.docs(whole, runs: runs)).count
            let got = try XCTUnwrap(WordIndex.narrowing(indexFile, runs: runs), "\(runs)")
            XCTAssertEqual(got.matching, expected, "\(runs)")
            XCTAssertEqual(got.of, 10)
        }
        XCTAssertEqual(WordIndex.narrowing(indexFile, runs: ["w3"])?.matching, 1)
        var bytes = [UInt8](try Data(contentsOf: indexFile))
        let header = bytes
        func field(_ k: Int) -> Int { header.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self)) } }
        let docsEnd = WordIndex.headerSize + field(5)
        // A path's byte changed: the whole index is refused, the count still reads.
        bytes[docsEnd - 2] ^= 0x20
        try Data(bytes).write(to: indexFile)
        XCTAssertNil(WordIndex.open(indexFile))
        XCTAssertEqual(WordIndex.narrowing(indexFile, runs: ["common"])?.matching, 10)
        // A word record's offset changed: the word list does not hold together.
        bytes = header
        bytes[docsEnd] ^= 0x01
        try Data(bytes).write(to: indexFile)
        XCTAssertNil(WordIndex.narrowing(indexFile, runs: ["common"]))
        // Cut short, or gone.
        try Data(header.prefix(header.count - 3)).write(to: indexFile)
        XCTAssertNil(WordIndex.narrowing(indexFile, runs: ["common"]))
        try FileManager.default.removeItem(at: indexFile)
        XCTAssertNil(WordIndex.narrowing(indexFile, runs: ["common"]))
    }

    func testTheIndexChoosesOnlyTheFilesWithTheWords() throws {
        try seedTen()
        let lookup = WordIndexLookup(diary)
        XCTAssertFalse(lookup.needsBuild)
        XCTAssertTrue(lookup.indexed.allSatisfy { $0 >= 0 }, "every file is indexed as it is")
        XCTAssertEqual(lookup.candidates(runs: ["w7"])?.filter { $0 }.count, 1)
        XCTAssertEqual(lookup.candidates(runs: ["w"])?.filter { $0 }.count, 10, "a run is found inside longer words")
        XCTAssertEqual(lookup.candidates(runs: ["common", "w3"])?.filter { $0 }.count, 1, "runs intersect")
        XCTAssertEqual(lookup.candidates(runs: ["nowhere"])?.filter { $0 }.count, 0)
        XCTAssertEqual(lookup.candidates(runs: ["note"])?.filter { $0 }.count, 10, "the front matter is indexed too")
        XCTAssertEqual(try grep("w7"), ["2026-11-08-0900-n7.md"])
        XCTAssertEqual(try grep("W7", configure: { $0.ignoreCase = true }), ["2026-11-08-0900-n7.md"])
    }

    func testAnEditThatKeepsSizeAndModificationTimeIsSeen() throws {
        let name = "2026-11-01-0900-n0.md"
        try seedTen()
        setMtime(name, seconds: 1_700_000_000)
        try FileManager.default.removeItem(at: indexFile)
        XCTAssertEqual(try grep("w0"), [name])
        XCTAssertTrue(WordIndexLookup(diary).indexed.allSatisfy { $0 >= 0 }, "the index holds the file as it is")
        usleep(20_000) // a later change time than the first write, whatever the clock's tick
        let before = try XCTUnwrap(FileStamp.of(diary.url("\(dir)/\(name)").path))
        try write(name, "common text z0\n", day: 1)
        setMtime(name, seconds: 1_700_000_000)
        let after = try XCTUnwrap(FileStamp.of(diary.url("\(dir)/\(name)").path))
        XCTAssertEqual(before.size, after.size)
        XCTAssertEqual(before.mtime, after.mtime)
        XCTAssertEqual(before.inode, after.inode)
        XCTAssertNotEqual(before.ctime, after.ctime, "only the change time tells")
        XCTAssertEqual(try grep("z0"), [name])
        XCTAssertEqual(try grep("w0"), [])
    }

    func testAFileChangedJustBeforeTheBuildIsNeverTrusted() throws {
        FileStamp.racyWindow = 2_000_000_000
        try seedTen()
        let lookup = WordIndexLookup(diary)
        XCTAssertTrue(lookup.indexed.allSatisfy { $0 < 0 }, "written within 2 s of the build: a change in the same tick would keep the stamp")
        XCTAssertEqual(lookup.candidates(runs: ["w7"])?.filter { $0 }.count, 10)
        XCTAssertFalse(lookup.needsBuild, "not yet settled: a rebuild now would not help")
        XCTAssertEqual(try grep("w7"), ["2026-11-08-0900-n7.md"])
    }

    func testAFileReplacedBehindOurBackIsSeen() throws {
        let name = "2026-11-04-0900-n3.md"
        try seedTen()
        let other = tmp.appendingPathComponent("other.md")
        try "---\ntitle: Note\ndate: 2026-11-04T09:00:00+01:00\n---\ncommon text q3\n".write(to: other, atomically: false, encoding: .utf8)
        let old = try XCTUnwrap(FileStamp.of(diary.url("\(dir)/\(name)").path))
        var times = [timespec(tv_sec: old.mtime / 1_000_000_000, tv_nsec: old.mtime % 1_000_000_000)]
        times.append(times[0])
        XCTAssertEqual(utimensat(AT_FDCWD, other.path, &times, 0), 0)
        XCTAssertEqual(rename(other.path, diary.url("\(dir)/\(name)").path), 0)
        XCTAssertEqual(try grep("q3"), [name])
        XCTAssertEqual(try grep("w3"), [])
    }

    func testDeletedAndNewFiles() throws {
        try seedTen()
        let stampBefore = try XCTUnwrap(FileStamp.of(indexFile.path))
        try FileManager.default.removeItem(at: diary.url("\(dir)/2026-11-05-0900-n4.md"))
        try write("2026-11-05-0800-new.md", "common text w4 again\n", day: 5)
        try write("2026-11-30-0900-last.md", "common text w9\n", day: 30)
        XCTAssertEqual(try grep("w4"), ["2026-11-05-0800-new.md"])
        XCTAssertEqual(try grep("w9"), ["2026-11-10-0900-n9.md", "2026-11-30-0900-last.md"])
        XCTAssertEqual(try grep("common").count, 11)
        let lookup = WordIndexLookup(diary)
        XCTAssertEqual(lookup.stale, 3, "one gone, two new")
        XCTAssertEqual(FileStamp.of(indexFile.path), stampBefore, "a few changes do not rebuild the index")
    }

    func testManyChangesRebuildTheIndex() throws {
        try seedTen()
        let lookup = WordIndexLookup(diary)
        XCTAssertFalse(lookup.needsBuild)
        for k in 0..<501 { try write("2026-11-20-\(String(format: "%04d", k))-more.md", "more\n", day: 20) }
        let stale = WordIndexLookup(diary)
        XCTAssertEqual(stale.stale, 501)
        XCTAssertTrue(stale.needsBuild)
        XCTAssertEqual(try grep("more").count, 501)
        XCTAssertEqual(WordIndex.open(indexFile)?.docCount, 511)
        XCTAssertFalse(WordIndexLookup(diary).needsBuild)
    }

    func testADamagedIndexIsNoIndex() throws {
        try seedTen()
        let good = try Data(contentsOf: indexFile)
        // Cut short.
        try good.prefix(good.count / 2).write(to: indexFile)
        XCTAssertNil(WordIndex.open(indexFile))
        XCTAssertEqual(try grep("w5"), ["2026-11-06-0900-n5.md"])
        XCTAssertNotNil(WordIndex.open(indexFile), "rebuilt")
        // Every single byte garbled in turn: the index is refused, or the postings read say so,
        // or what is read is still right.
        for offset in stride(from: 0, to: good.count, by: 7) {
            var bad = [UInt8](good)
            bad[offset] ^= 0x5A
            try Data(bad).write(to: indexFile)
            guard let index = WordIndex.open(indexFile) else { continue }
            for k in 0..<10 {
                if let docs = index.docs(containing: Array("w\(k)".utf8)) {
                    XCTAssertEqual((0..<index.docCount).filter { docs.contains($0) }, [k], "byte \(offset)")
                }
            }
        }
        try Data([UInt8](repeating: 0, count: 300)).write(to: indexFile)
        XCTAssertEqual(try grep("w2"), ["2026-11-03-0900-n2.md"])
    }

    func testAKilledBuildLeavesNothingThatMatters() throws {
        try seedTen()
        let folder = indexFile.deletingLastPathComponent()
        // A build killed mid-write leaves its temporary file and the old index (or none).
        let dead = folder.appendingPathComponent(".words.bin.2147483600" + AtomicFile.temporarySuffix)
        try Data("half an index".utf8).write(to: dead)
        try FileManager.default.removeItem(at: indexFile)
        XCTAssertEqual(try grep("w1"), ["2026-11-02-0900-n1.md"])
        XCTAssertNotNil(WordIndex.open(indexFile))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead.path), "the next build sweeps it")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertFalse(names.contains { $0.hasSuffix(AtomicFile.temporarySuffix) }, "\(names)")
    }

    func testSmallListsAndDisabledIndexReadEveryFile() throws {
        for k in 0..<5 { try write("2026-11-0\(k + 1)-0900-s\(k).md", "text w\(k)\n", day: k + 1) }
        var p = WordIndexPolicy()
        XCTAssertEqual(p.minimumEntries, 200)
        p = WordIndexPolicy(environment: ["DAYBOOK_NO_INDEX": "1", "DAYBOOK_INDEX_MIN": "3"])
        XCTAssertFalse(p.enabled)
        XCTAssertEqual(p.minimumEntries, 3)
        XCTAssertTrue(WordIndexPolicy(environment: ["DAYBOOK_NO_INDEX": "0"]).enabled)
        var found: [String] = []
        try Grep("w3", options: GrepOptions()).search(diary, filter: try EntryFilter().compile(clock: diary.clock, mondayFirst: true),
                                                     problem: { _ in }) { found.append($0.path) }
        XCTAssertEqual(found.count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: indexFile.path), "a small diary gets no index")
        XCTAssertEqual(try grep("w3", index: false).count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: indexFile.path))
    }
}
