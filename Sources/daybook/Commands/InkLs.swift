// `daybook ink ls`: entries with strokes, and how much ink each holds.
import ArgumentParser
import DaybookCore
import Foundation

struct InkLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "Entries with strokes, oldest first: strokes, points, pen time; with ENTRY, its strokes one by one.",
        discussion: "Pen time is the sum of the strokes' durations (first to last point time). A broken stroke file is skipped with a warning. With ENTRY: each stroke's number (what `ink rm` takes), tool, colour, width, points, duration and code. Exit 1 when no entry matches or ENTRY has no strokes.")

    @Argument(help: "List this entry's strokes one by one.", completion: Completions.entries) var entry: String?
    @OptionGroup var filters: FilterOptions
    @Flag(help: "A JSON array: id, path, date, title, strokes, points, pen_time (seconds); with ENTRY: number, tool, color, width, points, start, duration, code.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        if let entry { return try strokes(of: entry, in: diary) }
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

    /// One line per stroke of one entry.
    func strokes(of entry: String, in diary: Diary) throws {
        let rel = try EntryReference(diary).resolve(entry)
        let file = try Ink.strokes(of: rel, in: diary)
        func opt(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        if json {
            return Terminal.out(JSONValue.array(file.strokes.enumerated().map { i, s in
                .object([("number", .int(i + 1)), ("tool", .string(s.tool.rawValue)), ("color", opt(s.color)),
                         ("width", s.width.map(JSONValue.double) ?? .null), ("points", .int(s.points.count)),
                         ("start", opt(s.start)), ("duration", .double(s.duration / 1000)), ("code", opt(s.code))])
            }).serialized(pretty: true))
        }
        let rows = file.strokes.enumerated().map { i, s in
            [String(i + 1), s.tool.rawValue, TerminalText.shown(s.color ?? "–"), s.width.map { StatsPrinter.number($0) } ?? "–",
             String(s.points.count), InkLs.duration(s.duration), TerminalText.shown(s.code ?? "")]
        }
        ColumnTable(header: ["stroke", "tool", "colour", "width", "points", "time", "code"], rows: rows).print()
    }

    /// Pen time for people: `4.2 s`, `3 min 05 s`.
    static func duration(_ ms: Double) -> String {
        let s = ms / 1000
        if s < 60 { return String(format: "%.1f s", s) }
        let whole = Int(s.rounded())
        return whole < 3600 ? String(format: "%d min %02d s", whole / 60, whole % 60) : String(format: "%d h %02d min", whole / 3600, whole / 60 % 60)
    }
}
