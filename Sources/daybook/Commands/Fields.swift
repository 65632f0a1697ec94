// `daybook fields`: every front-matter key in use, the kinds of its values, how many entries have it.
import ArgumentParser
import DaybookCore
import Foundation

struct Fields: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Every front-matter key in use: the kinds of its values and how many entries have it.",
        discussion: "Keys inside mappings are listed as dotted paths (location.name), which ls --columns, --where and stats --field take. Exit status 1 when no entry matches.")

    @Flag(help: "A JSON array: key, entries, types (entries holding each kind of value).") var json = false
    @OptionGroup var filters: FilterOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let entries = try filters.entries(of: diary, bodies: false)
        if entries.isEmpty { throw DaybookError.nothing("") }
        let census = FieldCensus(entries)
        if json { return Terminal.out(JSONValue.array(census.keys.map(\.json)).serialized(pretty: true)) }
        let rows = census.keys.map { k in
            [TerminalText.shown(k.name), String(k.entries),
             ValueKind.allCases.compactMap { kind in k.kinds[kind].map { "\(kind.rawValue) \($0)" } }.joined(separator: ", ")]
        }
        ColumnTable(header: ["key", "entries", "types"], rows: rows).print()
    }
}
