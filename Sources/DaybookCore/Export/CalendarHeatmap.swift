// The index page's calendar: one SVG per year, a square per day shaded by its number of entries.
import Foundation

enum CalendarHeatmap {
    static let cell = 10, gap = 2
    /// Shades from no entry to four or more; the count is also in each square's title.
    static let shades = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]

    static func level(_ count: Int) -> Int { min(count, 4) }

    /// The years of `days` (newest first), each as an inline SVG with weeks as columns.
    static func svg(entriesPerDay days: [LocalDay: Int], mondayFirst: Bool) -> String {
        let years = Set(days.keys.map(\.year)).sorted(by: >)
        return years.map { year(in: $0, days: days, mondayFirst: mondayFirst) }.joined(separator: "\n")
    }

    static func year(in year: Int, days: [LocalDay: Int], mondayFirst: Bool) -> String {
        guard let first = LocalDay(year: year, month: 1, day: 1), let last = LocalDay(year: year, month: 12, day: 31) else { return "" }
        let origin = first.startOfWeek(mondayFirst: mondayFirst)
        let weeks = (last.ordinal - origin.ordinal) / 7 + 1
        let step = cell + gap
        let width = 30 + weeks * step, height = 18 + 7 * step
        let total = days.filter { $0.key.year == year }.values.reduce(0, +)
        var s = "<figure class=\"heatmap\"><figcaption>\(year): \(total) entr\(total == 1 ? "y" : "ies")</figcaption>"
        // The 365 squares are hidden from assistive technology (one by one they say nothing a
        // listener can take in); the table of months after the picture is their text alternative.
        s += "<svg aria-hidden=\"true\" focusable=\"false\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" xmlns=\"http://www.w3.org/2000/svg\">"
        let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        for m in 1...12 {
            guard let d = LocalDay(year: year, month: m, day: 1) else { continue }
            let x = 30 + (d.ordinal - origin.ordinal) / 7 * step
            s += "<text x=\"\(x)\" y=\"10\" class=\"month\">\(monthNames[m - 1])</text>"
        }
        let rowNames = mondayFirst ? ["Mon", "", "Wed", "", "Fri", "", ""] : ["", "Mon", "", "Wed", "", "Fri", ""]
        for (r, name) in rowNames.enumerated() where !name.isEmpty {
            s += "<text x=\"0\" y=\"\(18 + r * step + cell - 1)\" class=\"weekday\">\(name)</text>"
        }
        var d = first
        while d <= last {
            let col = (d.ordinal - origin.ordinal) / 7, row = (d.ordinal - origin.ordinal) % 7
            let n = days[d] ?? 0
            s += "<rect x=\"\(30 + col * step)\" y=\"\(18 + row * step)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(shades[level(n)])\">"
            s += "<title>\(d): \(n) entr\(n == 1 ? "y" : "ies")</title></rect>"
            d = d.adding(days: 1)
        }
        s += "</svg>" + table(of: year, days: days) + "</figure>"
        return s
    }

    /// The calendar as text: the entries of each month of the year, in a table a person opens.
    static func table(of year: Int, days: [LocalDay: Int]) -> String {
        let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        var perMonth = Array(repeating: 0, count: 12), daysWritten = Array(repeating: 0, count: 12)
        for (d, n) in days where d.year == year && n > 0 { perMonth[d.month - 1] += n; daysWritten[d.month - 1] += 1 }
        var s = "<details class=\"heatmap-table\"><summary>Entries per month in \(year)</summary><table><thead><tr><th scope=\"col\">Month</th>"
        s += "<th scope=\"col\">Entries</th><th scope=\"col\">Days with an entry</th></tr></thead><tbody>"
        for m in 0..<12 {
            s += "<tr><th scope=\"row\">\(monthNames[m])</th><td>\(perMonth[m])</td><td>\(daysWritten[m])</td></tr>"
        }
        return s + "</tbody></table></details>"
    }

    /// The legend under the calendars.
    static var legend: String {
        "<p class=\"legend\">Fewer " + shades.enumerated().map { i, c in
            "<span class=\"swatch\" style=\"background:\(c)\" title=\"\(i == 4 ? "4 or more" : String(i)) entries\"></span>"
        }.joined() + " more entries per day</p>"
    }
}
