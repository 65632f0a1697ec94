import XCTest
@testable import DaybookCore

final class RedactionCheckTests: XCTestCase {
    let redaction = Redaction(names: [("Zorblatt Quennington", "P07"), ("Zoë", "P09")], fields: [])

    func testAnIDCutInsideANameIsMadeAgainFromTheWholeRedactedTitle() {
        let title = "Afternoon session with Zorblatt Quennington"
        let rel = "entries/2026/11/2026-11-02-0900-" + Slug.make(title) + ".md"
        XCTAssertTrue(rel.hasSuffix("zorblatt-quenning.md"))
        XCTAssertEqual(redaction.path(rel, title: title), "entries/2026/11/2026-11-02-0900-afternoon-session-with-p07.md")
        // A clash suffix stays; an id not made from the title falls back to replacing slugs.
        XCTAssertEqual(redaction.path(String(rel.dropLast(3)) + "-2.md", title: title), "entries/2026/11/2026-11-02-0900-afternoon-session-with-p07-2.md")
        XCTAssertEqual(redaction.path("entries/2026/11/2026-11-02-0900-zorblatt-quennington-notes.md", title: "Other"),
                       "entries/2026/11/2026-11-02-0900-p07-notes.md")
    }

    func testLinksFollowTheRedactedIDs() {
        let ids = ["2026-11-02-0900-talk-with-zorblatt-quenning": "2026-11-02-0900-talk-with-p07"]
        XCTAssertEqual(Redaction.replaceIDs("See [[2026-11-02-0900-talk-with-zorblatt-quenning]] and 2026-11-02-0900-talk-with-zorblatt-quenning-ish, 2026.", ids),
                       "See [[2026-11-02-0900-talk-with-p07]] and 2026-11-02-0900-talk-with-p07-ish, 2026.")
    }

    func testSlugSpellingsAreReplacedAndEverySpellingIsFound() {
        XCTAssertEqual(redaction.text("zorblatt_quennington.pdf and ZorblattQuennington and Zorblatt Quennington"),
                       "p07.pdf and p07 and P07")
        XCTAssertEqual(redaction.leaks(in: "Zoe came"), ["Zoë"])
        XCTAssertEqual(redaction.leaks(in: "zorblatt-quennington"), ["Zorblatt Quennington"])
        XCTAssertEqual(redaction.leaks(in: "Zoeanna and xzorblatt-quenningtonx"), [])
        XCTAssertEqual(RedactionCheck.scan(text: "P07 and P09", as: "out", redaction: redaction), [])
    }

    func testArchivesAndFileNamesAreSearched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redaction-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("site"), withIntermediateDirectories: true)
        try "clean".write(to: dir.appendingPathComponent("site/zoe.html"), atomically: true, encoding: .utf8)
        let zip = dir.appendingPathComponent("b.zip")
        let archive = try ArchiveFile(zip, time: LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 20)!, secondOfDay: 8 * 3600, offset: 0))
        try archive.add("entries/a.md", data: Data("nothing here".utf8))
        try archive.add("entries/b.md", data: Data("Zorblatt Quennington said".utf8))
        try archive.finish()
        let leaks = try RedactionCheck.scan(dir, shownAs: "out", redaction: redaction)
        XCTAssertEqual(leaks.map(\.place).sorted(), ["out/b.zip: entries/b.md", "out/site/zoe.html (its name)"])
    }
}
