// ENTRY arguments: ids, prefixes, dates, last, paths that must stay inside the diary.
import XCTest
@testable import DaybookCore

final class EntryReferenceTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(inside: "diary") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let root = fixture.root
        let dir = root.appendingPathComponent("entries/2026/11")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (id, date) in [("2026-11-03-0800-first-of-day", "2026-11-03T08:00:00+01:00"), ("2026-11-03-0900-second", "2026-11-03T09:00:00+01:00"),
                           ("2026-11-20-1000-yesterday", "2026-11-20T10:00:00+01:00")] {
            try "---\ndate: \(date)\n---\nx\n".write(to: dir.appendingPathComponent(id + ".md"), atomically: true, encoding: .utf8)
        }
        try "---\ndate: 2026-11-01\n---\nsecret\n".write(to: tmp.appendingPathComponent("secret.md"), atomically: true, encoding: .utf8)
        diary = try fixture.open(workingDirectory: tmp)
    }

    func testForms() throws {
        let r = EntryReference(diary)
        XCTAssertEqual(try r.resolve("2026-11-03-0800-first-of-day"), "entries/2026/11/2026-11-03-0800-first-of-day.md")
        XCTAssertEqual(try r.resolve("2026-11-03-09"), "entries/2026/11/2026-11-03-0900-second.md")
        XCTAssertEqual(try r.resolve("yesterday"), "entries/2026/11/2026-11-20-1000-yesterday.md")
        XCTAssertEqual(try r.resolve("last"), "entries/2026/11/2026-11-20-1000-yesterday.md")
        XCTAssertEqual(try r.resolve("2026-11-20"), "entries/2026/11/2026-11-20-1000-yesterday.md")
        XCTAssertEqual(try r.resolve("diary/entries/2026/11/2026-11-03-0900-second.md"), "entries/2026/11/2026-11-03-0900-second.md")
        XCTAssertEqual(try r.resolve("entries/2026/11/2026-11-03-0900-second.md"), "entries/2026/11/2026-11-03-0900-second.md")
    }

    func testAmbiguousListsCandidates() {
        XCTAssertThrowsError(try EntryReference(diary).resolve("2026-11-03")) { error in
            let m = (error as? DaybookError)?.message ?? ""
            XCTAssertTrue(m.contains("first-of-day") && m.contains("second"))
        }
    }

    func testNothingOutsideTheDiary() {
        let r = EntryReference(diary)
        for bad in [tmp.appendingPathComponent("secret.md").path, "../secret.md", "diary/entries/../../secret.md", "/etc/passwd", "entries/../daybook.yml", "today"] {
            XCTAssertThrowsError(try r.resolve(bad), bad)
        }
    }

    func testManyFromStdin() throws {
        let got = try EntryReference(diary).resolveMany(["-"]) { "2026-11-03-08\n\ndiary/entries/2026/11/2026-11-03-0900-second.md\n2026-11-03-08\n" }
        XCTAssertEqual(got.count, 2)
    }
}
