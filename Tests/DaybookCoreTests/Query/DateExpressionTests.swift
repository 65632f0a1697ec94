// WHEN expressions, relative to a fixed clock; days across DST changes.
import XCTest
@testable import DaybookCore

final class DateExpressionTests: XCTestCase {
    let vienna = TimeZone(identifier: "Europe/Vienna")!
    var clock: Clock {
        // Saturday 2026-11-21 12:00 in Vienna.
        Clock(now: LocalDateTime.parse("2026-11-21T12:00:00+01:00", timeZone: vienna)!.instant, timeZone: vienna)
    }

    func days(_ text: String, mondayFirst: Bool = true) throws -> String {
        let r = try DateExpression.range(text, clock: clock, mondayFirst: mondayFirst)
        return "\(r.firstDay)..\(r.lastDay)"
    }

    func testRelativeDays() throws {
        XCTAssertEqual(try days("today"), "2026-11-21..2026-11-21")
        XCTAssertEqual(try days("yesterday"), "2026-11-20..2026-11-20")
        XCTAssertEqual(try days("saturday"), "2026-11-14..2026-11-14") // never today
        XCTAssertEqual(try days("Monday"), "2026-11-16..2026-11-16")
        XCTAssertEqual(try days("3 days ago"), "2026-11-18..2026-11-18")
        XCTAssertEqual(try days("2 weeks ago"), "2026-11-07..2026-11-07")
        XCTAssertEqual(try days("1 month ago"), "2026-10-21..2026-10-21")
    }

    func testPeriods() throws {
        XCTAssertEqual(try days("this week"), "2026-11-16..2026-11-22")
        XCTAssertEqual(try days("this week", mondayFirst: false), "2026-11-15..2026-11-21")
        XCTAssertEqual(try days("last week"), "2026-11-09..2026-11-15")
        XCTAssertEqual(try days("this month"), "2026-11-01..2026-11-30")
        XCTAssertEqual(try days("last month"), "2026-10-01..2026-10-31")
        XCTAssertEqual(try days("last year"), "2025-01-01..2025-12-31")
        XCTAssertEqual(try days("2024-02"), "2024-02-01..2024-02-29")
        XCTAssertEqual(try days("2026"), "2026-01-01..2026-12-31")
        XCTAssertEqual(try days("2026-03-29"), "2026-03-29..2026-03-29")
    }

    func testMinuteRange() throws {
        let r = try DateExpression.range("2026-11-20 18:30", clock: clock)
        XCTAssertEqual(r.upper - r.lower, 59)
    }

    func testRefusals() {
        for bad in ["next fortnight", "2026-13", "2026-02-30", "-3 days ago", "", "3 lightyears ago"] {
            XCTAssertThrowsError(try DateExpression.range(bad, clock: clock), bad)
        }
    }

    func testMomentsForNew() throws {
        XCTAssertEqual(try DateExpression.moment("yesterday 18:30", clock: clock).description, "2026-11-20T18:30:00+01:00")
        XCTAssertEqual(try DateExpression.moment("2026-07-01 09:00", clock: clock).description, "2026-07-01T09:00:00+02:00")
        XCTAssertEqual(try DateExpression.moment("monday", clock: clock).description, "2026-11-16T12:00:00+01:00")
        XCTAssertEqual(try DateExpression.moment("2026-11-01T08:00:00-05:00", clock: clock).description, "2026-11-01T08:00:00-05:00")
        XCTAssertEqual(try DateExpression.moment("7:05", clock: clock).description, "2026-11-21T07:05:00+01:00")
    }

    /// On the days clocks change, every wall time belongs to exactly that day.
    func testDaylightSavingDaysAreOneDayEach() throws {
        for (day, expectOffsets) in [("2026-03-29", [3600, 7200]), ("2026-10-25", [7200, 3600])] {
            let d = LocalDay.parse(Substring(day))!
            var offsets = Set<Int>()
            for minute in stride(from: 0, to: 24 * 60, by: 30) {
                let t = LocalDateTime(day: d, secondOfDay: minute * 60, timeZone: vienna)
                XCTAssertEqual(t.day, d)
                XCTAssertTrue(try DateExpression.range(day, clock: clock).contains(t))
                XCTAssertFalse(try DateExpression.range("2026-03-30", clock: clock).contains(t) && day != "2026-03-30")
                offsets.insert(t.offset)
            }
            XCTAssertEqual(offsets, Set(expectOffsets))
        }
        // A time skipped by the spring change still lands on its day.
        let skipped = LocalDateTime(day: LocalDay(year: 2026, month: 3, day: 29)!, secondOfDay: 2 * 3600 + 30 * 60, timeZone: vienna)
        XCTAssertEqual(skipped.day.description, "2026-03-29")
    }

    func testEntryDayIsItsOwnLocalDay() throws {
        let ny = LocalDateTime.parse("2026-11-18T23:30:00-05:00", timeZone: vienna)!
        XCTAssertTrue(try DateExpression.range("2026-11-18", clock: clock).contains(ny))
        XCTAssertFalse(try DateExpression.range("2026-11-19", clock: clock).contains(ny))
    }

    func testCivilCalendarRoundTrips() {
        for ordinal in stride(from: -800_000, to: 800_000, by: 997) {
            let d = LocalDay(ordinal: ordinal)
            XCTAssertEqual(LocalDay(year: d.year, month: d.month, day: d.day)?.ordinal, ordinal)
        }
        XCTAssertEqual(LocalDay(year: 2026, month: 11, day: 21)?.weekday, 7) // Saturday
        XCTAssertEqual(LocalDay(year: 1970, month: 1, day: 1)?.weekday, 5) // Thursday
    }
}
