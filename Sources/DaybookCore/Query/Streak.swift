// Writing streaks: runs of written days in which no day the goal asks for was missed.
import Foundation

/// One run of days: how many days were written in it, its first and its last written day.
public struct StreakRun: Equatable, Sendable {
    public var days: Int
    public var start: LocalDay
    public var end: LocalDay

    public var json: JSONValue {
        .object([("days", .int(days)), ("start", .string(start.description)), ("end", .string(end.description))])
    }
}

public struct Streak: Equatable, Sendable {
    public var goal: WritingGoal
    /// A template's schedule (`streak --template NAME`), which then asks for the days instead of the goal.
    public var schedule: ScheduleRule?
    public var today: LocalDay
    /// Today was written, or the goal asks nothing of today.
    public var todayMet: Bool
    /// The run still alive today (nil when it was broken or nothing was written).
    public var current: StreakRun?
    /// The longest run; of runs equally long, the most recent.
    public var longest: StreakRun?

    /// Streaks from the days written. A day the goal does not ask for neither breaks a run nor is
    /// needed, but counts when written; today breaks nothing until it is over. Days after today
    /// (entries dated in the future) are not counted.
    public init(written: Set<LocalDay>, goal: WritingGoal, today: LocalDay, schedule: ScheduleRule? = nil) {
        self.goal = goal
        self.schedule = schedule
        self.today = today
        func asks(_ day: LocalDay) -> Bool { schedule?.requires(day) ?? goal.requires(weekday: day.weekday) }
        todayMet = written.contains(today) || !asks(today)
        var run: StreakRun?
        var longest: StreakRun?
        func close() {
            if let r = run, r.days >= (longest?.days ?? 0) { longest = r }
            run = nil
        }
        // Sorting the written days keeps this linear in entries, whatever the span of years.
        for day in written.filter({ $0 <= today }).sorted() {
            if let r = run, Streak.missesRequiredDay(goal, schedule, after: r.end, before: day) { close() }
            if var r = run {
                r.days += 1
                r.end = day
                run = r
            } else {
                run = StreakRun(days: 1, start: day, end: day)
            }
        }
        if let r = run, Streak.missesRequiredDay(goal, schedule, after: r.end, before: today) { close() }
        current = run
        close()
        self.longest = longest
    }

    /// Whether a day strictly between `a` and `b` is one the goal asks for.
    static func missesRequiredDay(_ goal: WritingGoal, _ schedule: ScheduleRule? = nil, after a: LocalDay, before b: LocalDay) -> Bool {
        let between = b.ordinal - a.ordinal - 1
        if between <= 0 { return false }
        // A schedule may ask for one day a month, or none for months: every day between is looked at.
        if let schedule { return (1...between).contains { schedule.requires(a.adding(days: $0)) } }
        // Every goal asks for at least one day a week.
        if between >= 7 { return true }
        return (1...between).contains { goal.requires(weekday: a.adding(days: $0).weekday) }
    }

    /// `daily`, `mon,wed,fri`, or `schedule of TEMPLATE`.
    public var goalDescription: String { schedule.map { "schedule of \($0.template)" } ?? goal.description }

    /// The JSON shape of SPEC §3.
    public var json: JSONValue {
        let none = JSONValue.object([("days", .int(0)), ("start", .null), ("end", .null)])
        return .object([("goal", .string(goalDescription)), ("today", .string(today.description)),
                        ("today_met", .bool(todayMet)), ("current", current?.json ?? none), ("longest", longest?.json ?? none)])
    }
}

extension Streak {
    /// For `--edits`: the days on which a commit changed one of the entries named in `ids`, each
    /// day taken on the author's own clock. Walks the history once.
    public static func editedDays(in repository: Repository, ids: Set<String>) throws -> Set<LocalDay> {
        var days = Set<LocalDay>()
        try repository.walk { commit in
            let touched = try repository.changedPaths(commit.id).contains { History.entryID(ofPath: $0).map(ids.contains) ?? false }
            if touched { days.insert(commit.date.day) }
            return true
        }
        return days
    }
}
