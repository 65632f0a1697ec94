// Any value of an entry by name (ls --columns, --where, stats --field, fields): one rule.
import XCTest
@testable import DaybookCore

final class EntryValuesTests: XCTestCase {
    func entry(_ frontMatter: String, body: String = "Some words here.\n") throws -> Entry {
        let parser = EntryParser(config: DiaryConfig(timeZone: TimeZone(identifier: "UTC")!))
        let outcome = parser.parse(Data("---\n\(frontMatter)\n---\n\(body)".utf8), relativePath: "entries/2026/11/2026-11-02-0800-x.md", displayPath: "x.md")
        return try XCTUnwrap(outcome.entry, "\(outcome.problems)")
    }

    func testKeysPathsAndWhatDaybookKnows() throws {
        let e = try entry("""
        date: 2026-11-02T08:05:00+00:00
        mood: 3
        location: {name: Ward 3, lat: 48.2, geo: {alt: 190}}
        sites: [ward, lab]
        words: many
        codes: [trust, {code: fear, quote: words}, trust]
        """)
        XCTAssertEqual(e.value(at: "mood"), .int(3))
        XCTAssertEqual(e.value(at: "location.name"), .string("Ward 3"))
        XCTAssertEqual(e.value(at: "location.geo.alt"), .int(190))
        XCTAssertEqual(e.value(at: "sites.1"), .string("lab"))
        XCTAssertNil(e.value(at: "sites.2"))
        XCTAssertNil(e.value(at: "location.name.first"))
        XCTAssertNil(e.value(at: "nothing"))
        XCTAssertEqual(e.value(at: "id"), .string("2026-11-02-0800-x"))
        XCTAssertEqual(e.value(at: "day"), .string("2026-11-02"))
        XCTAssertEqual(e.value(at: "time"), .string("08:05"))
        XCTAssertEqual(e.value(at: "codes"), .array([.string("fear"), .string("trust")]))
        XCTAssertEqual(e.value(at: "ink"), .bool(false))
        // The front matter's own key wins over daybook's name.
        XCTAssertEqual(e.value(at: "words"), .string("many"))
    }

    func testATallyAveragesNumbersAndCountsTheRest() throws {
        var numbers = FieldTally("minutes")
        for m in ["30", "45", "\"60\""] { numbers.add(try entry("date: 2026-11-02T08:00:00+00:00\nminutes: \(m)")) }
        numbers.add(try entry("date: 2026-11-02T08:00:00+00:00"))
        XCTAssertTrue(numbers.isNumeric)
        XCTAssertEqual(numbers.values.value, 45)
        XCTAssertEqual(numbers.entries, 3)

        var feelings = FieldTally("feeling")
        for f in ["sadness", "anger", "sadness", "[sadness, joy]", "7"] { feelings.add(try entry("date: 2026-11-02T08:00:00+00:00\nfeeling: \(f)")) }
        XCTAssertFalse(feelings.isNumeric)
        XCTAssertEqual(feelings.ranked.map(\.value), ["sadness", "7", "anger", "joy"])
        XCTAssertEqual(feelings.ranked.first?.entries, 3)
        XCTAssertEqual(feelings.entries, 5)
    }

    func testTheCensusNamesEveryKeyAndItsKinds() throws {
        let census = FieldCensus([
            try entry("date: 2026-11-02T08:00:00+00:00\ntitle: A\nminutes: 30\nlocation: {name: Ward}\ndue: 2026-12-01"),
            try entry("date: 2026-11-03T08:00:00+00:00\nminutes: thirty\nempty:"),
        ])
        let keys = Dictionary(uniqueKeysWithValues: census.keys.map { ($0.name, $0) })
        XCTAssertEqual(census.keys.first?.name, "date")
        XCTAssertEqual(keys["minutes"]?.kinds, [.number: 1, .text: 1])
        XCTAssertEqual(keys["location.name"]?.entries, 1)
        XCTAssertEqual(keys["due"]?.kinds, [.date: 1])
        XCTAssertEqual(keys["empty"]?.kinds, [.empty: 1])
        XCTAssertEqual(keys["date"]?.entries, 2)
    }

    func testLocationShortcut() throws {
        XCTAssertEqual(try EntryDraft.location("Ward 3@48.2,16.3"), .object([("name", .string("Ward 3")), ("lat", .double(48.2)), ("lon", .double(16.3))]))
        XCTAssertEqual(try EntryDraft.location(" Home @ -33, 151 "), .object([("name", .string("Home")), ("lat", .int(-33)), ("lon", .int(151))]))
        XCTAssertEqual(try EntryDraft.location("Café @ Main"), .object([("name", .string("Café @ Main"))]))
        for bad in ["Ward@48.2", "Ward@91,0", "Ward@0,181", "@1,2", "  ", "W@1,2,3"] {
            XCTAssertThrowsError(try EntryDraft.location(bad), bad)
        }
    }
}
