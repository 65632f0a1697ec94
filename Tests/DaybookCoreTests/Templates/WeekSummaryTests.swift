// The past week's statistics for review templates, and the mood scale a template brings for its entries.
import XCTest
@testable import DaybookCore

final class WeekSummaryTests: XCTestCase {
    let utc = TimeZone(identifier: "UTC")!

    func entry(_ frontMatter: String, body: String = "Some words here.\n", moodScale: @escaping (String) -> ClosedRange<Int>? = { _ in nil }) throws -> Entry {
        let parser = EntryParser(config: DiaryConfig(timeZone: utc), moodScale: moodScale)
        let outcome = parser.parse(Data("---\n\(frontMatter)\n---\n\(body)".utf8), relativePath: "entries/2026/11/x.md", displayPath: "x.md")
        return try XCTUnwrap(outcome.entry, "\(outcome.problems)")
    }

    func testCountsTheSevenDaysEndingOnTheDay() throws {
        let entries = [
            try entry("date: 2026-11-14T23:59:00+01:00\nmood: 1\ntags: [old]"),       // the week before
            try entry("date: 2026-11-15T00:00:00+01:00\nmood: 4\ntags: [fieldwork]\ncodes: [trust, trust]", body: "One two three #interview\n"),
            try entry("date: 2026-11-21T22:00:00+01:00\nmood: 2\ntags: [fieldwork]"),
            try entry("date: 2026-11-22T08:00:00+01:00\nmood: 5\ntags: [later]"),     // after the day
            try entry("date: 2026-11-07T10:00:00+01:00\nmood: 5"),                     // two weeks back
        ]
        let week = WeekSummary(entries: entries, endingOn: LocalDay(year: 2026, month: 11, day: 21)!)
        XCTAssertEqual(week.from.description, "2026-11-15")
        XCTAssertEqual(week.entries, 2)
        XCTAssertEqual(week.words, 3 + 1 + 3)
        XCTAssertEqual(week.tags, [.init(name: "fieldwork", entries: 2), .init(name: "interview", entries: 1)])
        XCTAssertEqual(week.codes, [.init(name: "trust", entries: 1)], "a code counts entries, not codings")
        XCTAssertEqual(week.moodAverage, 3)
        XCTAssertEqual(week.previousMoodAverage, 1)
        let mood = week.mustacheContext["mood"] as? [String: Any]
        XCTAssertEqual(mood?["change"] as? String, "+2.0")
    }

    func testAnEmptyWeekHasNoMood() {
        let week = WeekSummary(entries: [], endingOn: LocalDay(year: 2026, month: 11, day: 21)!)
        XCTAssertEqual(week.entries, 0)
        XCTAssertNil(week.mustacheContext["mood"])
    }

    func testMoodsOnATemplatesOwnScaleAreMappedOntoTheDiarys() throws {
        let scales: (String) -> ClosedRange<Int>? = { $0 == "emotion" ? 1...10 : nil }
        let entries = [
            try entry("date: 2026-11-20T10:00:00+01:00\nmood: 10\ntemplate: emotion", moodScale: scales),
            try entry("date: 2026-11-20T11:00:00+01:00\nmood: 1\ntemplate: emotion", moodScale: scales),
            try entry("date: 2026-11-20T12:00:00+01:00\nmood: 3", moodScale: scales),
        ]
        let week = WeekSummary(entries: entries, endingOn: LocalDay(year: 2026, month: 11, day: 21)!, moodScale: 1...5, templateMoodScale: scales)
        XCTAssertEqual(try XCTUnwrap(week.moodAverage), 3, accuracy: 1e-9)  // 5, 1 and 3 on 1–5
    }

    func testTheTemplatesMoodScaleWinsForItsEntries() throws {
        let scales: (String) -> ClosedRange<Int>? = { $0 == "emotion" ? 1...10 : nil }
        // `template` after `mood`: the scale is decided once the whole front matter is read.
        XCTAssertEqual(try entry("mood: 8\ndate: 2026-11-20\ntemplate: emotion", moodScale: scales).mood, 8)
        let parser = EntryParser(config: DiaryConfig(timeZone: utc), moodScale: scales)
        for (text, message) in [("mood: 8\ntemplate: memo", "mood 8 is off the scale 1–5"),
                                ("mood: 8", "mood 8 is off the scale 1–5"),
                                ("mood: 11\ntemplate: emotion", "mood 11 is off the scale 1–10"),
                                ("mood: high\ntemplate: emotion", "`mood` must be an integer from 1 to 10")] {
            let o = parser.parse(Data("---\ndate: 2026-11-20\n\(text)\n---\nx\n".utf8), relativePath: "entries/2026/11/x.md", displayPath: "x.md")
            XCTAssertNil(o.entry)
            XCTAssertEqual(o.problems.map(\.message), [message])
            XCTAssertEqual(o.problems.first?.location?.line, 3)
        }
    }
}
