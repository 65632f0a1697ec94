// FILTERS over entries: tags (nested, inline), mood, --where, template, on-this-day, last N.
import XCTest
@testable import DaybookCore

final class EntryFilterTests: XCTestCase {
    let vienna = TimeZone(identifier: "Europe/Vienna")!
    var clock: Clock { Clock(now: LocalDateTime.parse("2026-11-21T12:00:00+01:00", timeZone: vienna)!.instant, timeZone: vienna) }

    func entry(_ fm: String, body: String = "b\n", id: String = "x") -> Entry {
        let o = EntryParser(config: DiaryConfig(timeZone: vienna)).parse(Data("---\n\(fm)\n---\n\(body)".utf8), relativePath: "entries/2026/11/\(id).md", displayPath: id)
        return o.entry!
    }

    func titles(_ f: EntryFilter, _ entries: [Entry]) throws -> [String] {
        try f.compile(clock: clock, mondayFirst: true).apply(entries).map(\.title)
    }

    func testTagsAllAnyNotAndNesting() throws {
        let es = [entry("title: AB\ndate: 2026-11-01\ntags: [a, project/alpha]"), entry("title: A\ndate: 2026-11-02\ntags: [a]"),
                  entry("title: C\ndate: 2026-11-03", body: "inline #c here\n")]
        var f = EntryFilter(); f.tags = ["A", "project"]
        XCTAssertEqual(try titles(f, es), ["AB"])
        f = EntryFilter(); f.anyTags = ["project/alpha", "c"]
        XCTAssertEqual(try titles(f, es), ["AB", "C"])
        f = EntryFilter(); f.notTags = ["a"]
        XCTAssertEqual(try titles(f, es), ["C"])
        f = EntryFilter(); f.tags = ["proj"]
        XCTAssertEqual(try titles(f, es), [])
    }

    func testMoodWhereTemplateAndLast() throws {
        let es = [entry("title: one\ndate: 2026-11-01\nmood: 2\nenergy: 7\ntemplate: memo\npeople: [Anna, Ben]"),
                  entry("title: two\ndate: 2026-11-21\nmood: 4\nenergy: 3"),
                  entry("title: three\ndate: 2025-11-21\nmood: 5")]
        var f = EntryFilter(); f.mood = ">=4"
        XCTAssertEqual(try titles(f, es), ["two", "three"])
        f = EntryFilter(); f.mood = "2..4"
        XCTAssertEqual(try titles(f, es), ["one", "two"])
        f = EntryFilter(); f.wheres = ["energy>=5"]
        XCTAssertEqual(try titles(f, es), ["one"])
        f = EntryFilter(); f.wheres = ["people=anna"]
        XCTAssertEqual(try titles(f, es), ["one"])
        f = EntryFilter(); f.wheres = ["energy"]
        XCTAssertEqual(try titles(f, es), ["one", "two"])
        f = EntryFilter(); f.wheres = ["title~^t"]
        XCTAssertEqual(try titles(f, es), ["two", "three"])
        f = EntryFilter(); f.wheres = ["energy!=7"]
        XCTAssertEqual(try titles(f, es), ["two", "three"])
        f = EntryFilter(); f.template = "MEMO"
        XCTAssertEqual(try titles(f, es), ["one"])
        f = EntryFilter(); f.onThisDay = true
        XCTAssertEqual(try titles(f, es), ["two", "three"])
        f = EntryFilter(); f.last = 1
        XCTAssertEqual(try titles(f, es), ["three"])
    }

    func testWhereComparesDatesAndTimesOfDay() throws {
        // A timetable's lessons: a date field, a quoted time, an unquoted one (YAML's base 60 reads 14:00 as 840).
        let es = [entry("title: lecture\ndate: 2026-11-23 08:30\non: 2026-11-23\nstart: \"09:15\""),
                  entry("title: lab\ndate: 2026-11-26 13:00\non: 2026-11-26\nstart: 14:00"),
                  entry("title: exam\ndate: 2026-11-20 10:00\non: 2026-12-10\nstart: \"9:00\""),
                  entry("title: note\ndate: 2026-11-28 19:45\nstart: soon")]
        func wheres(_ w: String) throws -> [String] {
            var f = EntryFilter(); f.wheres = [w]
            return try titles(f, es)
        }
        XCTAssertEqual(try wheres("on>=2026-11-26"), ["lab", "exam"])
        XCTAssertEqual(try wheres("on < 2026-11-26"), ["lecture"])
        XCTAssertEqual(try wheres("on<=2026-11-26"), ["lecture", "lab"])
        XCTAssertEqual(try wheres("start<12:00"), ["lecture", "exam"], "a time that is not one (`soon`) is left out")
        XCTAssertEqual(try wheres("start>=14:00"), ["lab"])
        XCTAssertEqual(try wheres("start>09:00"), ["lecture", "lab"])
        XCTAssertEqual(try wheres("date<12:00"), ["lecture", "exam"], "an entry's date has its time of day")
        XCTAssertEqual(try wheres("date>=2026-11-26"), ["lab", "note"])
        var f = EntryFilter(); f.wheres = ["start<25:00"]
        XCTAssertThrowsError(try f.compile(clock: clock, mondayFirst: true)) {
            XCTAssertEqual(($0 as? DaybookError)?.message,
                           "--where `start<25:00`: cannot read `25:00` after `<`: compare with a number, a date (YYYY-MM-DD) or a time of day (HH:MM)")
        }
    }

    func testBadExpressionsAreUsageErrors() {
        for bad in [{ (f: inout EntryFilter) in f.mood = "lots" }, { $0.wheres = ["=x"] }, { $0.wheres = ["a~("] }, { $0.from = "soon" }, { $0.last = -1 }] {
            var f = EntryFilter(); bad(&f)
            XCTAssertThrowsError(try f.compile(clock: clock, mondayFirst: true)) { XCTAssertEqual(($0 as? DaybookError)?.kind, .usage) }
        }
    }
}
