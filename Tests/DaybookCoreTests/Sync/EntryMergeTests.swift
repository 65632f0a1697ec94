// Merging one entry: front matter by key, tags and codings as sets, bodies by lines.
import XCTest
@testable import DaybookCore

final class EntryMergeTests: XCTestCase {
    let base = """
    ---
    title: Shared
    date: 2026-11-20T08:00:00+01:00
    tags: [start, common]
    mood: 3
    # a comment that must stay
    codes:
      - trust
    ---
    first line
    second line
    third line

    """

    func edit(_ s: String, _ pairs: (String, String)...) -> String {
        pairs.reduce(s) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    func testTagsMergeAsSetsWithAdditionsAndRemovalsFromBothSides() throws {
        let ours = edit(base, ("tags: [start, common]", "tags: [start, common, from-a]"))
        let theirs = edit(base, ("tags: [start, common]", "tags: [common, from-b]"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, edit(base, ("tags: [start, common]", "tags: [common, from-a, from-b]")))
    }

    func testCodingsMergeAsSetsInBlockStyle() throws {
        let ours = edit(base, ("  - trust\n", "  - trust\n  - code: relief\n    quote: second line\n"))
        let theirs = edit(base, ("  - trust\n", "  - code: frustration\n    memo: \"third: time\"\n"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, [])
        XCTAssertTrue(r.text.contains("codes:\n  - code: relief\n    quote: second line\n  - code: frustration\n    memo: \"third: time\"\n---\n"), r.text)
        XCTAssertTrue(r.text.contains("# a comment that must stay\n"))
    }

    func testAScalarChangedOnOneSideTakesThatSide() throws {
        let ours = edit(base, ("first line", "first line, edited here"))
        let theirs = edit(base, ("mood: 3", "mood: 4"), ("title: Shared", "title: Shared, renamed"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, edit(base, ("first line", "first line, edited here"), ("mood: 3", "mood: 4"), ("title: Shared", "title: Shared, renamed")))
    }

    func testTheSameScalarChangedOnBothKeepsOursAndReportsIt() throws {
        let ours = edit(base, ("mood: 3", "mood: 2"))
        let theirs = edit(base, ("mood: 3", "mood: 5"), ("tags: [start, common]", "tags: [start, common, b]"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, ["both machines changed `mood` differently"])
        XCTAssertEqual(r.text, edit(ours, ("tags: [start, common]", "tags: [start, common, b]")))
    }

    func testTheSameBodyLinesChangedOnBothKeepOurs() throws {
        let ours = edit(base, ("second line", "second line as A saw it"))
        let theirs = edit(base, ("second line", "second line as B saw it"), ("mood: 3", "mood: 1"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, ["both machines changed the same lines of the body"])
        XCTAssertTrue(r.text.contains("second line as A saw it") && r.text.contains("mood: 1"))
        XCTAssertFalse(r.text.contains("B saw") || r.text.contains("<<<<"))
    }

    func testAKeyAddedAndAKeyRemoved() throws {
        let ours = edit(base, ("mood: 3\n", ""))
        let theirs = edit(base, ("title: Shared\n", "title: Shared\nlocation: {name: Ward 3, lat: 48.2}\n"))
        let r = try XCTUnwrap(EntryMerge.merge(base: base, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, [])
        XCTAssertEqual(r.text, edit(ours, ("codes:\n  - trust\n", "codes:\n  - trust\nlocation: {name: Ward 3, lat: 48.2}\n")))
    }

    func testMappingsChangedOnBothSidesMergeByKey() throws {
        let b = edit(base, ("mood: 3\n", "mood: 3\nlocation: {name: Ward 3, lat: 48.2}\n"))
        let ours = edit(b, ("name: Ward 3", "name: Ward 4"))
        let theirs = edit(b, ("lat: 48.2}", "lat: 48.2, lon: 16.3}"))
        let r = try XCTUnwrap(EntryMerge.merge(base: b, ours: ours, theirs: theirs))
        XCTAssertEqual(r.conflicts, [])
        XCTAssertTrue(r.text.contains("location: {name: Ward 4, lat: 48.2, lon: 16.3}\n"), r.text)
    }

    func testAnUnreadableSideIsNotMergedByStructure() {
        XCTAssertNil(EntryMerge.merge(base: base, ours: base, theirs: "no front matter\n"))
        XCTAssertNil(EntryMerge.merge(base: base, ours: edit(base, ("mood: 3", "mood: [3")), theirs: base))
    }

    func testCRLFLinesKeepTheirEndings() throws {
        let crlf = base.replacingOccurrences(of: "\n", with: "\r\n")
        let theirs = edit(crlf, ("tags: [start, common]", "tags: [start]"))
        let ours = edit(crlf, ("third line", "third line!"))
        let r = try XCTUnwrap(EntryMerge.merge(base: crlf, ours: ours, theirs: theirs))
        XCTAssertEqual(r.text, edit(ours, ("tags: [start, common]", "tags: [start]")))
    }
}
