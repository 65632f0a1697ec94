// schedule: in daybook.yml, and what it owes (daybook due).
import XCTest
@testable import DaybookCore

final class ScheduleTests: XCTestCase {
    func rules(_ yaml: String) throws -> [ScheduleRule] {
        // The problem is kept for the commands that need the schedule (issue 43), which ask for it so.
        try DiaryConfig.parse("schedule:\n" + yaml, path: "daybook.yml").requireSchedule()
    }

    func day(_ s: String) -> LocalDay { LocalDay.parse(Substring(s))! }

    func days(_ rule: ScheduleRule, _ from: String, _ to: String) -> [String] {
        var out: [String] = []
        var d = day(from)
        while d <= day(to) { if rule.requires(d) { out.append(d.description) }; d = d.adding(days: 1) }
        return out
    }

    func testDayRules() throws {
        let r = try rules("""
          a: weekdays
          b: {every: [fri], weeks: even}
          c: {nth: first monday, except: [2026-12-07]}
          d: {nth: last fri}
          e: {every: day, from: 2026-11-02, to: 2026-11-08, except: [2026-11-04..2026-11-05]}
        """)
        XCTAssertEqual(r.map(\.template), ["a", "b", "c", "d", "e"])
        XCTAssertEqual(days(r[0], "2026-11-20", "2026-11-24"), ["2026-11-20", "2026-11-23", "2026-11-24"])
        // ISO weeks: 2026-11-13 is in week 46, 2026-11-20 in week 47; 2027-01-01 is in week 53 of 2026.
        XCTAssertEqual(days(r[1], "2026-11-09", "2026-11-29"), ["2026-11-13", "2026-11-27"])
        XCTAssertEqual(ScheduleRule.isoWeek(day("2027-01-01")), 53)
        XCTAssertEqual(ScheduleRule.isoWeek(day("2026-01-01")), 1)
        XCTAssertEqual(ScheduleRule.isoWeek(day("2024-12-30")), 1)
        XCTAssertEqual(days(r[2], "2026-11-01", "2027-01-31"), ["2026-11-02", "2027-01-04"])
        XCTAssertEqual(days(r[3], "2026-11-01", "2026-12-31"), ["2026-11-27", "2026-12-25"])
        XCTAssertEqual(days(r[4], "2026-11-01", "2026-11-10"), ["2026-11-02", "2026-11-03", "2026-11-06", "2026-11-07", "2026-11-08"])
    }

    /// Issue 43: a bad schedule does not stop reading daybook.yml; the problem is kept, with its line.
    func testABadScheduleIsKeptForTheCommandsThatNeedIt() throws {
        let config = try DiaryConfig.parse("name: x\nschedule:\n  daily: {evry: day}\nweek_start: sunday\n", path: "daybook.yml")
        XCTAssertEqual(config.schedule.count, 0)
        XCTAssertFalse(config.weekStartsOnMonday, "the keys after it are read")
        XCTAssertEqual(config.scheduleProblem?.location?.line, 3)
        XCTAssertThrowsError(try config.requireSchedule())
        XCTAssertThrowsError(try DiaryConfig.parse("week_start: someday\n", path: "daybook.yml"), "other keys still refuse")
    }

    func testEveryBadRuleNamesItsLine() {
        let bad = [
            "  daily: {every: someday}": "every must be day",
            "  daily: {weeks: 3}": "weeks must be odd or even",
            "  daily: {nth: 6th monday}": "nth must be",
            "  daily: {from: 2026-13-01}": "from must be a date",
            "  daily: {except: [2026-11-05..2026-11-01]}": "except takes dates",
            "  daily: {evry: day}": "did you mean `every`",
            "  memo: {after: {tag: fieldwork, within: soon}}": "within must be a time",
            "  memo: {after: {tag: fieldwork, within: 2h}, every: day}": "cannot be combined",
            "  daily: {nth: first monday, every: day}": "not both",
            "  - daily": "must map template names",
        ]
        for (text, why) in bad {
            XCTAssertThrowsError(try rules("\n" + text), text) { e in
                let err = e as? DaybookError
                XCTAssertTrue(err?.message.contains(why) ?? false, "\(text): \(String(describing: err?.message))")
                XCTAssertEqual(err?.location?.line, 3, text)
                XCTAssertEqual(err?.location?.path, "daybook.yml")
            }
        }
    }

    func entry(_ fm: String) throws -> Entry {
        let parser = EntryParser(config: DiaryConfig(timeZone: TimeZone(identifier: "UTC")!))
        let out = parser.parse(Data("---\n\(fm)\n---\nx\n".utf8), relativePath: "entries/2026/11/x.md", displayPath: "x.md")
        return try XCTUnwrap(out.entry, "\(out.problems)")
    }

    func testWhatIsOwedAndSinceWhen() throws {
        let r = try rules("  daily: weekdays\n  memo: {after: {tag: fieldwork, within: 24h}}\n")
        let entries = [
            try entry("date: 2026-11-16T20:00:00+00:00\ntemplate: daily"),
            try entry("date: 2026-11-17T20:00:00+00:00\ntemplate: daily"),
            try entry("date: 2026-11-19T20:00:00+00:00\ntemplate: daily"),
            try entry("date: 2026-11-21T22:00:00+00:00\ntags: [fieldwork]"),
            try entry("date: 2026-11-23T09:00:00+00:00\ntags: [fieldwork]"),
            try entry("date: 2026-11-23T10:00:00+00:00\ntemplate: memo"),
            try entry("date: 2026-11-23T11:00:00+00:00\ntags: [fieldwork]"),
        ]
        let now = LocalDateTime.parse("2026-11-23T12:00:00+00:00", timeZone: TimeZone(identifier: "UTC")!)!
        let owed = Owed.compute(r, entries: entries, now: now, days: 8)
        // 16–23 November: weekdays 16, 17, 18, 19, 20 before today, 18 and 20 missed; 19 was kept.
        XCTAssertEqual(owed[0].since?.description, "2026-11-20")
        XCTAssertEqual(owed[0].missed.map(\.description), ["2026-11-20"])
        XCTAssertTrue(owed[0].dueToday && owed[0].overdue)
        XCTAssertEqual(owed[0].owed, 5)
        XCTAssertEqual(owed[0].kept, 3)
        // The memo at 10:00 answers the session of 09:00, not the one two days before nor the one after it.
        XCTAssertEqual(owed[1].follows.map(\.date.hour), [22, 11])
        XCTAssertEqual(owed[1].follows.map(\.overdue), [true, false])
        XCTAssertEqual(owed[1].follows[0].by.description, "2026-11-22T22:00:00+00:00")
        XCTAssertEqual(owed[1].owed, 1)
        XCTAssertEqual(owed[1].kept, 0)
        // A nested tag under the rule's tag counts, as --tag finds it.
        let nested = Owed.compute(r, entries: [try entry("date: 2026-11-22T08:00:00+00:00\ntags: [fieldwork/site-a]")], now: now, days: 8)
        XCTAssertEqual(nested[1].follows.count, 1)
        // Kept yesterday: nothing overdue.
        let later = Owed.compute(r, entries: entries + [try entry("date: 2026-11-20T08:00:00+00:00\ntemplate: daily")], now: now, days: 4)
        XCTAssertNil(later[0].since)
        XCTAssertFalse(later[0].overdue)
    }
}
