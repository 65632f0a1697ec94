// `daybook study ls`: the entries of every participant, the participant as the first column.
import ArgumentParser
import DaybookCore
import Foundation

struct StudyLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the participants' entries: participant, date, time, title, tags.",
        discussion: "Participants in the order of study.yml, each one's entries oldest first. Exit status 1 when nothing matches, 2 when a participant could not be read.")

    @OptionGroup var filters: FilterOptions
    @Option(name: .customLong("columns"), help: ArgumentHelp("Columns after the participant, as `daybook ls --columns`.", valueName: "key,key,…"))
    var columnList: String?
    @Flag(help: "A JSON array of entries, each with `participant` and `attributes`.") var json = false
    @Flag(help: "CSV with a header line: participant, then the --columns (default id,date,title,tags,mood).") var csv = false
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
        if let columnList { _ = try Ls.columns(columnList) }
    }

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        let lists = diaries.map { _, diary in try filters.entries(of: diary, bodies: false) }
        let keys = try columnList.map(Ls.columns) ?? (csv ? ["id", "date", "title", "tags", "mood"] : nil)
        if json {
            Terminal.out(JSONValue.array(lists.flatMap { p, _, entries in entries.map { e -> JSONValue in
                let fields: [(String, JSONValue)]
                if let keys { fields = keys.map { ($0, e.value(at: $0) ?? .null) } }
                else if case let .object(pairs) = e.json() { fields = pairs } else { fields = [] }
                return .object(StudyDiaries.json(p) + fields)
            } }).serialized(pretty: true))
        } else if let keys, csv {
            Terminal.out((["participant"] + keys).map(CSV.field).joined(separator: ","))
            for (p, _, entries) in lists {
                for e in entries { Terminal.out(([p.id] + keys.map { e.value(at: $0).map(CSVExport.cell) ?? "" }).map(CSV.field).joined(separator: ",")) }
            }
        } else if let keys {
            ColumnTable(header: ["participant"] + keys, rows: lists.flatMap { p, _, entries in
                entries.map { e in [p.id] + keys.map { TerminalText.shown(e.value(at: $0)?.readable ?? "") } }
            }).print()
        } else {
            let width = lists.map(\.participant.id.count).max() ?? 0
            for (p, _, entries) in lists {
                for e in entries { Terminal.out(p.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Ls.line(e)) }
            }
        }
        try diaries.finish()
        if lists.allSatisfy({ $0.value.isEmpty }) { throw DaybookError.nothing("") }
    }
}
