// The tallies kept per month folder give what a pass over every entry gives, and are not used
// for a folder whose files changed.
import XCTest
@testable import DaybookCore

final class FolderTalliesTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A template whose moods are on 1–10 while the diary's are on 1–5: averages map them.
        try FileManager.default.createDirectory(at: diary.templatesFolder, withIntermediateDirectories: true)
        try "---\ntemplate: ten\nfields:\n  mood: {type: scale, min: 1, max: 10}\n---\n".write(
            to: diary.templatesFolder.appendingPathComponent("ten.md"), atomically: true, encoding: .utf8)
        diary = try open()
    }

    var tallyFile: URL { FolderTallies.file(diary) }

    /// An entry of `day` (2026-MM-DD) at `hour`, in its month's folder.
    func write(_ day: String, hour: Int, tags: [String], mood: Int?, template: String?, codes: [String], words: String, slug: String) throws {
        let folder = "entries/" + day.prefix(7).replacingOccurrences(of: "-", with: "/")
        try FileManager.default.createDirectory(at: diary.url(folder), withIntermediateDirectories: true)
        var text = "---\ndate: \(day)T\(String(format: "%02d", hour)):00:00+01:00\n"
        if !tags.isEmpty { text += "tags: [\(tags.joined(separator: ", "))]\n" }
        if let mood { text += "mood: \(mood)\n" }
        if let template { text += "template: \(template)\n" }
        if !codes.isEmpty { text += "codes: [\(codes.joined(separator: ", "))]\n" }
        text += "---\n\(words)\n"
        try text.write(to: diary.url("\(folder)/\(day)-\(String(format: "%02d", hour))00-\(slug).md"), atomically: false, encoding: .utf8)
    }

    /// The tally from a pass over every entry, the general path the stored tallies must equal.
    func everyEntry(_ snapshot: EntrySnapshot) -> Statistics.Tally {
        Statistics(diary: diary).tally(snapshot.entries(0..<snapshot.count, parts: Statistics.summaryParts))
    }

    func testStoredTalliesGiveTheTallyOfEveryEntry() throws {
        var rng = SystemRandomNumberGenerator()
        let tags = ["work", "home", "ward", "a/b", "Ärger"], codes = ["trust", "care", "relief"]
        for round in 0..<6 {
            // Entries in a few months, some of them dated outside their folder's month.
            for n in 0..<Int.random(in: 5...25, using: &rng) {
                let month = Int.random(in: 8...11, using: &rng), day = Int.random(in: 1...28, using: &rng)
                let ten = Int.random(in: 0..<3, using: &rng) == 0
                try write(String(format: "2026-%02d-%02d", month, day), hour: Int.random(in: 0...23, using: &rng),
                          tags: Array(tags.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng))),
                          mood: Bool.random(using: &rng) ? Int.random(in: 1...(ten ? 10 : 5), using: &rng) : nil,
                          template: ten ? "ten" : nil,
                          codes: Array(codes.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))),
                          words: String(repeating: "word #inline ", count: Int.random(in: 0...5, using: &rng)), slug: "r\(round)n\(n)")
            }
            let first = diary.scanEntries().tallyReporting()
            let snapshot = diary.scanEntries()
            let again = snapshot.tallyReporting()
            XCTAssertEqual(first.tally, everyEntry(snapshot), "round \(round)")
            XCTAssertEqual(again.tally, everyEntry(snapshot), "round \(round): from the stored tallies")
            XCTAssertEqual(again.report.tallied, 0, "round \(round): no folder changed")
            XCTAssertGreaterThan(again.report.stored, 0)
            // The summaries agree as well, under either week start.
            for mondayFirst in [true, false] {
                let stats = Statistics(today: diary.clock.today, mondayFirst: mondayFirst, moodScales: diary.moodScales)
                XCTAssertEqual(stats.summary(again.tally).json, stats.summary(snapshot.entries(0..<snapshot.count)).json)
            }
        }
    }

    func testAFolderWhoseFilesChangedIsTalliedAgain() throws {
        try write("2026-10-05", hour: 9, tags: ["work"], mood: 2, template: nil, codes: ["trust"], words: "a", slug: "a")
        try write("2026-10-06", hour: 9, tags: ["home"], mood: 4, template: nil, codes: [], words: "b", slug: "b")
        try write("2026-11-02", hour: 9, tags: ["work"], mood: 5, template: nil, codes: [], words: "c", slug: "c")
        XCTAssertEqual(diary.scanEntries().tallyReporting().report, FolderTallies.Report(stored: 0, tallied: 2))
        XCTAssertEqual(diary.scanEntries().tallyReporting().report, FolderTallies.Report(stored: 2, tallied: 0))

        // An outside edit: a tag changed in October's entry.
        try write("2026-10-05", hour: 9, tags: ["ward"], mood: 2, template: nil, codes: ["trust"], words: "a", slug: "a")
        var snapshot = diary.scanEntries()
        var run = snapshot.tallyReporting()
        XCTAssertEqual(run.report, FolderTallies.Report(stored: 1, tallied: 1))
        XCTAssertEqual(run.tally.tags, ["ward": 1, "home": 1, "work": 1])
        XCTAssertEqual(run.tally, everyEntry(snapshot))

        // A file removed, and one added in a new folder.
        try FileManager.default.removeItem(at: diary.url("entries/2026/10/2026-10-06-0900-b.md"))
        try write("2026-09-30", hour: 22, tags: ["home"], mood: nil, template: nil, codes: [], words: "d", slug: "d")
        snapshot = diary.scanEntries()
        run = snapshot.tallyReporting()
        XCTAssertEqual(run.report, FolderTallies.Report(stored: 1, tallied: 2))
        XCTAssertEqual(run.tally.tags, ["ward": 1, "home": 1, "work": 1])
        XCTAssertEqual(run.tally.entries, 3)
        XCTAssertEqual(run.tally, everyEntry(snapshot))

        // A folder emptied of entries is dropped from the file.
        try FileManager.default.removeItem(at: diary.url("entries/2026/09/2026-09-30-2200-d.md"))
        snapshot = diary.scanEntries()
        XCTAssertEqual(snapshot.tallyReporting().report, FolderTallies.Report(stored: 2, tallied: 0))
        let bytes = try [UInt8](Data(contentsOf: tallyFile))
        let stored = bytes.withUnsafeBufferPointer { FolderTallies.load($0, fingerprint: EntryCache.fingerprint(diary)) }
        XCTAssertEqual(Set(stored.keys), ["entries/2026/10/", "entries/2026/11/"])
    }

    func testAnEntryThatCannotBeReadCountsWhenItIsFixed() throws {
        try write("2026-11-02", hour: 9, tags: ["work"], mood: 5, template: nil, codes: [], words: "c", slug: "c")
        let broken = diary.url("entries/2026/11/2026-11-03-0900-broken.md")
        try "---\ndate: [not a date\n---\n".write(to: broken, atomically: false, encoding: .utf8)
        var snapshot = diary.scanEntries()
        XCTAssertEqual(snapshot.tallyReporting().tally.entries, 1)
        try "---\ndate: 2026-11-03T09:00:00+01:00\ntags: [home]\n---\nfixed\n".write(to: broken, atomically: false, encoding: .utf8)
        snapshot = diary.scanEntries()
        let run = snapshot.tallyReporting()
        XCTAssertEqual(run.report.tallied, 1)
        XCTAssertEqual(run.tally.tags, ["work": 1, "home": 1])
    }

    func testADamagedFileOrOtherSettingsAreIgnored() throws {
        try write("2026-10-05", hour: 9, tags: ["work"], mood: 2, template: nil, codes: [], words: "a", slug: "a")
        try write("2026-11-02", hour: 9, tags: ["home"], mood: 5, template: nil, codes: [], words: "c", slug: "c")
        let expected = diary.scanEntries().tallyReporting().tally

        // Every byte of the file changed in turn: the tally is never wrong.
        let good = try Data(contentsOf: tallyFile)
        for at in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            var bad = good
            bad[at] ^= 0x5A
            try bad.write(to: tallyFile)
            let run = diary.scanEntries().tallyReporting()
            XCTAssertEqual(run.tally, expected, "byte \(at)")
            XCTAssertEqual(run.report.tallied, 2, "byte \(at): the damaged file is not used")
        }

        // Other settings: any edit of daybook.yml makes the entry cache's fingerprint, and so
        // this file's, another.
        XCTAssertEqual(diary.scanEntries().tallyReporting().report.tallied, 0)
        let config = diary.configFile
        try (String(contentsOf: config, encoding: .utf8) + "\n# edited\n").write(to: config, atomically: true, encoding: .utf8)
        diary = try open()
        let run = diary.scanEntries().tallyReporting()
        XCTAssertEqual(run.report.tallied, 2)
        XCTAssertEqual(run.tally, expected)
    }
}
