// The recorded names of the month folders (issue 19): an id-prefix lookup through them gives
// exactly what listing every folder gives, on generated diaries changed between lookups, and a
// folder whose stamp moved, or that changed within the racy window, is listed again.
import XCTest
@testable import DaybookCore

final class EntryNamesTests: DiaryTestCase {
    /// The deterministic generator of the word index's property test, so a failure can be replayed.
    typealias Random = WordIndexPropertyTests.Random

    let fm = FileManager.default

    /// What listing every month folder gives (the lookup before the recorded names).
    func listed(_ prefix: String) -> [String] {
        var out: [String] = []
        diary.forEachEntryFolder { dir, folder, names in
            for name in names where name.hasSuffix(".md") && name.hasPrefix(prefix) && name.dropLast(3).hasPrefix(prefix) {
                let rel = dir + "/" + name
                if Diary.isEntryPath(rel), folder.stamp(name) != nil { out.append(rel) }
            }
        }
        return out.sorted()
    }

    var namesFile: URL { EntryNames.file(of: diary) }

    func write(_ rel: String) throws {
        let url = tmp.appendingPathComponent(rel)
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "---\ndate: 2026-01-01T09:00:00+01:00\n---\nx\n".write(to: url, atomically: false, encoding: .utf8)
    }

    /// Every file and folder of the month folders, relative to the diary.
    func files() -> [String] {
        diary.monthFolders().flatMap { dir in
            ((try? fm.contentsOfDirectory(atPath: tmp.appendingPathComponent(dir).path)) ?? []).map { dir + "/" + $0 }
        }.sorted()
    }

    func testSameAsListingEveryFolderOverChangingDiaries() throws {
        // Folders changed less than 30 ms before a lookup are listed; the others are recorded and
        // trusted while their stamp holds. Rounds sleep past the window, so most lookups use records.
        FileStamp.racyWindow = 30_000_000
        var r = Random(state: 0x5EED_1915)
        let folders = ["entries/2025/12", "entries/2026/01", "entries/2026/02", "entries/2026/11", "entries/2024/07", "entries/2026/extra"]
        let slugs = ["a", "ab", "abc", "café", "cafe\u{301}", "\u{212A}elvin", "kelvin", "x.conflict-1f2e", "night-shift", "b"]
        var made = 0
        func newName() -> String {
            made += 1
            let name = String(format: "2026-%02d-%02d-%04d-", 1 + r.int(12), 1 + r.int(28), made % 10000) + r.pick(slugs)
            return r.chance(0.05) ? "." + name + ".md" : r.chance(0.05) ? name + ".strokes.json" : name + ".md"
        }
        for _ in 0..<20 { try write(r.pick(folders) + "/" + newName()) }
        var checked = 0, trustedRounds = 0
        for round in 0..<40 {
            for _ in 0..<(1 + r.int(4)) {
                let all = files()
                switch r.int(9) {
                case 0, 1: try write(r.pick(folders) + "/" + newName())
                case 2 where !all.isEmpty: try fm.removeItem(at: tmp.appendingPathComponent(r.pick(all)))
                case 3 where !all.isEmpty: // renamed in its folder
                    let from = r.pick(all)
                    let to = (from as NSString).deletingLastPathComponent + "/" + newName()
                    try fm.moveItem(at: tmp.appendingPathComponent(from), to: tmp.appendingPathComponent(to))
                case 4 where !all.isEmpty: // moved to another month folder, keeping its name
                    let from = r.pick(all)
                    let dir = r.pick(folders)
                    let to = dir + "/" + (from as NSString).lastPathComponent
                    guard !fm.fileExists(atPath: tmp.appendingPathComponent(to).path) else { break }
                    try fm.createDirectory(at: tmp.appendingPathComponent(dir), withIntermediateDirectories: true)
                    try fm.moveItem(at: tmp.appendingPathComponent(from), to: tmp.appendingPathComponent(to))
                case 5: // a symbolic link and a folder with an entry's name: never entries
                    let dir = r.pick(folders)
                    try fm.createDirectory(at: tmp.appendingPathComponent(dir), withIntermediateDirectories: true)
                    if r.chance(0.5) {
                        try fm.createSymbolicLink(atPath: tmp.appendingPathComponent(dir + "/" + newName()).path, withDestinationPath: "/etc/hostname")
                    } else {
                        try fm.createDirectory(at: tmp.appendingPathComponent(dir + "/" + newName()), withIntermediateDirectories: true)
                    }
                case 6: // a month folder goes with everything in it
                    try? fm.removeItem(at: tmp.appendingPathComponent(r.pick(folders)))
                case 7 where !all.isEmpty: // a file replaced by another of the same name (an atomic save)
                    let at = tmp.appendingPathComponent(r.pick(all))
                    if (try? at.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                        try "---\ndate: 2026-02-02T09:00:00+01:00\n---\ny\n".write(to: at, atomically: true, encoding: .utf8)
                    }
                default: break
                }
            }
            if round % 3 != 0 {
                usleep(45_000) // past the racy window: the next lookup records the folders it lists
                trustedRounds += 1
            }
            let names = files().map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
            var prefixes = ["", "2026", "2026-0", "caf", "café", "cafe\u{301}", "2026-11", "K", "k", "x", "2026-01-01-0001-a"]
            for _ in 0..<8 where !names.isEmpty {
                let n = r.pick(names)
                prefixes.append(String(n.prefix(1 + r.int(n.count))))
            }
            for p in prefixes {
                XCTAssertEqual(EntryReference(diary).files(idPrefix: p), listed(p), "round \(round), prefix \(p)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(trustedRounds, 20)
        XCTAssertGreaterThan(checked, 500)
        XCTAssertTrue(fm.fileExists(atPath: namesFile.path), "the lookups recorded the folders")
    }

    /// Changes one recorded name in the file (same length, checksum made good): what a lookup then
    /// answers tells whether it trusted the record or listed the folder.
    func tamper(_ from: String, _ to: String) throws {
        var bytes = [UInt8](try Data(contentsOf: namesFile))
        let old = Array(from.utf8), new = Array(to.utf8)
        XCTAssertEqual(old.count, new.count)
        guard let at = (0...(bytes.count - old.count)).first(where: { bytes[$0..<($0 + old.count)].elementsEqual(old) }) else {
            return XCTFail("\(from) is not recorded")
        }
        bytes.replaceSubrange(at..<(at + old.count), with: new)
        bytes.removeLast(8)
        var w = BinaryWriter()
        w.fixed64(bytes.withUnsafeBufferPointer { EntryCache.checksum($0) })
        try Data(bytes + w.bytes).write(to: namesFile)
    }

    func testTrustsAFolderOnlyWhileItsStampHolds() throws {
        FileStamp.racyWindow = 30_000_000
        try write("entries/2026/11/2026-11-03-0800-first.md")
        try write("entries/2026/10/2026-10-03-0800-other.md")
        usleep(45_000)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03"), ["entries/2026/11/2026-11-03-0800-first.md"])
        // The record is what a lookup reads while the folder's stamp is the recorded one: a name
        // changed in the file alone (the folder untouched) is what the lookup sees.
        try tamper("2026-11-03-0800-first", "2026-11-03-0800-fxrst")
        try "x".write(to: tmp.appendingPathComponent("entries/2026/11/2026-11-03-0800-fxrst.md"), atomically: false, encoding: .utf8)
        try fm.removeItem(at: tmp.appendingPathComponent("entries/2026/11/2026-11-03-0800-fxrst.md"))
        // Created and removed: the folder's stamp moved, so it is listed again and the truth shows.
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03"), ["entries/2026/11/2026-11-03-0800-first.md"])
        usleep(45_000)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03"), ["entries/2026/11/2026-11-03-0800-first.md"])
        try tamper("2026-11-03-0800-first", "2026-11-03-0800-fxrst")
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03"), [], "a record whose stamp holds is trusted")
        // The modification time set back to the recorded one does not hide a change: the change
        // time moves all the same.
        let dir = tmp.appendingPathComponent("entries/2026/11").path
        var before = stat()
        XCTAssertEqual(stat(dir, &before), 0)
        try fm.moveItem(atPath: dir + "/2026-11-03-0800-first.md", toPath: dir + "/2026-11-03-0900-moved.md")
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, dir, &times, 0), 0)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03"), ["entries/2026/11/2026-11-03-0900-moved.md"])
    }

    func testAFolderChangedWithinTheRacyWindowIsNotRecorded() throws {
        // A folder changed less than the window before a lookup is listed and not recorded, so a
        // change in the same clock tick after the listing could not hide behind its stamp.
        FileStamp.racyWindow = 1_000_000_000
        try write("entries/2026/11/2026-11-03-0800-first.md")
        usleep(1_100_000)
        try write("entries/2026/10/2026-10-03-0800-other.md")
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-1"), ["entries/2026/10/2026-10-03-0800-other.md",
                                                                       "entries/2026/11/2026-11-03-0800-first.md"])
        let recorded = String(decoding: try Data(contentsOf: namesFile), as: UTF8.self)
        XCTAssertTrue(recorded.contains("2026-11-03-0800-first"), "a folder past the window is recorded")
        XCTAssertFalse(recorded.contains("2026-10-03-0800-other"), "a racy folder is not recorded")
        // Nothing new to record (the one folder listed is racy): the file is not written again.
        let before = FileStamp.of(namesFile.path)
        try write("entries/2026/09/2026-09-03-0800-third.md")
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-09"), ["entries/2026/09/2026-09-03-0800-third.md"])
        XCTAssertEqual(FileStamp.of(namesFile.path), before)
    }

    func testADamagedFileIsIgnored() throws {
        FileStamp.racyWindow = 0
        try write("entries/2026/11/2026-11-03-0800-first.md")
        usleep(20_000)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03-08"), ["entries/2026/11/2026-11-03-0800-first.md"])
        var bytes = [UInt8](try Data(contentsOf: namesFile))
        bytes[bytes.count / 2] ^= 0x20
        try Data(bytes).write(to: namesFile)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03-08"), ["entries/2026/11/2026-11-03-0800-first.md"])
        try Data(bytes.prefix(10)).write(to: namesFile)
        XCTAssertEqual(EntryReference(diary).files(idPrefix: "2026-11-03-08"), ["entries/2026/11/2026-11-03-0800-first.md"])
    }

    /// An entry file is `<name>.md`, not hidden and not a conflict copy, asked of a String and of
    /// the bytes the walk reads.
    func testWhichNamesAreEntryFiles() {
        let names: [(String, Bool)] = [
            ("2026-11-21-1200-a.md", true), ("2026-11-21-1200-a.conflict-1a2b3c.md", false), (".2026-11-21-1200-a.md", false),
            ("a.conflict-.md", false), (".conflict-.md", false), ("a.conflict.md", true), ("a.conflicts-.md", true),
            ("a.md.conflict-x", false), ("a.txt", false), (".md", false), ("a.md", true), ("a..conflict-b.md", false),
        ]
        for (name, expected) in names {
            XCTAssertEqual(Diary.isEntryFileName(name), expected, name)
            XCTAssertEqual(Array(name.utf8).withUnsafeBufferPointer { Diary.isEntryFileName($0) }, expected, name)
        }
    }
}
