// WHEN expressions: `2026-11`, `yesterday`, `last week`, `3 days ago`, … as ranges of local time.
import Foundation

/// An inclusive range of local wall-clock time (seconds since 1970-01-01 on the local clock).
public struct WallRange: Equatable, Sendable {
    public var lower: Int
    public var upper: Int

    public init(lower: Int, upper: Int) {
        self.lower = lower
        self.upper = upper
    }

    init(days first: LocalDay, _ last: LocalDay) {
        self.init(lower: first.ordinal * 86400, upper: last.ordinal * 86400 + 86399)
    }

    public var firstDay: LocalDay { LocalDay(ordinal: Int((Double(lower) / 86400).rounded(.down))) }
    public var lastDay: LocalDay { LocalDay(ordinal: Int((Double(upper) / 86400).rounded(.down))) }

    public func contains(_ t: LocalDateTime) -> Bool { t.wallSeconds >= lower && t.wallSeconds <= upper }
}

public enum DateExpression {
    static let weekdays = ["sunday": 1, "monday": 2, "tuesday": 3, "wednesday": 4, "thursday": 5, "friday": 6, "saturday": 7,
                           "sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

    /// The range a WHEN expression names, relative to `clock`. A time of day names its minute
    /// (its second when seconds are given): `--from "yesterday 5pm"` starts at 17:00.
    public static func range(_ text: String, clock: Clock, mondayFirst: Bool = true) throws -> WallRange {
        switch DatePhrase.parse(words(text), clock: clock, mondayFirst: mondayFirst) {
        case .days(let r): return r
        case .wallTime(let day, let second, let precise):
            let lower = day.ordinal * 86400 + second
            return WallRange(lower: lower, upper: lower + (precise ? 0 : 59))
        case .instant(let t):
            let lower = t.wallSeconds - t.second
            return WallRange(lower: lower, upper: lower + 59)
        case nil: throw bad(text)
        }
    }

    /// The words of a phrase: lowercased, commas dropped ("june 9, 2013").
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }

    /// The day or period a phrase without a time of day names: the forms daybook has always read
    /// (today, this week, 3 days ago, YYYY-MM, an ISO date-time, …); nil for any other text.
    static func dayOrPeriod(_ t: String, clock: Clock, mondayFirst: Bool) -> WallRange? {
        let today = clock.today
        switch t {
        case "today": return WallRange(days: today, today)
        case "yesterday": return WallRange(days: today.adding(days: -1), today.adding(days: -1))
        case "tomorrow": return WallRange(days: today.adding(days: 1), today.adding(days: 1))
        case "this week":
            let s = today.startOfWeek(mondayFirst: mondayFirst)
            return WallRange(days: s, s.adding(days: 6))
        case "last week":
            let s = today.startOfWeek(mondayFirst: mondayFirst).adding(days: -7)
            return WallRange(days: s, s.adding(days: 6))
        case "this month": return monthRange(today.year, today.month)
        case "last month":
            let d = LocalDay(year: today.year, month: today.month, day: 1)!.adding(months: -1)
            return monthRange(d.year, d.month)
        case "this year": return yearRange(today.year)
        case "last year": return yearRange(today.year - 1)
        default: break
        }
        let words = t.split(separator: " ")
        if words.count == 3, words[2] == "ago", let n = Int(words[0]), n >= 0 {
            let unit = words[1].hasSuffix("s") ? String(words[1].dropLast()) : String(words[1])
            let d: LocalDay
            switch unit {
            case "day": d = today.adding(days: -n)
            case "week": d = today.adding(days: -7 * n)
            case "month": d = today.adding(months: -n)
            case "year": d = today.adding(months: -12 * n)
            default: return nil
            }
            return WallRange(days: d, d)
        }
        // Absolute forms.
        let s = Substring(t)
        if s.count == 4, let y = Int(s) { return yearRange(y) }
        if s.count == 7, s[s.index(s.startIndex, offsetBy: 4)] == "-",
           let y = Int(s.prefix(4)), let m = Int(s.suffix(2)), (1...12).contains(m) {
            return monthRange(y, m)
        }
        if s.count == 10, let d = LocalDay.parse(s) { return WallRange(days: d, d) }
        if s.count > 10, let dt = LocalDateTime.parse(String(s), timeZone: clock.timeZone) {
            // A time given to the minute covers that minute; with seconds, that second.
            let hasSeconds = s.dropFirst(11).filter { $0 == ":" }.count >= 2
            let lower = dt.wallSeconds
            return WallRange(lower: lower, upper: lower + (hasSeconds ? 0 : 59))
        }
        return nil
    }

    /// A moment for `new --date`: any WHEN, with a time of day or without.
    /// Without a time of day, the entry takes the current time of day on that day.
    public static func moment(_ text: String, clock: Clock, mondayFirst: Bool = true) throws -> LocalDateTime {
        try momentNotingClockChange(text, clock: clock, mondayFirst: mondayFirst).time
    }

    /// `moment`, and what a daylight-saving change did to the time (for the command to report).
    public static func momentNotingClockChange(_ text: String, clock: Clock, mondayFirst: Bool = true) throws -> (time: LocalDateTime, note: ClockChange?) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let full = LocalDateTime.parseNotingClockChange(trimmed, timeZone: clock.timeZone), trimmed.count > 10 { return full }
        switch DatePhrase.parse(words(text), clock: clock, mondayFirst: mondayFirst) {
        case .days(let r): return LocalDateTime.resolving(day: r.firstDay, secondOfDay: clock.nowLocal.secondOfDay, timeZone: clock.timeZone)
        case .wallTime(let day, let second, _): return LocalDateTime.resolving(day: day, secondOfDay: second, timeZone: clock.timeZone)
        case .instant(let t): return (t, nil)
        case nil: throw bad(text)
        }
    }

    /// `HH:MM` or `H:MM`, optionally with `:SS`.
    static func parseTimeOfDay(_ s: String) -> Int? {
        let p = s.split(separator: ":")
        guard p.count == 2 || p.count == 3, let h = Int(p[0]), let m = Int(p[1]), p[1].count == 2,
              (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        let sec = p.count == 3 ? Int(p[2]) ?? -1 : 0
        guard (0..<60).contains(sec) else { return nil }
        return h * 3600 + m * 60 + sec
    }

    static func monthRange(_ y: Int, _ m: Int) -> WallRange {
        let first = LocalDay(year: y, month: m, day: 1)!
        return WallRange(days: first, first.adding(days: LocalDay.daysIn(year: y, month: m) - 1))
    }

    static func yearRange(_ y: Int) -> WallRange {
        WallRange(days: LocalDay(year: y, month: 1, day: 1)!, LocalDay(year: y, month: 12, day: 31)!)
    }

    static func bad(_ text: String) -> DaybookError {
        .usage("cannot read the date `\(text)`: use YYYY, YYYY-MM, YYYY-MM-DD, june 9 2013, 3/7/2014, today, yesterday, tomorrow, now, a weekday, last/next friday, this/last week|month|year, N days|weeks|months ago, N hours|minutes ago, in N days; a day may take a time of day: 17:30, 5pm, noon (yesterday 5pm, last friday at 9am); English only (see FILTERS in daybook(1))")
    }
}
