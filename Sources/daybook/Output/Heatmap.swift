// The streak calendar: one column a week, one row a weekday, intensity shown by glyphs and colour.
import DaybookCore
import Foundation

struct Heatmap {
    var perDay: [LocalDay: Int]
    var today: LocalDay
    var weeks: Int
    var mondayFirst: Bool

    /// Glyphs by entries on the day: none, 1, 2, 3, 4 or more.
    static let glyphs = ["·", "░", "▒", "▓", "█"]
    /// Greens from pale to dark (256-colour palette); colour only repeats what the glyph says.
    static let colours = ["2", "38;5;151", "38;5;78", "38;5;34", "38;5;22"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func level(_ count: Int) -> Int { min(count, glyphs.count - 1) }

    /// The lines of the calendar: month names, seven weekday rows, and a legend.
    func lines() -> [String] {
        let first = today.startOfWeek(mondayFirst: mondayFirst).adding(days: -7 * (weeks - 1))
        // Month names over the week holding a month's first day (and over the first week).
        var header = Array(repeating: Character(" "), count: 4 + 2 * weeks + 2)
        for w in 0..<weeks {
            let start = first.adding(days: 7 * w)
            let monthStart = (0..<7).map { start.adding(days: $0) }.first { $0.day == 1 }
            guard let named = monthStart ?? (w == 0 ? start : nil) else { continue }
            let at = 4 + 2 * w
            if w > 0, header[at - 1] != " " { continue }
            for (k, c) in Heatmap.monthNames[named.month - 1].enumerated() where at + k < header.count { header[at + k] = c }
        }
        var out = [String(header).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)]
        for row in 0..<7 {
            let weekday = first.adding(days: row).weekday
            var line = Heatmap.dayNames[weekday - 1] + " "
            for w in 0..<weeks {
                let day = first.adding(days: 7 * w + row)
                if day > today { break }
                let level = Heatmap.level(perDay[day] ?? 0)
                line += Terminal.paint(Heatmap.glyphs[level], Heatmap.colours[level]) + " "
            }
            out.append(String(line.dropLast()))
        }
        let legend = Heatmap.glyphs.indices.map { Terminal.paint(Heatmap.glyphs[$0], Heatmap.colours[$0]) }.joined(separator: " ")
        out.append("")
        out.append("    less \(legend) more   (· none, ░ 1 entry, ▒ 2, ▓ 3, █ 4 or more)")
        return out
    }

    func print() { lines().forEach { Terminal.out($0) } }
}
