// `daybook study code stats`: per code, the totals over the participants and the codings of each.
import ArgumentParser
import DaybookCore
import Foundation

struct StudyCode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Coding across the participants.",
        subcommands: [StudyCodeStats.self])
}

struct StudyCodeStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Per code: codings, entries and coders over all participants, then the codings of each participant (or group).",
        discussion: "The counts are `daybook code stats` over the participants' entries. Exit status 1 when no coding matches, 2 when a participant could not be read.")

    @OptionGroup var output: StudyTableOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        let read = diaries.map { _, diary in try filters.entries(of: diary, bodies: false, parts: [.codings]) }
        var columns = read.map { (id: $0.participant.id, entries: $0.value) }
        if let group = output.group {
            columns = StudyDiaries.grouped(read, by: group).map { g in ("\(group)=\(g.value)", g.members.flatMap(\.value)) }
        }
        let table = StudyCodeTable(columns)
        if output.json {
            let rows = table.rows.map { r in JSONValue.object([
                ("code", .string(r.total.code)), ("codings", .int(r.total.codings)), ("entries", .int(r.total.entries)),
                ("coders", .int(r.total.coders.count)), ("coder_names", .array(r.total.coders.map(JSONValue.string))),
                ("by", .object(zip(table.participants, r.codings).map { ($0, .int($1)) })),
            ]) }
            Terminal.out(JSONValue.object([(output.group == nil ? "participants" : "groups", .array(table.participants.map(JSONValue.string))),
                                           ("codes", .array(rows))]).serialized(pretty: true))
        } else {
            let header = ["code", "codings", "entries", "coders"] + table.participants
            let cells = table.rows.map { r in [r.total.code, String(r.total.codings), String(r.total.entries), String(r.total.coders.count)] + r.codings.map(String.init) }
            output.print(header: header, cells)
        }
        try diaries.finish()
        if table.rows.isEmpty { throw DaybookError.nothing("") }
    }
}
