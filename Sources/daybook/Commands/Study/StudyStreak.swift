// `daybook study streak`: each participant's adherence to the diary protocol, one row each.
import ArgumentParser
import DaybookCore
import Foundation

struct StudyStreak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Each participant's adherence to the protocol: days asked for by the goal, days kept, streaks.",
        discussion: """
        The period is protocol.start (else the participant's first entry) to protocol.end, never past \
        today; the goal is --goal, else protocol.goal, else the diary's streak.goal. Streaks follow \
        `daybook streak`, as of the period's last day. With --group, a group's asked and kept days are \
        the sums of its members'.
        """)

    @Option(help: ArgumentHelp("daily, weekdays or days such as mon,wed,fri (default: protocol.goal of study.yml).", valueName: "goal"))
    var goal: String?
    @OptionGroup var output: StudyTableOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let goal, WritingGoal(parsing: goal) == nil {
            throw ValidationError("--goal must be daily, weekdays or day names such as mon,wed,fri (got `\(goal)`)")
        }
    }

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        let study = diaries.study
        let rows = diaries.map { _, diary -> Adherence in
            // Dates are all adherence needs, as for `daybook streak`.
            let (snapshot, chosen) = try filters.positions(of: diary)
            let days = Set(chosen.map { snapshot.date($0).day })
            let goal = self.goal.flatMap(WritingGoal.init(parsing:)) ?? study.goal ?? diary.config.goal
            return Adherence(written: days, goal: goal, period: study.period(first: days.min(), today: diary.clock.today))
        }
        func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "" : String(format: "%.1f", Double(a) * 100 / Double(b)) }
        if let group = output.group {
            let sums = StudyDiaries.grouped(rows, by: group).map { g -> (String, [String], Int, Int, Int) in
                let members = g.members.map(\.value)
                return (g.value, g.members.map(\.participant.id), members.map(\.written).reduce(0, +), members.map(\.asked).reduce(0, +), members.map(\.kept).reduce(0, +))
            }
            if output.json {
                Terminal.out(JSONValue.object([("rows", .array(sums.map { v, ids, written, asked, kept in
                    .object([("group", .string(v)), ("participants", .array(ids.map(JSONValue.string))), ("written", .int(written)),
                             ("asked", .int(asked)), ("kept", .int(kept)), ("adherence", asked == 0 ? .null : .double(Double(kept) / Double(asked)))])
                }))]).serialized(pretty: true))
            } else {
                output.print(header: [group, "participants", "written", "asked", "kept", "adherence_%"],
                      sums.map { v, ids, written, asked, kept in [v, String(ids.count), String(written), String(asked), String(kept), percent(kept, asked)] })
            }
        } else if output.json {
            Terminal.out(JSONValue.object([("rows", .array(rows.map { p, _, a in
                var pairs = StudyDiaries.json(p)
                if case let .object(more) = a.json { pairs += more }
                return .object(pairs)
            }))]).serialized(pretty: true))
        } else {
            output.print(header: ["participant", "goal", "start", "end", "written", "asked", "kept", "adherence_%", "current", "longest"],
                  rows.map { p, _, a in [p.id, a.goal.description, a.period?.lowerBound.description ?? "", a.period?.upperBound.description ?? "",
                                         String(a.written), String(a.asked), String(a.kept), percent(a.kept, a.asked),
                                         String(a.streak?.current?.days ?? 0), String(a.streak?.longest?.days ?? 0)] })
        }
        try diaries.finish()
    }
}
