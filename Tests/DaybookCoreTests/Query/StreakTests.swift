// Streaks: goals, today, month and year ends, daylight-saving changes and time zones.
import XCTest
@testable import DaybookCore

final class StreakTests: XCTestCase {
    func day(_ s: String) -> LocalDay { LocalDay.parse(Substring(s))! }
    func days(_ list: String...) -> Set<LocalDay> { Set(list.map(day)) }

    func testCurrentAndLongestWithTheirDates() {
        let s = Streak(written: days("2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-10", "2026-11-20", "2026-11-21"),
                       goal: .daily, today: day("2026-11-21"))
        XCTAssertEqual(s.current, StreakRun(days: 2, start: day("2026-11-20"), end: day("2026-11-21")))
        XCTAssertEqual(s.longest, StreakRun(days: 4, start: day("2026-11-01"), end: day("2026-11-04")))
        XCTAssertTrue(s.todayMet)
    }

    func testTodayDoesNotBreakTheStreakUntilItIsOver() {
        let s = Streak(written: days("2026-11-19", "2026-11-20"), goal: .daily, today: day("2026-11-21"))
        XCTAssertEqual(s.current?.days, 2)
        XCTAssertFalse(s.todayMet)
        let broken = Streak(written: days("2026-11-19", "2026-11-20"), goal: .daily, today: day("2026-11-22"))
        XCTAssertNil(broken.current)
        XCTAssertEqual(broken.longest?.days, 2)
    }

    func testStreaksCrossMonthYearAndLeapDays() {
        let year = Streak(written: days("2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"), goal: .daily, today: day("2026-01-03"))
        XCTAssertEqual(year.current, StreakRun(days: 4, start: day("2025-12-30"), end: day("2026-01-02")))
        let leap = Streak(written: days("2028-02-28", "2028-02-29", "2028-03-01"), goal: .daily, today: day("2028-03-01"))
        XCTAssertEqual(leap.current?.days, 3)
        let noLeap = Streak(written: days("2027-02-27", "2027-02-28", "2027-03-01"), goal: .daily, today: day("2027-03-01"))
        XCTAssertEqual(noLeap.current?.days, 3)
        let gap = Streak(written: days("2026-04-29", "2026-04-30", "2026-05-02"), goal: .daily, today: day("2026-05-02"))
        XCTAssertEqual(gap.current?.days, 1, "1 May was missed")
    }

    func testWeekdaysGoalSkipsWeekendsAndCountsWeekendWriting() {
        // Fri 13, Sat 14 (not asked, but written), Mon 16 … Fri 20; today is Saturday 21.
        let s = Streak(written: days("2026-11-13", "2026-11-14", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"),
                       goal: .weekdays, today: day("2026-11-21"))
        XCTAssertEqual(s.current?.days, 7)
        XCTAssertTrue(s.todayMet, "Saturday asks nothing")
        let monday = Streak(written: days("2026-11-20"), goal: .weekdays, today: day("2026-11-24"))
        XCTAssertNil(monday.current, "Monday 23 was missed")
    }

    func testNamedDaysGoal() throws {
        let goal = try XCTUnwrap(WritingGoal(parsing: "mon,wed,fri"))
        // Mon 9, Wed 11, Fri 13, Mon 16; today Tue 17.
        let s = Streak(written: days("2026-11-09", "2026-11-11", "2026-11-13", "2026-11-16"), goal: goal, today: day("2026-11-17"))
        XCTAssertEqual(s.current?.days, 4)
        XCTAssertTrue(s.todayMet)
        let missed = Streak(written: days("2026-11-09", "2026-11-13"), goal: goal, today: day("2026-11-13"))
        XCTAssertEqual(missed.current?.days, 1, "Wednesday 11 was missed")
        XCTAssertEqual(missed.longest?.days, 1)
        XCTAssertEqual(missed.longest?.start, day("2026-11-13"), "ties go to the most recent run")
    }

    func testFutureEntriesAndNothingWritten() {
        let s = Streak(written: days("2026-11-25"), goal: .daily, today: day("2026-11-21"))
        XCTAssertNil(s.current)
        XCTAssertNil(s.longest)
        let none = Streak(written: [], goal: .daily, today: day("2026-11-21"))
        XCTAssertEqual(none.json["current"]?["days"], .int(0))
        XCTAssertEqual(none.json["longest"]?["start"], .null)
        XCTAssertEqual(none.json["today_met"], .bool(false))
    }

    /// Days come from each entry's own local time, so daylight-saving changes neither skip a day
    /// nor count one twice.
    func testDaylightSavingChanges() throws {
        let vienna = try XCTUnwrap(TimeZone(identifier: "Europe/Vienna"))
        let dates = ["2026-03-28 23:30", "2026-03-29 02:30", "2026-03-30 00:30", // spring forward (02:30 does not exist)
                     "2026-10-25 02:30", "2026-10-25T02:30:00+01:00", "2026-10-26 00:10"] // fall back (02:30 twice)
        let parsed = try dates.map { try XCTUnwrap(LocalDateTime.parse($0, timeZone: vienna)) }
        XCTAssertEqual(parsed.map(\.day.description), ["2026-03-28", "2026-03-29", "2026-03-30", "2026-10-25", "2026-10-25", "2026-10-26"])
        let spring = Streak(written: Set(parsed[0..<3].map(\.day)), goal: .daily, today: day("2026-03-30"))
        XCTAssertEqual(spring.current?.days, 3)
        let autumn = Streak(written: Set(parsed[3...].map(\.day)), goal: .daily, today: day("2026-10-26"))
        XCTAssertEqual(autumn.current?.days, 2)
    }

    func testTimeZonesKeepTheWritersDay() throws {
        let vienna = try XCTUnwrap(TimeZone(identifier: "Europe/Vienna"))
        // 23:30 in New York is already the 19th in Vienna; it still counts for the 18th.
        let written = try ["2026-11-17T20:00:00+01:00", "2026-11-18T23:30:00-05:00", "2026-11-19T08:00:00+13:00"]
            .map { try XCTUnwrap(LocalDateTime.parse($0, timeZone: vienna)).day }
        XCTAssertEqual(Set(written), days("2026-11-17", "2026-11-18", "2026-11-19"))
        // Today is the diary's day: 2026-11-20 00:30 in Auckland is still the 19th in Vienna.
        let now = try XCTUnwrap(LocalDateTime.parse("2026-11-20T00:30:00+13:00", timeZone: vienna)).instant
        let today = Clock(now: now, timeZone: vienna).today
        XCTAssertEqual(today, day("2026-11-19"))
        XCTAssertEqual(Streak(written: Set(written), goal: .daily, today: today).current?.days, 3)
    }
}
