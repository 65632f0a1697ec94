// `daybook ls`: one line per entry, oldest first.
import ArgumentParser
import DaybookCore
import Foundation

struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List entries, oldest first: date, time, title, tags.",
        discussion: "Exit status 1 when nothing matches.")

    @OptionGroup var filters: FilterOptions
    @Flag(help: "Print paths only (relative to the current directory when inside it).") var paths = false
    @Flag(name: .customShort("0"), help: "Print paths separated by NUL bytes (for xargs -0).") var nul = false
    @Flag(help: "A JSON array of entries (with --columns: of those values).") var json = false
    @Option(name: .customLong("columns"), help: ArgumentHelp(
        "Show these values as aligned columns: any front-matter key, a dotted path into a mapping (location.name), or id, path, day, time, words, codes, ink.",
        valueName: "key,key,…"), completion: Completions.keys)
    var columnList: String?
    @Flag(help: "CSV with a header line: the --columns (default id,date,title,tags,mood).") var csv = false
    @Flag(help: "Newest first.") var reverse = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if [json, csv, paths, nul].filter({ $0 }).count > 1 { throw ValidationError("choose one of --json, --csv, --paths and -0") }
        if columnList != nil && (paths || nul) { throw ValidationError("--columns goes with a table, --csv or --json, not with --paths or -0") }
        if let columnList { _ = try Ls.columns(columnList) }
    }

    static func columns(_ list: String) throws -> [String] {
        let keys = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !keys.isEmpty, !keys.contains(where: \.isEmpty) else {
            throw ValidationError("--columns `\(list)`: name the values separated by commas, e.g. date,title,mood")
        }
        return keys
    }

    func run() throws {
        let diary = try global.openDiary()
        var entries = try filters.entries(of: diary, bodies: false)
        if reverse { entries.reverse() }
        if columnList != nil || csv {
            let keys = try Ls.columns(columnList ?? "id,date,title,tags,mood")
            if json {
                Terminal.out(JSONValue.array(entries.map { e in .object(keys.map { ($0, e.value(at: $0) ?? .null) }) }).serialized(pretty: true))
            } else if csv {
                Terminal.out(keys.map(CSV.field).joined(separator: ","))
                for e in entries { Terminal.out(keys.map { CSV.field(e.value(at: $0).map(CSVExport.cell) ?? "") }.joined(separator: ",")) }
            } else {
                ColumnTable(header: keys, rows: entries.map { e in keys.map { TerminalText.shown(e.value(at: $0)?.readable ?? "") } }).print()
            }
        } else if json {
            Terminal.out(JSONValue.array(entries.map { $0.json() }).serialized(pretty: true))
        } else if nul {
            for e in entries { Terminal.out(diary.displayPath(e.path), terminator: "\0") }
        } else if paths {
            for e in entries { Terminal.out(diary.displayPath(e.path)) }
        } else {
            for e in entries { Terminal.out(Ls.line(e)) }
        }
        if entries.isEmpty { throw DaybookError.nothing("") }
    }

    /// An entry's line: date, time, title, tags.
    static func line(_ e: Entry) -> String {
        let time = String(format: "%02d:%02d", e.date.hour, e.date.minute)
        var line = "\(Terminal.dim(e.date.day.description)) \(Terminal.dim(time))  \(TerminalText.shown(e.title))"
        if !e.tags.isEmpty { line += "  " + Terminal.accent(e.tags.map { "#" + $0 }.joined(separator: " ")) }
        return line
    }
}
