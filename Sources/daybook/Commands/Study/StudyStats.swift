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
        average is on the first member's mood scale.
        """)

    @OptionGroup var output: StudyTableOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        let read = diaries.map { _, diary in try filters.entries(of: diary, bodies: false, parts: [.tags, .codings]) }
        guard let first = read.first else { try diaries.finish(); throw DaybookError.nothing("") }
        func statistics(_ diary: Diary) -> Statistics {
            Statistics(today: diary.clock.today, mondayFirst: diary.config.weekStartsOnMonday, moodScales: diary.moodScales)
        }
        var rows: [(label: String, head: [(String, JSONValue)], summary: Statistics.Summary)] = []
        if let group = output.group {
            for g in StudyDiaries.grouped(read, by: group) {
                guard let lead = g.members.first else { continue }
                rows.append(("\(group)=\(g.value)", [("group", .string(g.value)), ("participants", .array(g.members.map { .string($0.participant.id) }))],
                             statistics(lead.diary).summary(g.members.flatMap(\.value))))
            }
        } else {
            rows = read.map { p, diary, entries in (p.id, StudyDiaries.json(p), statistics(diary).summary(entries)) }
        }
        let all = statistics(first.diary).summary(read.flatMap(\.value))
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
