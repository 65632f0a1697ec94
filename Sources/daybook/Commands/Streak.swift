// `daybook streak`: the current and the longest writing streak, a calendar heatmap, a goal check.
import ArgumentParser
import DaybookCore
import Foundation

struct StreakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Current and longest writing streak under the goal; a calendar heatmap.",
        discussion: """
        A day counts when an entry is dated on it (its own local day). Today counts once written \
        and does not break the current streak while it is not over. \
        Exit status with --check: 0 today's goal is met, 1 it is not; 2 an error.
        """)

    @Option(help: ArgumentHelp("daily, weekdays or days such as mon,wed,fri (default: streak.goal of daybook.yml).", valueName: "goal"))
    var goal: String?
    @Flag(help: "Also count days on which the git history shows a change to an entry.") var edits = false
    @Flag(help: "A heatmap of the last weeks, one column a week.") var calendar = false
    @Option(help: ArgumentHelp("Weeks the calendar shows (default 26).", valueName: "n")) var weeks = 26
    @Flag(help: "No output: exit 0 when today's goal is met, else 1 (for prompts and cron).") var check = false
    @Flag(help: "A JSON object: goal, today_met, current and longest streak.") var json = false
    @OptionGroup var filters: FilterOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if weeks < 1 { throw ValidationError("--weeks takes a number from 1") }
        if let goal, WritingGoal(parsing: goal) == nil {
            throw ValidationError("--goal must be daily, weekdays or day names such as mon,wed,fri (got `\(goal)`)")
        }
    }

    func run() throws {
        let diary = try global.openDiary()
        let goal = self.goal.flatMap(WritingGoal.init(parsing:)) ?? diary.config.goal
        // Dates are all a streak needs: the entries themselves are decoded only for --edits.
        let (snapshot, chosen) = try filters.positions(of: diary, warn: !check)
        var perDay: [LocalDay: Int] = [:]
        for k in chosen { perDay[snapshot.date(k).day, default: 0] += 1 }
        if edits {
            let ids = Set(snapshot.entries(chosen, parts: []).map(\.id))
            // A day with changes only still shows on the calendar, at the lowest level.
            for day in try Streak.editedDays(in: diary.repository(), ids: ids) where perDay[day] == nil {
                perDay[day] = 1
            }
        }
        let today = diary.clock.today
        // `--template NAME` of a template the schedule names: its days are what is asked for.
        let schedule = self.goal == nil ? filters.template.flatMap { t in diary.config.schedule.first { $0.template == t } } : nil
        let streak = Streak(written: Set(perDay.keys), goal: goal, today: today, schedule: schedule)
        if check {
            if !streak.todayMet { throw ExitCode(1) }
            return
        }
        // Adherence over the last 30 days, as `daybook due` counts it.
        let adherence = schedule.map { Owed.compute([$0], entries: snapshot.entries(chosen, parts: [.template]), now: diary.clock.nowLocal, days: 30)[0] }
        if json {
            var o = streak.json
            if let a = adherence, case var .object(pairs) = o {
                pairs.append(("adherence", .object([("days", .int(30)), ("owed", .int(a.owed)), ("kept", .int(a.kept))])))
                o = .object(pairs)
            }
            Terminal.out(o.serialized(pretty: true))
            return
        }
        if calendar {
            Heatmap(perDay: perDay, today: today, weeks: weeks, mondayFirst: diary.config.weekStartsOnMonday).print()
            Terminal.out("")
        }
        func line(_ label: String, _ r: StreakRun?) {
            let days = r.map { "\($0.days) \($0.days == 1 ? "day" : "days")" } ?? "0 days"
            let span = r.map { $0.start == $0.end ? "  \($0.start)" : "  \($0.start) – \($0.end)" } ?? ""
            Terminal.out(Terminal.bold(label) + Terminal.accent(days) + Terminal.dim(span))
        }
        line("current  ", streak.current)
        line("longest  ", streak.longest)
        let todayText = perDay[today] != nil ? "written" : streak.todayMet ? "nothing asked" : "not yet written"
        Terminal.out(Terminal.bold("goal     ") + "\(streak.goalDescription); today (\(today)) \(todayText)")
        if let a = adherence, a.owed > 0 {
            Terminal.out(Terminal.bold("kept     ") + "\(a.kept) of \(a.owed) days owed in the last 30 (\(a.kept * 100 / a.owed) %)")
        }
    }
}
