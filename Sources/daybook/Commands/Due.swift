// `daybook due`: what the schedule of daybook.yml owes now, and since when.
import ArgumentParser
import DaybookCore
import Foundation

struct Due: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What the schedule in daybook.yml owes now and since when; exit 1 when something is overdue.",
        discussion: "An entry counts for a template when it was made from it (template: NAME) and is dated on the day owed, or within the time after a tagged entry. Exit status: 0 nothing overdue (something may be due today), 1 something is overdue, 2 an error.")

    @Option(help: ArgumentHelp("Look back this many days, today included (default 30).", valueName: "n")) var days = 30
    @Flag(help: "A JSON array, one object per scheduled template.") var json = false
    // The reminder's own flag (remind install --log): what is overdue goes to the diary's reminder log.
    @Flag(name: .customLong("remind-log"), help: .hidden) var remindLog = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if days < 1 || days > 36_600 { throw ValidationError("--days takes a number from 1 to 36600") }
    }

    func run() throws {
        let diary = try global.openDiary(needsSchedule: true, showReminders: !remindLog)
        let rules = try diary.config.requireSchedule()
        let known = Set(TemplateLibrary(folder: diary.templatesFolder).allNames)
        for r in rules where !known.contains(r.template) {
            Terminal.warning(Diagnostic(.warning, "schedule: there is no template `\(r.template)` (daybook template ls lists them)",
                                        at: SourceLocation(path: diary.displayPath("daybook.yml"), line: r.line)))
        }
        var diagnostics: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &diagnostics, bodies: false)
        Terminal.warnings(diagnostics)
        let owed = Owed.compute(rules, entries: entries, now: diary.clock.nowLocal, days: days)
        if json {
            Terminal.out(JSONValue.array(owed.map(\.json)).serialized(pretty: true))
        } else if rules.isEmpty {
            global.confirm("daybook: daybook.yml has no schedule (see man daybook-due)")
        } else {
            let width = owed.map(\.rule.template.count).max() ?? 0
            var lines = owed.map { Due.line($0, width: width) }
            for o in owed {
                for f in o.follows {
                    let when = String(format: "%@ %02d:%02d", f.by.day.description, f.by.hour, f.by.minute)
                    lines.append("  \(o.rule.template): after \(f.id) \"\(TerminalText.shown(f.title))\", \(f.overdue ? "overdue since" : "due by") \(when)")
                }
            }
            lines.forEach { Terminal.out($0) }
            if remindLog, owed.contains(where: \.overdue) { try ReminderLog.record(lines.filter { $0.contains("overdue") }, in: diary) }
        }
        if owed.contains(where: \.overdue) { throw ExitCode(1) }
    }

    static func line(_ o: Owed, width: Int) -> String {
        var parts: [String] = []
        if let since = o.since {
            parts.append(Terminal.bold("overdue") + " since \(since) (\(o.missed.count) day\(o.missed.count == 1 ? "" : "s") missed)")
        }
        if o.dueToday { parts.append("due today") }
        if o.metToday { parts.append("written today") }
        let open = o.follows.filter { !$0.overdue }.count, late = o.follows.count - open
        if late > 0 { parts.append(Terminal.bold("overdue") + " after \(late) tagged entr\(late == 1 ? "y" : "ies")") }
        if open > 0 { parts.append("due after \(open) tagged entr\(open == 1 ? "y" : "ies")") }
        if parts.isEmpty { parts.append("nothing owed") }
        let adherence = o.owed == 0 ? "" : Terminal.dim("  kept \(o.kept)/\(o.owed) (\(o.kept * 100 / o.owed) %)")
        return o.rule.template.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + parts.joined(separator: "; ") + adherence
    }
}
