// Statistics: the summary, weeks by week_start, tables per period, numeric fields.
import XCTest
@testable import DaybookCore

final class StatisticsTests: XCTestCase {
    func entry(_ date: String, words: Int = 10, tags: [String] = [], mood: Int? = nil,
               fields: [(String, JSONValue)] = [], codes: [String] = []) -> Entry {
        let d = LocalDateTime.parse(date, timeZone: TimeZone(identifier: "Europe/Vienna")!)!
        return Entry(id: date, path: "entries/\(date).md", date: d, title: "", frontTags: tags, inlineTags: [], mood: mood,
                     template: nil, fields: fields, codings: codes.map { Coding(code: $0) }, body: "", bodyStartLine: 3,
                     words: words, hasInk: false)
    }

    var today: LocalDay { LocalDay(year: 2026, month: 11, day: 21)! } // a Saturday

    /// `study stats` adds up each participant's tally: the result must be the summary of all
    /// their entries in one pass, for any way of splitting them.
    func testMergedTalliesGiveTheSummaryOfAllTheEntries() {
        var rng = SystemRandomNumberGenerator()
        let tags = ["work", "home", "ward", "a/b"], codes = ["trust", "care", "relief"]
        for round in 0..<200 {
            let entries = (0..<Int.random(in: 0...40, using: &rng)).map { _ -> Entry in
                let day = LocalDay(year: 2026, month: 11, day: 21)!.adding(days: -Int.random(in: 0...500, using: &rng))
                return entry("\(day) \(String(format: "%02d", Int.random(in: 0...23, using: &rng))):00", words: Int.random(in: 0...50, using: &rng),
                             tags: Array(tags.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))),
                             mood: Bool.random(using: &rng) ? Int.random(in: 1...5, using: &rng) : nil,
                             codes: Array(codes.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))))
            }
            let stats = Statistics(today: today, mondayFirst: round % 2 == 0)
            var parts: [[Entry]] = [[]]
            for e in entries.shuffled(using: &rng) {
                if Int.random(in: 0..<4, using: &rng) == 0 { parts.append([]) }
                parts[parts.count - 1].append(e)
            }
            let whole = stats.summary(entries, top: 3)
            guard let all = Statistics.merged(parts.map { stats.tally($0) }) else { return XCTFail("no field") }
            let merged = stats.summary(all, top: 3)
            XCTAssertEqual(merged.json, whole.json, "round \(round), \(parts.count) parts")
            XCTAssertEqual([merged.mood.min, merged.mood.max, merged.moodThisWeek.max], [whole.mood.min, whole.mood.max, whole.moodThisWeek.max])
        }
    }

    func testMergedTalliesPutEachMoodOnTheLeadScaleWhateverTheirWeekStart() {
        let five = Statistics(today: today, mondayFirst: true)
        let ten = Statistics(today: today, mondayFirst: false, moodScales: MoodScales(diary: 1...10))
        let a = five.tally([entry("2026-11-20 09:00", mood: 5)]), b = ten.tally([entry("2026-11-19 09:00", mood: 8), entry("2026-11-18 09:00", mood: 1)])
        let all = five.summary(Statistics.merged([a, b])!)
        // 8 on 1–10 is 4.11 on 1–5 and 1 is 1: (5 + 4.111 + 1) / 3.
        XCTAssertEqual(all.mood.value!, (5 + (1 + 7.0 / 9 * 4) + 1) / 3, accuracy: 1e-9)
        XCTAssertEqual(all.mood.max!, 5, accuracy: 1e-9)
        XCTAssertEqual(all.mood.min!, 1, accuracy: 1e-9)
        // A tally knows days, not weeks: the summary counts weeks from its own first day.
        XCTAssertEqual(all.weeks.suffix(1), [3], "Wednesday to Friday in one week from Monday")
        XCTAssertEqual(ten.summary(Statistics.merged([a, b])!).weeks.suffix(1), [3], "and in one week from Sunday")
        var withField = a
        withField.field = FieldTally("minutes")
        XCTAssertNil(Statistics.merged([withField, b]), "a field needs every entry")
    }

    /// Moods on several scales are summed per scale, so the average is the same to the last bit
    /// in whatever order entries are tallied (the per-folder tallies of `stats` rely on it).
    func testMoodsOnSeveralScalesAverageTheSameInAnyOrder() {
        let scales = MoodScales(diary: 1...5, ofTemplate: { $0 == "ten" ? 1...10 : $0 == "seven" ? 0...7 : nil })
        let stats = Statistics(today: today, mondayFirst: true, moodScales: scales)
        var rng = SystemRandomNumberGenerator()
        for round in 0..<100 {
            let entries = (0..<Int.random(in: 1...60, using: &rng)).map { _ -> Entry in
                let template = ["ten", "seven", nil].randomElement(using: &rng)!
                var e = entry("\(today.adding(days: -Int.random(in: 0...20, using: &rng))) 09:00",
                              mood: Int.random(in: 0...(template == nil ? 5 : 7), using: &rng))
                e.template = template
                return e
            }
            let whole = stats.summary(entries)
            let shuffled = stats.summary(Statistics.merged(entries.shuffled(using: &rng).map { stats.tally([$0]) })!)
            XCTAssertEqual(shuffled.mood, whole.mood, "round \(round)")
            XCTAssertEqual(shuffled.moodThisWeek, whole.moodThisWeek, "round \(round)")
            XCTAssertEqual(shuffled.moodLastWeek, whole.moodLastWeek, "round \(round)")
        }
    }

    func testSummary() {
        let entries = [
            entry("2026-11-05 09:00", words: 4, tags: ["work"], mood: 1, codes: ["trust", "trust"]),
            entry("2026-11-10 09:00", words: 6, tags: ["work", "home"], mood: 2),
            entry("2026-11-16 09:00", words: 5, tags: ["home"], mood: 4, codes: ["trust"]),
            entry("2026-11-16 18:00", words: 5, tags: ["home"], mood: 5),
        ]
        let s = Statistics(today: today, mondayFirst: true).summary(entries, top: 1)
        XCTAssertEqual(s.entries, 4)
        XCTAssertEqual(s.days, 3)
        XCTAssertEqual(s.words, 20)
        XCTAssertEqual(s.wordsPerEntry, 5)
        XCTAssertEqual(s.first?.day.description, "2026-11-05")
        XCTAssertEqual(s.last?.hour, 18)
        XCTAssertEqual(s.last7Days, 2, "the 15th to the 21st")
        XCTAssertEqual(s.tags.map(\.name), ["home"])
        XCTAssertEqual(s.codes.first?.entries, 2, "a code counts once per entry")
        XCTAssertEqual(s.mood.value, 3)
        XCTAssertEqual(s.moodThisWeek.value, 4.5)
        XCTAssertEqual(s.moodLastWeek.value, 2)
        XCTAssertEqual(s.weeksStart?.description, "2026-11-02")
        XCTAssertEqual(s.weeks, [1, 1, 2])
    }

    func testWeeksFollowWeekStart() {
        let sunday = [entry("2026-11-22 10:00"), entry("2026-11-21 10:00")]
        XCTAssertEqual(Statistics(today: today, mondayFirst: true).table(sunday, by: .week).map(\.period), ["2026-11-16"])
        XCTAssertEqual(Statistics(today: today, mondayFirst: false).table(sunday, by: .week).map(\.period), ["2026-11-15", "2026-11-22"])
        let weekdays = Statistics(today: today, mondayFirst: false).table(sunday, by: .weekday)
        XCTAssertEqual(weekdays.map(\.period), ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
        XCTAssertEqual(weekdays.map(\.entries), [1, 0, 0, 0, 0, 0, 1])
    }

    func testTablesIncludeEmptyPeriodsBetweenFirstAndLast() {
        let entries = [entry("2025-12-31 23:30", words: 3, mood: 2), entry("2026-02-01 07:05", words: 7, mood: 4), entry("2026-02-10 07:59", mood: 5)]
        let s = Statistics(today: today, mondayFirst: true)
        let months = s.table(entries, by: .month)
        XCTAssertEqual(months.map(\.period), ["2025-12", "2026-01", "2026-02"])
        XCTAssertEqual(months.map(\.entries), [1, 0, 2])
        XCTAssertEqual(months.map(\.words), [3, 0, 17])
        XCTAssertEqual(months[2].mood.value, 4.5)
        XCTAssertNil(months[1].mood.value)
        XCTAssertEqual(months[1].start?.description, "2026-01-01")
        XCTAssertEqual(s.table(entries, by: .year).map(\.period), ["2025", "2026"])
        XCTAssertEqual(s.table(entries, by: .day).count, 42)
        let hours = s.table(entries, by: .hour)
        XCTAssertEqual(hours.count, 24)
        XCTAssertEqual(hours[7].entries, 2)
        XCTAssertEqual(hours[23].period, "23")
        XCTAssertEqual(s.table([], by: .month).count, 0)
    }

    /// `study stats --by`: several diaries' entries in one table, in the lead's weeks, each mood
    /// put on its own diary's scale and from there on the lead's; a row's counts are the sums of
    /// each diary's own row for that period.
    func testATableOfSeveralDiariesPutsEachMoodOnTheLeadScaleInTheLeadWeeks() {
        let five = Statistics(today: today, mondayFirst: true)
        let tenScales = MoodScales(diary: 1...10, ofTemplate: { $0 == "seven" ? 0...7 : nil })
        var seven = entry("2026-11-19 09:00", words: 4, mood: 7)
        seven.template = "seven"
        let a = [entry("2026-11-20 09:00", words: 3, mood: 5), entry("2026-11-02 09:00", words: 1)]
        let b = [entry("2026-11-22 09:00", words: 5, mood: 8), seven, entry("2026-11-18 09:00", words: 2, mood: 1)]
        let weeks = five.table(diaries: [(a, five.moodScales), (b, tenScales)], by: .week)
        // Monday weeks: Sunday the 22nd falls in the week of the 16th.
        XCTAssertEqual(weeks.map(\.period), ["2026-11-02", "2026-11-09", "2026-11-16"])
        XCTAssertEqual(weeks.map(\.entries), [1, 0, 4])
        XCTAssertEqual(weeks.map(\.words), [1, 0, 14])
        // 8 on 1–10 is 1 + 7/9 × 4 on 1–5; 7 on 0–7 is 10 on 1–10, so 5 on 1–5; 1 is 1.
        let moods = [5, 1 + 7.0 / 9 * 4, 5, 1]
        XCTAssertEqual(weeks[2].mood.value!, moods.reduce(0, +) / 4, accuracy: 1e-9)
        XCTAssertEqual(weeks[2].mood.count, 4)
        // With another diary, each period adds up the two diaries' own rows.
        let own = Statistics(today: today, mondayFirst: true, moodScales: tenScales).table(b, by: .day)
        let both = five.table(diaries: [(a, five.moodScales), (b, tenScales)], by: .day)
        XCTAssertEqual(both.first?.period, "2026-11-02")
        XCTAssertEqual(both.last?.period, "2026-11-22")
        for row in both {
            let mine = five.table(a, by: .day).first { $0.period == row.period }, theirs = own.first { $0.period == row.period }
            XCTAssertEqual(row.entries, (mine?.entries ?? 0) + (theirs?.entries ?? 0), row.period)
            XCTAssertEqual(row.words, (mine?.words ?? 0) + (theirs?.words ?? 0), row.period)
        }
    }

    func testNumericFieldPerPeriod() {
        let entries = [
            entry("2026-11-02 09:00", fields: [("minutes", .int(30))]),
            entry("2026-11-03 09:00", fields: [("minutes", .double(45.5))]),
            entry("2026-11-20 09:00", fields: [("minutes", .string("15"))]),
            entry("2026-11-20 10:00", fields: [("minutes", .string("a while"))]),
            entry("2026-11-20 11:00"),
        ]
        let s = Statistics(today: today, mondayFirst: true)
        let rows = s.table(entries, by: .week, field: "minutes")
        XCTAssertEqual(rows.map { $0.field?.values.count }, [2, 0, 1])
        XCTAssertEqual(rows[0].field?.values.value, 37.75)
        XCTAssertEqual(rows[0].field?.values.min, 30)
        XCTAssertEqual(rows[0].field?.values.max, 45.5)
        let summary = s.summary(entries, field: "minutes")
        XCTAssertEqual(summary.field?.values.count, 3)
        XCTAssertEqual(summary.json["field"]?["max"], .double(45.5))
    }

    func testSparklineStopsAtAYearBackAndOldSelectionsEndAtTheirLastWeek() {
        let s = Statistics(today: today, mondayFirst: true)
        let long = s.summary([entry("2020-01-01 10:00"), entry("2026-11-20 10:00")])
        XCTAssertEqual(long.weeks.count, Statistics.sparklineWeeks)
        XCTAssertEqual(long.weeks.last, 1)
        let old = s.summary([entry("2019-03-04 10:00"), entry("2019-03-20 10:00")])
        XCTAssertEqual(old.weeks, [1, 0, 1])
        XCTAssertEqual(s.summary([]).json["first"], .null)
    }
}
