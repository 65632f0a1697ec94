// Dates as people say them: jrnl's phrases (from its public tests) and the issue's, against a fixed clock.
import XCTest
@testable import DaybookCore

final class DatePhraseTests: XCTestCase {
    let vienna = TimeZone(identifier: "Europe/Vienna")!

    func clock(_ iso: String) -> Clock {
        Clock(now: LocalDateTime.parse(iso, timeZone: vienna)!.instant, timeZone: vienna)
    }

    /// Saturday 2026-11-21 12:00 in Vienna, the clock of DateExpressionTests.
    var saturday: Clock { clock("2026-11-21T12:00:00+01:00") }

    /// `new --date`: each phrase and the moment it names.
    func testMoments() throws {
        let table: [(String, String)] = [
            // The list.
            ("yesterday 5pm", "2026-11-20T17:00:00+01:00"),
            ("yesterday at 5pm", "2026-11-20T17:00:00+01:00"),
            ("5pm", "2026-11-21T17:00:00+01:00"),
            ("now", "2026-11-21T12:00:00+01:00"),
            ("noon", "2026-11-21T12:00:00+01:00"),
            ("3 hours ago", "2026-11-21T09:00:00+01:00"),
            ("last friday 09:00", "2026-11-20T09:00:00+01:00"),
            ("last friday at 9am", "2026-11-20T09:00:00+01:00"),
            ("tomorrow 8:00", "2026-11-22T08:00:00+01:00"),
            // jrnl's tests (features/datetime.feature, write.feature, format.feature, …).
            ("today at 11:59pm", "2026-11-21T23:59:00+01:00"),
            ("yesterday", "2026-11-20T12:00:00+01:00"),
            ("tomorrow", "2026-11-22T12:00:00+01:00"),
            ("2013-11-30 15:42", "2013-11-30T15:42:00+01:00"),
            ("2019-01-01 01:01", "2019-01-01T01:01:00+01:00"),
            ("26/06/2099", "2099-06-26T12:00:00+02:00"),
            ("3/7/2014", "2014-03-07T12:00:00+01:00"),
            ("3/7/2014 4:37pm", "2014-03-07T16:37:00+01:00"),
            ("04-24-2014", "2014-04-24T12:00:00+02:00"),
            ("2020-09-19", "2020-09-19T12:00:00+02:00"),
            ("2020-02-29", "2020-02-29T12:00:00+01:00"),
            ("2222-08-19", "2222-08-19T12:00:00+02:00"),
            ("23 july 2013", "2013-07-23T12:00:00+02:00"),
            ("23 July 2013", "2013-07-23T12:00:00+02:00"),
            ("20 Mar 2000", "2000-03-20T12:00:00+01:00"),
            ("Sep 06 1969", "1969-09-06T12:00:00+01:00"),
            ("june 9 2013", "2013-06-09T12:00:00+02:00"),
            ("august 31 2020", "2020-08-31T12:00:00+02:00"),
            // Forms around them that people write.
            ("june 9, 2013", "2013-06-09T12:00:00+02:00"),
            ("9th of june 2013", "2013-06-09T12:00:00+02:00"),
            ("june 9th", "2026-06-09T12:00:00+02:00"),
            ("yesterday 5 pm", "2026-11-20T17:00:00+01:00"),
            ("5pm yesterday", "2026-11-20T17:00:00+01:00"),
            ("at 5pm", "2026-11-21T17:00:00+01:00"),
            ("yesterday 5:30 p.m.", "2026-11-20T17:30:00+01:00"),
            ("12am", "2026-11-21T00:00:00+01:00"),
            ("12pm", "2026-11-21T12:00:00+01:00"),
            ("midnight", "2026-11-21T00:00:00+01:00"),
            ("an hour ago", "2026-11-21T11:00:00+01:00"),
            ("90 minutes ago", "2026-11-21T10:30:00+01:00"),
            ("next friday", "2026-11-27T12:00:00+01:00"),
            ("in 3 days", "2026-11-24T12:00:00+01:00"),
            ("3 days ago 7:15", "2026-11-18T07:15:00+01:00"),
            ("  Yesterday   AT 5PM ", "2026-11-20T17:00:00+01:00"),
        ]
        for (phrase, expected) in table {
            XCTAssertEqual(try DateExpression.moment(phrase, clock: saturday).description, expected, phrase)
        }
    }

    /// jrnl's "day of the week" scenarios, on its own clock (Tuesday 2019-03-12 13:30:32): a
    /// weekday is its most recent past day, never today, in any case, named in full or in three letters.
    func testJrnlWeekdays() throws {
        let tuesday = clock("2019-03-12T13:30:32+01:00")
        let table: [(String, String)] = [
            ("Monday", "2019-03-11"), ("Tuesday", "2019-03-05"), ("Wednesday", "2019-03-06"), ("Thursday", "2019-03-07"),
            ("Friday", "2019-03-08"), ("Saturday", "2019-03-09"), ("Sunday", "2019-03-10"), ("sunday", "2019-03-10"),
            ("sUndAy", "2019-03-10"), ("Mon", "2019-03-11"), ("Tue", "2019-03-05"), ("Wed", "2019-03-06"),
            ("Thu", "2019-03-07"), ("Fri", "2019-03-08"), ("Sat", "2019-03-09"), ("Sun", "2019-03-10"), ("sUn", "2019-03-10"),
        ]
        for (phrase, day) in table {
            XCTAssertEqual(try DateExpression.moment(phrase, clock: tuesday).day.description, day, phrase)
        }
    }

    /// FILTER dates: a day or a period is its days; a time of day its minute.
    func testRanges() throws {
        func days(_ t: String) throws -> String {
            let r = try DateExpression.range(t, clock: saturday)
            return "\(r.firstDay)..\(r.lastDay)"
        }
        XCTAssertEqual(try days("june 2013"), "2013-06-01..2013-06-30")
        XCTAssertEqual(try days("july 2013"), "2013-07-01..2013-07-31")
        XCTAssertEqual(try days("feb 2013"), "2013-02-01..2013-02-28")
        XCTAssertEqual(try days("August 2020"), "2020-08-01..2020-08-31")
        XCTAssertEqual(try days("september 2020"), "2020-09-01..2020-09-30")
        XCTAssertEqual(try days("july 10 2013"), "2013-07-10..2013-07-10")
        XCTAssertEqual(try days("1980"), "1980-01-01..1980-12-31")
        XCTAssertEqual(try days("today"), "2026-11-21..2026-11-21")
        XCTAssertEqual(try days("last friday"), "2026-11-20..2026-11-20")
        let five = try DateExpression.range("yesterday 5pm", clock: saturday)
        let fiveLocal = LocalDay(year: 2026, month: 11, day: 20)!.ordinal * 86400 + 17 * 3600
        XCTAssertEqual(five, WallRange(lower: fiveLocal, upper: fiveLocal + 59))
        XCTAssertEqual(try DateExpression.range("yesterday 17:00:30", clock: saturday), WallRange(lower: fiveLocal + 30, upper: fiveLocal + 30))
        let ago = try DateExpression.range("3 hours ago", clock: saturday)
        XCTAssertEqual(ago.lower, LocalDay(year: 2026, month: 11, day: 21)!.ordinal * 86400 + 9 * 3600)
    }

    /// What is no date stays an error that says what is accepted, never a guess.
    func testRefusals() {
        for bad in ["2019-02-29", "2020-08-32", "june", "13pm", "0am", "25:00", "5:7pm", "last week 5pm", "this month at noon",
                    "next fortnight", "yesterday 5", "3 parsecs ago", "-3 hours ago", "32 july 2013", "13/13/2014", "3/7/14",
                    "tomorrowish", "at", "friday friday", "5pm 6pm"] {
            XCTAssertThrowsError(try DateExpression.moment(bad, clock: saturday), bad) { error in
                XCTAssertTrue("\(error)".contains("yesterday 5pm"), "\(bad): \(error)")
            }
            XCTAssertThrowsError(try DateExpression.range(bad, clock: saturday), bad)
        }
    }

    /// The daylight-saving rules of `--date` hold for the new phrases: a wall time the spring
    /// change skips moves forward and is reported; a repeated one is its first occurrence;
    /// "N hours ago" counts real hours.
    func testDaylightSaving() throws {
        let spring = clock("2026-03-29T04:00:00+02:00")
        let (skipped, note) = try DateExpression.momentNotingClockChange("2:30am", clock: spring)
        XCTAssertEqual(skipped.description, "2026-03-29T03:30:00+02:00")
        XCTAssertEqual(note?.kind, .skipped)
        XCTAssertEqual(try DateExpression.moment("3 hours ago", clock: spring).description, "2026-03-29T00:00:00+01:00")
        XCTAssertEqual(try DateExpression.moment("yesterday noon", clock: spring).description, "2026-03-28T12:00:00+01:00")

        let autumn = clock("2026-10-25T12:00:00+01:00")
        let (repeated, again) = try DateExpression.momentNotingClockChange("today at 2:30am", clock: autumn)
        XCTAssertEqual(repeated.description, "2026-10-25T02:30:00+02:00")
        XCTAssertEqual(again?.kind, .repeated)
        XCTAssertEqual(try DateExpression.moment("12 hours ago", clock: autumn).description, "2026-10-25T01:00:00+02:00")
        XCTAssertEqual(try DateExpression.moment("yesterday 5pm", clock: autumn).description, "2026-10-24T17:00:00+02:00")
    }
}
