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
        average is on the first member's mood scale (each member's moods are put on it from their own diary's).
        """)

    @OptionGroup var output: StudyTableOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var diaries = try StudyDiaries(options, global)
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
                rows.append(("\(group)=\(g.value)", [("group", .string(g.value)), ("participants", .array(g.members.map { .string($0.participant.id) }))],
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
}
