// `--set KEY=VALUE` read as YAML: mappings, lists, numbers and booleans typed; plain words kept as typed; bad YAML refused.
import XCTest
@testable import DaybookCore

final class EntryDraftTests: XCTestCase {
    let date = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 3600, offset: 3600)

    func draft(_ sets: [String]) throws -> EntryDraft {
        var d = EntryDraft(date: date, title: "Ward")
        try d.setFields(sets)
        d.body = "Notes.\n"
        return d
    }

    func testValuesAreYAMLAndWrittenInFlowStyle() throws {
        let d = try draft(["location={name: Ward 3, lat: 48.2, lon: 16.3}", "rooms=[a, b]", "beds=7", "ratio=0.5",
                           "night=true", "place=home"])
        XCTAssertEqual(d.fields.map(\.1), [
            .object([("name", .string("Ward 3")), ("lat", .double(48.2)), ("lon", .double(16.3))]),
            .array([.string("a"), .string("b")]), .int(7), .double(0.5), .bool(true), .string("home"),
        ])
        XCTAssertEqual(try d.text(), """
        ---
        title: Ward
        date: 2026-11-21T01:00:00+01:00
        location: {name: Ward 3, lat: 48.2, lon: 16.3}
        rooms: [a, b]
        beds: 7
        ratio: 0.5
        night: true
        place: home
        ---
        Notes.

        """)
    }

    func testWhatIsWrittenReadsBackAsTheSameValues() throws {
        let d = try draft(["location={name: Ward 3, lat: 48.2, lon: 16.3}", "rooms=[a, {b: 2}]", "beds=7", "night=false"])
        let parser = EntryParser(config: DiaryConfig(timeZone: TimeZone(identifier: "Europe/Vienna")!))
        let outcome = parser.parse(Data(try d.text().utf8), relativePath: "entries/2026/11/2026-11-21-0100-ward.md", displayPath: "x.md")
        let entry = try XCTUnwrap(outcome.entry, "\(outcome.problems)")
        for (key, value) in d.fields { XCTAssertEqual(entry.field(key), value, key) }
    }

    func testTextIsKeptAsTypedWhereYAML11WouldChangeIt() throws {
        let d = try draft(["a=issue #3", "b=two\nlines", "c=yes", "d=007", "e=1:30", "f=0x1A", "g=.inf", "h=\"42\"", "i={t: 1:30}", "j="])
        XCTAssertEqual(d.fields.map(\.1), [.string("issue #3"), .string("two\nlines"), .string("yes"), .string("007"),
                                           .string("1:30"), .string("0x1A"), .string(".inf"), .string("42"),
                                           .object([("t", .string("1:30"))]), .string("")])
        let text = try d.text()
        XCTAssertTrue(text.contains("c: \"yes\"\nd: \"007\"\ne: \"1:30\"\n"), text)
    }

    func testInvalidYAMLIsAnErrorNamingTheKey() throws {
        for (set, problem) in [("location={name: Ward 3", "did not find expected ',' or '}'"), ("x=@home", "cannot start any token"),
                               ("rooms=[a, b", "did not find expected ',' or ']'"), ("y=a\n---\nb", "single document")] {
            XCTAssertThrowsError(try draft([set]), set) { error in
                let e = error as? DaybookError
                XCTAssertEqual(e?.kind, .usage)
                let key = String(set.prefix { $0 != "=" })
                XCTAssertTrue(e?.message.hasPrefix("--set \(key): the value `") == true, e?.message ?? "")
                XCTAssertTrue(e?.message.contains("is not valid YAML") == true, e?.message ?? "")
                XCTAssertTrue(e?.message.contains(problem) == true, e?.message ?? "")
            }
        }
    }

    func testKnownKeysTakeTheirTypes() throws {
        let d = try draft(["tags=[field, night]", "mood=3", "title=Ward 3"])
        XCTAssertEqual(d.tags, ["field", "night"])
        XCTAssertEqual(d.mood, 3)
        XCTAssertEqual(d.title, "Ward 3")
        XCTAssertEqual(try draft(["tags=a, b"]).tags, ["a", "b"])
        XCTAssertThrowsError(try draft(["title={a: b}"]))
        XCTAssertThrowsError(try draft(["mood=[1]"]))
    }
}
