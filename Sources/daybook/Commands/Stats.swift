// `daybook stats`: how the writing goes: a summary, or a table per period.
import ArgumentParser
import DaybookCore
import Foundation

extension Period: ExpressibleByArgument {}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Entries, days written, words, tags, codes, mood and entries per week.",
        discussion: "Words are the words of the prose, counted from the Markdown: markup, URLs, code blocks and front matter are not words.")

    @Option(help: ArgumentHelp("A table per period: day, week, month, year, weekday or hour.", valueName: "period"))
    var by: Period?
    @Option(help: ArgumentHelp("A front-matter field (location.name too): average, minimum and maximum when its values are numbers, else the entries holding each value, most frequent first; per period with --by.", valueName: "key"),
            completion: Completions.keys)
    var field: String?
    @Flag(help: "JSON: an object, or with --by an array of periods.") var json = false
    @Flag(help: "CSV with a header line: the table, or measure,value pairs.") var csv = false
    @OptionGroup var filters: FilterOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let schedule = diary.config.schedule
        var statistics = Statistics(diary: diary)
        if field != nil { statistics.fieldsAsked = FieldsAsked(diary: diary) }
        let printer = StatsPrinter(field: field)
        // The summary of the whole diary (no filter, field or schedule) adds up the tallies kept
        // per month folder (`.daybook/cache/tallies.bin`), decoding only folders that changed.
        if by == nil, field == nil, schedule.isEmpty, let snapshot = try filters.unfiltered(diary) {
            return report(statistics.summary(snapshot.tally()), owed: [], schedule: schedule, printer)
        }
        let entries = try filters.entries(of: diary, bodies: false,
                                          parts: field != nil ? .all : by != nil ? Statistics.periodParts : Statistics.summaryParts)
        if let by {
            let rows = statistics.table(entries, by: by, field: field)
            if json { Terminal.out(JSONValue.array(rows.map(\.json)).serialized(pretty: true)) }
            else if csv { printer.csv(rows) }
            else { printer.table(rows, by: by) }
        } else {
            let summary = statistics.summary(entries, field: field)
            // Each scheduled template's adherence from the first entry selected to today, as `due` counts it.
            let owed = summary.first.map { first in
                Owed.compute(schedule, entries: entries, now: diary.clock.nowLocal, days: diary.clock.today.ordinal - first.day.ordinal + 1)
            } ?? []
            report(summary, owed: owed, schedule: schedule, printer)
        }
    }

    private func report(_ summary: Statistics.Summary, owed: [Owed], schedule: [ScheduleRule], _ printer: StatsPrinter) {
        if json {
            var o = summary.json
            if !schedule.isEmpty, case var .object(pairs) = o {
                pairs.append(("schedule", .array(owed.map { .object([("template", .string($0.rule.template)), ("owed", .int($0.owed)), ("kept", .int($0.kept))]) })))
                o = .object(pairs)
            }
            Terminal.out(o.serialized(pretty: true))
        } else if csv { printer.csv(summary, schedule: owed) }
        else { printer.summary(summary, schedule: owed) }
    }
}
