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
    @Flag(help: "A JSON array of entries.") var json = false
    @Flag(help: "Newest first.") var reverse = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        var entries = try filters.entries(of: diary, bodies: false)
        if reverse { entries.reverse() }
        if json {
            Terminal.out(JSONValue.array(entries.map { $0.json() }).serialized(pretty: true))
        } else if nul {
            for e in entries { Terminal.out(diary.displayPath(e.path), terminator: "\0") }
        } else if paths {
            for e in entries { Terminal.out(diary.displayPath(e.path)) }
        } else {
            for e in entries {
                let time = String(format: "%02d:%02d", e.date.hour, e.date.minute)
                var line = "\(Terminal.dim(e.date.day.description)) \(Terminal.dim(time))  \(TerminalText.shown(e.title))"
                if !e.tags.isEmpty { line += "  " + Terminal.accent(e.tags.map { "#" + $0 }.joined(separator: " ")) }
                Terminal.out(line)
            }
        }
        if entries.isEmpty { throw DaybookError.nothing("") }
    }
}
