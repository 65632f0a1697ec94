// How stats look: an aligned summary with a sparkline, a table per period, or CSV.
import DaybookCore
import Foundation

struct StatsPrinter {
    var field: String?

    static let bars = Array("▁▂▃▄▅▆▇█")

    /// Entries per week as bars scaled to the busiest week; `·` is a week without entries.
    static func sparkline(_ counts: [Int]) -> String {
        let top = max(counts.max() ?? 0, 1)
        return String(counts.map { n in n == 0 ? "·" : bars[min(bars.count - 1, (n * bars.count - 1) / top)] })
    }

    /// A number for people (one decimal), or for programs (`precise`: every digit, empty when none).
    static func number(_ d: Double?, precise: Bool = false) -> String {
        guard let d else { return precise ? "" : "–" }
        if d == d.rounded() && abs(d) < 1e15 { return String(Int(d)) }
        return precise ? String(d) : String(format: "%.1f", d)
    }

    func summary(_ s: Statistics.Summary, schedule: [Owed] = []) {
        func row(_ label: String, _ value: String) {
            Terminal.out(Terminal.bold(label.padding(toLength: 14, withPad: " ", startingAt: 0)) + value)
        }
        func when(_ d: LocalDateTime?) -> String {
            d.map { String(format: "%@ %02d:%02d", $0.day.description, $0.hour, $0.minute) } ?? "–"
        }
        row("entries", String(s.entries))
        row("days written", String(s.days))
        row("words", "\(s.words) (\(StatsPrinter.number(s.wordsPerEntry)) per entry)")
        row("first", when(s.first))
        row("last", when(s.last))
        row("last 7 days", "\(s.last7Days) \(s.last7Days == 1 ? "entry" : "entries")")
        // Which scale: an emotion entry's 8/10 is in the average as 4.1 on the diary's 1–5.
        row("mood", "\(StatsPrinter.number(s.mood.value)) average; this week \(StatsPrinter.number(s.moodThisWeek.value)), last week \(StatsPrinter.number(s.moodLastWeek.value)) (on the diary's scale \(s.moodScale.lowerBound)–\(s.moodScale.upperBound))")
        if let f = s.field {
            if f.isNumeric || f.entries == 0 {
                row(f.key, "\(StatsPrinter.number(f.values.value)) average, min \(StatsPrinter.number(f.values.min)), max \(StatsPrinter.number(f.values.max)) (\(f.values.count) entries)")
            } else {
                let top = f.ranked.prefix(10).map { "\(TerminalText.shown($0.value)) \($0.entries)" }.joined(separator: ", ")
                let more = f.counts.count > 10 ? ", \(f.counts.count - 10) more" : ""
                row(f.key, top + more + " (\(f.entries) \(f.entries == 1 ? "entry" : "entries"))")
            }
            if f.notAnswered + f.notAsked > 0 { row("", "not answered \(f.notAnswered), not asked \(f.notAsked)") }
        }
        row("tags", s.tags.isEmpty ? "–" : s.tags.map { Terminal.accent("#" + $0.name) + " \($0.entries)" }.joined(separator: ", "))
        row("codes", s.codes.isEmpty ? "–" : s.codes.map { "\($0.name) \($0.entries)" }.joined(separator: ", "))
        if !schedule.isEmpty {
            row("schedule", schedule.map { o in
                o.owed == 0 ? "\(o.rule.template) –" : "\(o.rule.template) \(o.kept)/\(o.owed) (\(o.kept * 100 / o.owed) %)"
            }.joined(separator: ", "))
        }
        if let start = s.weeksStart {
            row("weeks", StatsPrinter.sparkline(s.weeks) + Terminal.dim("  entries per week from \(start), max \(s.weeks.max() ?? 0)"))
        }
    }

    /// The field's columns of a table: average, minimum and maximum of a numeric field; else the
    /// entries holding each value, most frequent overall first (`limit` of them, then `other`).
    struct FieldColumns {
        var numeric: Bool
        var values: [String] = []
        var other = false

        init(_ rows: [Statistics.Row], limit: Int?) {
            var all = FieldTally("")
            for r in rows { if let f = r.field { all.hasText = all.hasText || f.hasText; for (v, n) in f.counts { all.counts[v, default: 0] += n } } }
            numeric = !all.hasText
            guard !numeric else { return }
            let ranked = all.ranked.map(\.value)
            values = limit.map { Array(ranked.prefix($0)) } ?? ranked
            other = ranked.count > values.count
        }

        func names(_ key: String) -> [String] {
            numeric ? ["\(key) avg", "\(key) min", "\(key) max"] : values.map { "\(key)=\($0)" } + (other ? ["\(key)=other"] : [])
        }

        func cells(_ f: FieldTally, precise: Bool) -> [String] {
            if numeric { return [f.values.value, f.values.min, f.values.max].map { StatsPrinter.number($0, precise: precise) } }
            let shown = values.map { f.counts[$0] ?? 0 }
            let rest = f.counts.filter { !values.contains($0.key) }.values.reduce(0, +)
            return shown.map(String.init) + (other ? [String(rest)] : [])
        }
    }

    func columns(_ fields: FieldColumns?) -> [String] {
        ["entries", "words", "mood"] + (field.flatMap { key in fields?.names(key) } ?? [])
    }

    func values(_ r: Statistics.Row, _ fields: FieldColumns?, precise: Bool = false) -> [String] {
        var v = [String(r.entries), String(r.words), StatsPrinter.number(r.mood.value, precise: precise)]
        if let f = r.field, let fields { v += fields.cells(f, precise: precise) }
        return v
    }

    func table(_ rows: [Statistics.Row], by: Period) {
        let fields = field.map { _ in FieldColumns(rows, limit: 6) }
        let header = [by.rawValue] + columns(fields).map(TerminalText.shown)
        let cells = rows.map { [$0.period] + values($0, fields) }
        let widths = header.indices.map { i in ([header[i]] + cells.map { $0[i] }).map(\.count).max() ?? 0 }
        func line(_ items: [String]) -> String {
            items.enumerated().map { i, s in
                let pad = String(repeating: " ", count: widths[i] - s.count)
                return i == 0 ? s + pad : pad + s // periods left, numbers right
            }.joined(separator: "  ")
        }
        Terminal.out(Terminal.bold(line(header)))
        for (r, c) in zip(rows, cells) { Terminal.out(r.entries == 0 ? Terminal.dim(line(c)) : line(c)) }
    }

    func csv(_ rows: [Statistics.Row]) {
        let fields = field.map { _ in FieldColumns(rows, limit: nil) }
        Terminal.out((["period", "start"] + columns(fields).map { CSV.field($0.replacingOccurrences(of: " ", with: "_")) }).joined(separator: ","))
        for r in rows {
            Terminal.out(([CSV.field(r.period), r.start?.description ?? ""] + values(r, fields, precise: true)).joined(separator: ","))
        }
    }

    func csv(_ s: Statistics.Summary, schedule: [Owed] = []) {
        var pairs: [(String, String)] = [
            ("entries", String(s.entries)), ("days", String(s.days)), ("words", String(s.words)),
            ("words_per_entry", StatsPrinter.number(s.wordsPerEntry, precise: true)),
            ("first", s.first?.description ?? ""), ("last", s.last?.description ?? ""), ("last_7_days", String(s.last7Days)),
            ("mood_average", StatsPrinter.number(s.mood.value, precise: true)),
            ("mood_this_week", StatsPrinter.number(s.moodThisWeek.value, precise: true)),
            ("mood_last_week", StatsPrinter.number(s.moodLastWeek.value, precise: true)),
            ("mood_scale", MoodScales.text(s.moodScale)),
        ]
        if let f = s.field {
            if f.isNumeric || f.entries == 0 {
                pairs += [("\(f.key)_average", f.values.value), ("\(f.key)_min", f.values.min), ("\(f.key)_max", f.values.max)]
                    .map { ($0.0, StatsPrinter.number($0.1, precise: true)) }
            } else {
                pairs += f.ranked.map { ("\(f.key)=\($0.value)", String($0.entries)) }
            }
            if f.notAnswered + f.notAsked > 0 { pairs += [("\(f.key)_not_answered", String(f.notAnswered)), ("\(f.key)_not_asked", String(f.notAsked))] }
        }
        pairs += schedule.flatMap { o in [("schedule_\(o.rule.template)_owed", String(o.owed)), ("schedule_\(o.rule.template)_kept", String(o.kept))] }
        Terminal.out("measure,value")
        for (k, v) in pairs { Terminal.out(CSV.field(k) + "," + CSV.field(v)) }
    }
}

/// One CSV field (RFC 4180), as every CSV daybook writes.
enum CSV {
    static func field(_ s: String) -> String { CSVExport.field(s) }
}
