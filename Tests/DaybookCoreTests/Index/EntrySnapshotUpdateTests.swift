// A kept snapshot updated file by file gives what a fresh walk gives, through every kind of change.
import XCTest
@testable import DaybookCore

final class EntrySnapshotUpdateTests: DiaryTestCase {

    override func setUpWithError() throws {
        try super.setUpWithError()
        for m in ["10", "11"] { try FileManager.default.createDirectory(at: diary.url("entries/2026/\(m)"), withIntermediateDirectories: true) }
    }

    func path(_ day: Int, _ hour: Int, month: String = "11") -> String {
        String(format: "entries/2026/%@/2026-%@-%02d-%02d00-note-%d.md", month, month, day, hour, day * 100 + hour)
    }

    func write(_ rel: String, title: String, date: String) throws {
        try "---\ntitle: \(title)\ndate: \(date)\ntags: [t\(title.count % 3)]\n---\nWords of \(title).\n"
            .write(to: diary.url(rel), atomically: true, encoding: .utf8)
    }

    /// What a command would list: every entry's path, date, title and tags in order, and the problems.
    func listing(_ s: EntrySnapshot) -> [String] {
        s.entries(0..<s.count).map { "\($0.path) \($0.date) \($0.title) \($0.tags) ink:\($0.hasInk)" }
            + s.diagnostics.map { "\($0)" }.sorted()
    }

    func testUpdatesGiveWhatAWalkGives() throws {
        var rng = SystemRandomNumberGenerator()
        var present: [String] = []
        for day in 1...20 {
            let rel = path(day, 9)
            try write(rel, title: "Day \(day)", date: "2026-11-\(String(format: "%02d", day))T09:00:00+01:00")
            present.append(rel)
        }
        var kept = diary.scanEntries()
        for round in 0..<60 {
            var touched = Set<String>()
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let day = Int.random(in: 1...27, using: &rng), hour = Int.random(in: 8...10, using: &rng)
                let month = Bool.random(using: &rng) ? "11" : "10"
                let rel = path(day, hour, month: month)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where FileManager.default.fileExists(atPath: diary.url(rel).path):
                    try FileManager.default.removeItem(at: diary.url(rel))
                case 1:
                    // A date that moves the entry elsewhere in the order, or the same moment as another.
                    try write(rel, title: "Moved \(round)", date: "2026-\(month)-01T09:00:00+01:00")
                case 2:
                    try "---\ntitle: [broken\n---\nx\n".write(to: diary.url(rel), atomically: true, encoding: .utf8)
                case 3:
                    let ink = String(rel.dropLast(3)) + ".strokes.json"
                    try #"{"format":"daybook-strokes","version":1,"channels":["x","y"],"strokes":[]}"#
                        .write(to: diary.url(ink), atomically: true, encoding: .utf8)
                    touched.insert(ink)
                    continue
                default:
                    try write(rel, title: "Round \(round)", date: "2026-\(month)-\(String(format: "%02d", day))T\(String(format: "%02d", hour)):00:00+01:00")
                }
                touched.insert(rel)
            }
            touched.insert("entries/2026/11/.tmp-x") // what an atomic write leaves in passing: nothing
            guard let updated = kept.updating(touched) else { return XCTFail("round \(round): no update for \(touched)") }
            XCTAssertEqual(listing(updated), listing(diary.scanEntries()), "round \(round), after \(touched.sorted())")
            kept = updated
        }
    }

    func testAFileInAMonthFolderTheWalkDidNotHaveAsksForAWalk() throws {
        try write(path(1, 9), title: "One", date: "2026-11-01T09:00:00+01:00")
        let kept = diary.scanEntries()
        try FileManager.default.createDirectory(at: diary.url("entries/2019/03"), withIntermediateDirectories: true)
        let rel = "entries/2019/03/2019-03-01-0900-old.md"
        try write(rel, title: "Old", date: "2019-03-01T09:00:00+01:00")
        XCTAssertNil(kept.updating([rel]))
        XCTAssertTrue(kept.updating(["entries/2026/11/2026-11-01-0900-note-109/photo.jpg"]) === kept, "an attachment changes no entry")
    }
}
