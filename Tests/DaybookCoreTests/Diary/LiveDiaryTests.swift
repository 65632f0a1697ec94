// A diary kept open by a server: what it keeps follows every change on disk, and equals a fresh read.
import XCTest
@testable import DaybookCore

final class LiveDiaryTests: DiaryTestCase {
    var live: LiveDiary!
    let env = TemporaryDiary.environment

    override func setUpWithError() throws {
        try super.setUpWithError()
        try fixture.makeFolders("entries/2026/11")
        live = LiveDiary(try fixture.open(), environment: env)
    }

    func write(_ day: Int, codes: [String], tags: [String] = []) throws {
        let codings = codes.isEmpty ? "" : "codes:\n" + codes.map { "  - \($0)\n" }.joined()
        let text = "---\ntitle: Day \(day)\ndate: 2026-11-\(String(format: "%02d", day))T09:00:00+01:00\ntags: [\(tags.joined(separator: ", "))]\n\(codings)---\nWords.\n"
        try text.write(to: tmp.appendingPathComponent("entries/2026/11/2026-11-\(String(format: "%02d", day))-0900-day.md"),
                       atomically: true, encoding: .utf8)
    }

    /// The counts as a fresh walk of the files gives them.
    func fresh() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let diary = try Diary.open(tmp, environment: env, workingDirectory: tmp)
        let s = diary.scanEntries()
        for e in s.entries(0..<s.count) { for c in e.codings { counts[c.code, default: 0] += 1 } }
        return counts
    }

    func counts() throws -> [String: Int] { try live.counts("codes", parts: .codings) { $0.codings.map(\.code) } }

    func testCountsFollowEveryEditAndEqualAFreshCount() throws {
        XCTAssertTrue(live.isWatching)
        try write(1, codes: ["trust", "care"])
        try write(2, codes: ["trust"])
        XCTAssertEqual(try counts(), ["trust": 2, "care": 1])
        try write(2, codes: ["care", "care"])
        XCTAssertEqual(try counts(), try fresh())
        XCTAssertEqual(try counts(), ["trust": 1, "care": 3])
        try write(3, codes: ["doubt"], tags: ["night"])
        XCTAssertEqual(try counts(), ["trust": 1, "care": 3, "doubt": 1])
        try FileManager.default.removeItem(at: tmp.appendingPathComponent("entries/2026/11/2026-11-01-0900-day.md"))
        XCTAssertEqual(try counts(), ["care": 2, "doubt": 1])
        // A folder made is no file the watcher can name: everything is read again, to the same counts.
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("entries/2019/03"), withIntermediateDirectories: true)
        XCTAssertEqual(try counts(), try fresh())
        try "---\ndate: 2019-03-01T09:00:00+01:00\ncodes: [care]\n---\nx\n"
            .write(to: tmp.appendingPathComponent("entries/2019/03/2019-03-01-0900-old.md"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try counts(), ["care": 3, "doubt": 1])
        XCTAssertEqual(try live.entries().count, 3)
    }

    func testSeveralCountsMadeInOnePassEqualEachMadeAlone() throws {
        try write(1, codes: ["trust", "care"], tags: ["a"])
        try write(2, codes: ["trust", "trust"], tags: ["a", "b"])
        let asked: [LiveDiary.Count] = [
            .init("tags", parts: .tags) { $0.tags },
            .init("coded entries", parts: .codings) { Array(Set($0.codings.map(\.code))) },
        ]
        let together = try live.counts(asked)
        XCTAssertEqual(together, [["a": 2, "b": 1], ["trust": 2, "care": 1]])
        let alone = LiveDiary(try Diary.open(tmp, environment: env, workingDirectory: tmp), environment: env)
        XCTAssertEqual(try asked.map { try alone.counts($0.name, parts: $0.parts, keys: $0.keys) }, together)
        // Kept, and adjusted after a change, like a count made alone.
        try write(1, codes: [], tags: ["b"])
        XCTAssertEqual(try live.counts(asked), [["a": 1, "b": 2], ["trust": 1]])
    }

    func testCountsSplitOverWorkersEqualANaiveCount() throws {
        // Enough entries for two cores to count a share each (a worker per 256 entries at least).
        let folder = tmp.appendingPathComponent("entries/2025/01")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for n in 0..<600 {
            let tags = ["a", "b", "c", "d"].enumerated().filter { n % ($0.offset + 2) == 0 }.map(\.element)
            let text = "---\ndate: 2025-01-\(String(format: "%02d", n % 28 + 1))T09:00:00+01:00\ntags: [\(tags.joined(separator: ", "))]\n---\nx\n"
            try text.write(to: folder.appendingPathComponent("2025-01-\(String(format: "%02d", n % 28 + 1))-0900-e\(n).md"), atomically: false, encoding: .utf8)
        }
        let snapshot = try Diary.open(tmp, environment: env, workingDirectory: tmp).scanEntries()
        XCTAssertEqual(snapshot.count, 600)
        var naive: [String: Int] = [:]
        for e in snapshot.entries(0..<snapshot.count, parts: .tags) { for t in e.tags { naive[t, default: 0] += 1 } }
        let counted = LiveDiary.count([.init("tags", parts: .tags) { $0.tags }], over: snapshot)
        XCTAssertEqual(counted, [naive])
        XCTAssertEqual(naive["a"], 300)
    }

    /// A server's diary asks the clock at every read; a command's tells the moment it opened
    /// (issues 40, 41: every `coded:` and new entry of a session carried the server's start).
    func testAServersClockIsAskedAtEveryReadAndACommandsIsNot() throws {
        let file = tmp.appendingPathComponent("clock")
        try "2026-11-21T12:00:00+01:00\n".write(to: file, atomically: true, encoding: .utf8)
        let ticking = ["DAYBOOK_NOW_FILE": file.path, "TZ": "Europe/Vienna"]
        let command = try Diary.open(tmp, environment: ticking, workingDirectory: tmp)
        let server = LiveDiary(command, environment: ticking)
        XCTAssertEqual(try server.diary().clock.nowLocal.description, "2026-11-21T12:00:00+01:00")
        try "2026-11-21T12:01:30+01:00\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try server.diary().clock.nowLocal.description, "2026-11-21T12:01:30+01:00")
        XCTAssertEqual(command.clock.nowLocal.description, "2026-11-21T12:00:00+01:00")
        // The day moves on too.
        try "2026-11-23T00:00:10+01:00\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try server.diary().clock.today.description, "2026-11-23")
    }
}
