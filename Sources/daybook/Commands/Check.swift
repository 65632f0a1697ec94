// `daybook check`: validate the whole diary.
import ArgumentParser
import DaybookCore
import Foundation

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate the whole diary; exit 1 when anything is wrong.",
        discussion: """
        Checks every entry's front matter and types, dates, mood range, template fields, stroke files, \
        codings, links that lead nowhere, conflict copies left by sync and changes not yet committed. --fix repairs what is safe \
        to repair (temporary files of interrupted writes, uncommitted edits) and says what it did.
        """)

    @Flag(help: "Repair what is safe to repair.") var fix = false
    @Flag(help: "JSON Lines, one problem a line.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary(needsSchedule: true) // reported below as a problem
        let (problems, fixed) = try DiaryChecks.run(diary, fix: fix)
        for f in fixed { Terminal.message("daybook: fixed: \(f)") }
        for p in problems {
            if json {
                var o: [(String, JSONValue)] = [("severity", .string(p.severity.rawValue)), ("message", .string(p.message))]
                if let l = p.location {
                    o.append(("path", .string(l.path)))
                    if let line = l.line { o.append(("line", .int(line))) }
                    if let c = l.column { o.append(("column", .int(c))) }
                    if let line = l.endLine, let c = l.endColumn { o += [("end_line", .int(line)), ("end_column", .int(c))] }
                }
                Terminal.out(JSONValue.object(o).serialized())
            } else if let l = p.location {
                Terminal.out("\(l): \(p.severity.rawValue): \(p.message)")
            } else {
                Terminal.out("\(p.severity.rawValue): \(p.message)")
            }
        }
        if !problems.isEmpty {
            throw DaybookError.nothing("daybook: \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
        }
        global.confirm("daybook: the diary is sound")
    }
}
