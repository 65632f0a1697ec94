// `daybook ink ls`: entries with strokes, and how much ink each holds.
import ArgumentParser
import DaybookCore
import Foundation

struct InkLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "Entries with strokes, oldest first: strokes, points, pen time.",
        discussion: "Pen time is the sum of the strokes' durations (first to last point time). A broken stroke file is skipped with a warning. Exit 1 when no entry matches.")

    @OptionGroup var filters: FilterOptions
    @Flag(help: "A JSON array: id, path, date, title, strokes, points, pen_time (seconds).") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        var rows: [(Entry, StrokeFile)] = []
        for e in try filters.entries(of: diary, bodies: false, parts: .title) where e.hasInk {
            do {
                if let (file, _) = try StrokeFile.load(entry: e.path, in: diary) { rows.append((e, file)) }
            } catch let err as DaybookError {
                Terminal.warning(Diagnostic(.warning, "skipped: " + err.message, at: err.location))
            }
        }
        if json {
            Terminal.out(JSONValue.array(rows.map { e, f in
                .object([("id", .string(e.id)), ("path", .string(e.path)), ("date", .string(e.date.description)),
                         ("title", .string(e.title)), ("strokes", .int(f.strokes.count)), ("points", .int(f.pointCount)),
                         ("pen_time", .double(f.penTime / 1000))])
            }).serialized(pretty: true))
        } else {
            for (e, f) in rows {
                let time = String(format: "%02d:%02d", e.date.hour, e.date.minute)
                let n = f.strokes.count
                Terminal.out("\(Terminal.dim(e.date.day.description)) \(Terminal.dim(time))  \(TerminalText.shown(e.title))  "
                             + "\(n) stroke\(n == 1 ? "" : "s"), \(f.pointCount) points, \(InkLs.duration(f.penTime))")
            }
        }
        if rows.isEmpty { throw DaybookError.nothing("") }
    }

    /// Pen time for people: `4.2 s`, `3 min 05 s`.
    static func duration(_ ms: Double) -> String {
        let s = ms / 1000
        if s < 60 { return String(format: "%.1f s", s) }
        let whole = Int(s.rounded())
        return whole < 3600 ? String(format: "%d min %02d s", whole / 60, whole % 60) : String(format: "%d h %02d min", whole / 3600, whole / 60 % 60)
    }
}
