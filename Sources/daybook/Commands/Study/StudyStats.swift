// `daybook study stats`: the `stats` summary for each participant (or group of them) and for all.
import ArgumentParser
import DaybookCore
import Foundation

struct StudyStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Per participant (or per group of an attribute) and for all: entries, days, words, first and last entry, mood.",
        discussion: """
        Each row is `daybook stats` of those entries. A group's or all participants' row counts the \
        entries of every member together: days are the calendar days on which any member wrote, the mood \
        average is on the first member's mood scale (each member's moods are put on it from their own diary's). \
        With --by, each participant's (or group's) table of `daybook stats --by`, then all participants'.
        """)

    @Option(help: ArgumentHelp("A table per period (day, week, month, year, weekday or hour) for each participant or group, and for all.", valueName: "period"))
    var by: Period?
    @OptionGroup var output: StudyTableOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        if let by { return try periods(by, &diaries) }
        // Each participant's entries and their tally, on every core; groups and all merge tallies.
        let read = diaries.map { _, diary in
            let entries = try filters.entries(of: diary, bodies: false, parts: Statistics.summaryParts)
            return (entries: entries, tally: Statistics(diary: diary).tally(entries))
        }
        guard !read.isEmpty else { try diaries.finish(); throw DaybookError.nothing("") }
        /// The members' summary together, on the lead's mood scale and week.
        func together(_ members: [(participant: Participant, diary: Diary, value: (entries: [Entry], tally: Statistics.Tally))]) -> Statistics.Summary {
            let lead = members[0].diary
            if let all = Statistics.merged(members.map(\.value.tally)) { return Statistics(diary: lead).summary(all) }
            return Statistics(diary: lead).summary(members.flatMap(\.value.entries))
        }
        var rows: [(label: String, head: [(String, JSONValue)], summary: Statistics.Summary)] = []
        if let group = output.group {
            for g in StudyDiaries.grouped(read, by: group) where !g.members.isEmpty {
                rows.append(("\(group)=\(g.value)", StudyStats.head(g),
                             together(g.members)))
            }
        } else {
            rows = read.map { p, diary, value in (p.id, StudyDiaries.json(p), Statistics(diary: diary).summary(value.tally)) }
        }
        let all = together(read)
        if output.json {
            Terminal.out(JSONValue.object([
                ("rows", .array(rows.map { .object($0.head + [("stats", $0.summary.json)]) })), ("all", all.json),
            ]).serialized(pretty: true))
        } else {
            let header = [output.group ?? "participant", "entries", "days", "words", "words_per_entry", "first", "last", "mood"]
            func cells(_ label: String, _ s: Statistics.Summary) -> [String] {
                [label, String(s.entries), String(s.days), String(s.words), String(format: "%.1f", s.wordsPerEntry),
                 s.first?.day.description ?? "", s.last?.day.description ?? "", s.mood.value.map { String(format: "%.2f", $0) } ?? ""]
            }
            let table = rows.map { cells($0.label, $0.summary) } + [cells("all", all)]
            output.print(header: header, table)
        }
        try diaries.finish()
        if all.entries == 0 { throw DaybookError.nothing("") }
    }

    /// A group's row in JSON: its value and its members.
    static func head<T>(_ g: (value: String, members: [(participant: Participant, diary: Diary, value: T)])) -> [(String, JSONValue)] {
        [("group", .string(g.value)), ("participants", .array(g.members.map { .string($0.participant.id) }))]
    }

    /// `--by`: a table per period for each participant (their own weeks and mood scale), or for
    /// each group and for all (in the first member's weeks, on the first member's mood scale).
    private func periods(_ by: Period, _ diaries: inout StudyDiaries) throws {
        let read = diaries.map { _, diary in try filters.entries(of: diary, bodies: false, parts: Statistics.periodParts) }
        guard !read.isEmpty else { try diaries.finish(); throw DaybookError.nothing("") }
        func together(_ members: [(participant: Participant, diary: Diary, value: [Entry])]) -> [Statistics.Row] {
            Statistics(diary: members[0].diary).table(diaries: members.map { ($0.value, $0.diary.moodScales) }, by: by)
        }
        var rows: [(label: String, head: [(String, JSONValue)], table: [Statistics.Row])] = []
        if let group = output.group {
            for g in StudyDiaries.grouped(read, by: group) where !g.members.isEmpty {
                rows.append((g.value, StudyStats.head(g),
                             together(g.members)))
            }
        } else {
            rows = read.map { p, diary, entries in (p.id, StudyDiaries.json(p), Statistics(diary: diary).table(entries, by: by)) }
        }
        let all = together(read)
        if output.json {
            Terminal.out(JSONValue.object([
                ("rows", .array(rows.map { .object($0.head + [("periods", .array($0.table.map(\.json)))]) })),
                ("all", .array(all.map(\.json))),
            ]).serialized(pretty: true))
        } else {
            let header = [output.group ?? "participant", by.rawValue] + (output.csv ? ["start"] : []) + ["entries", "words", "mood"]
            let table = (rows + [("all", [], all)]).flatMap { label, _, periods in
                periods.map { r in
                    [label, r.period] + (output.csv ? [r.start?.description ?? ""] : [])
                        + [String(r.entries), String(r.words), r.mood.value.map { String(format: "%.2f", $0) } ?? ""]
                }
            }
            output.print(header: header, table)
        }
        try diaries.finish()
        if all.allSatisfy({ $0.entries == 0 }) { throw DaybookError.nothing("") }
    }
}
