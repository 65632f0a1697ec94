// `daybook tag ls`: every tag with its number of entries.
import ArgumentParser
import DaybookCore
import Foundation

struct TagLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "Every tag (front matter and inline) with its number of entries, most used first.",
        discussion: "Ties are listed by name. Exit 1 when no entry has a tag.")

    enum Sort: String, ExpressibleByArgument, CaseIterable { case count, name }

    @OptionGroup var filters: FilterOptions
    @Option(help: "count (most used first) or name.") var sort: Sort = .count
    @Flag(help: "A JSON array of {\"tag\", \"entries\"}.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        // Without filters, the tallies kept per month folder (as `stats`) give the counts.
        let counts = try filters.unfiltered(diary)?.tally().tags
            ?? Statistics(diary: diary).tally(try filters.entries(of: diary, bodies: false, parts: .tags)).tags
        let rows = counts.sorted { sort == .count && $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        if json {
            Terminal.out(JSONValue.array(rows.map { .object([("tag", .string($0.key)), ("entries", .int($0.value))]) }).serialized(pretty: true))
        } else {
            let width = String(rows.map(\.value).max() ?? 0).count
            for (tag, n) in rows { Terminal.out(String(repeating: " ", count: width - String(n).count) + "\(n) " + Terminal.accent("#" + tag)) }
        }
        if rows.isEmpty { throw DaybookError.nothing("") }
    }
}
