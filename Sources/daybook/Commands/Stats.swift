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
        let entries = try filters.entries(of: diary, bodies: false, parts: field != nil ? .all : by != nil ? [] : [.tags, .codings])
        let statistics = Statistics(today: diary.clock.today, mondayFirst: diary.config.weekStartsOnMonday, moodScales: diary.moodScales)
        let printer = StatsPrinter(field: field)
        if let by {
            let rows = statistics.table(entries, by: by, field: field)
            if json { Terminal.out(JSONValue.array(rows.map(\.json)).serialized(pretty: true)) }
            else if csv { printer.csv(rows) }
            else { printer.table(rows, by: by) }
        } else {
            let summary = statistics.summary(entries, field: field)
            if json { Terminal.out(summary.json.serialized(pretty: true)) }
            else if csv { printer.csv(summary) }
            else { printer.summary(summary) }
        }
    }
}
