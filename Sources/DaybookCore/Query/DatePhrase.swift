// Dates as people say them, in English: "yesterday 5pm", "last friday at 9am", "3 hours ago", "june 9 2013".
import Foundation

/// What a date phrase names. `DateExpression` turns it into a range (FILTERS) or a moment (`--date`).
enum DatePhrase: Equatable {
    /// A day or a period, no time of day given: "yesterday", "last week", "june 2013".
    case days(WallRange)
    /// A wall-clock time on a day: "yesterday 5pm", "noon". `precise` when seconds were given.
    case wallTime(LocalDay, secondOfDay: Int, precise: Bool)
    /// A moment counted back from now in real time: "now", "3 hours ago".
    case instant(LocalDateTime)

    static let months: [String: Int] = {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        var m: [String: Int] = ["sept": 9]
        for (i, n) in names.enumerated() {
            m[n] = i + 1
            m[String(n.prefix(3))] = i + 1
        }
        return m
    }()

    /// Reads `words` (lowercased, split on white space and commas), or nil when they are no date.
    static func parse(_ words: [String], clock: Clock, mondayFirst: Bool) -> DatePhrase? {
        var words = words
        guard !words.isEmpty else { return nil }
        if words == ["now"] || words == ["right", "now"] { return .instant(clock.nowLocal) }
        if let back = secondsAgo(words) {
            return .instant(LocalDateTime(instant: clock.now.addingTimeInterval(-Double(back)), timeZone: clock.timeZone))
        }
        // A time of day at the end ("yesterday at 5pm") or at the start ("5pm yesterday").
        var time: (second: Int, precise: Bool)?
        if let (t, used) = timeOfDay(atEndOf: words) {
            time = t
            words.removeLast(used)
            if words.last == "at" || words.last == "@" { words.removeLast() }
        } else if let (t, used) = timeOfDay(atStartOf: words) {
            time = t
            words.removeFirst(used)
        }
        if words.isEmpty {
            guard let time else { return nil }
            return .wallTime(clock.today, secondOfDay: time.second, precise: time.precise)
        }
        guard let range = days(words, clock: clock, mondayFirst: mondayFirst) else { return nil }
        guard let time else { return .days(range) }
        // A time of day belongs to one day, not to a week or a month.
        guard range.firstDay == range.lastDay else { return nil }
        return .wallTime(range.firstDay, secondOfDay: time.second, precise: time.precise)
    }

    /// "3 hours ago", "an hour ago", "90 minutes ago", "1 second ago": real time, so across a
    /// clock change the wall clock may differ by the change.
    static func secondsAgo(_ w: [String]) -> Int? {
        guard w.count == 3, w[2] == "ago" else { return nil }
        let n = ["a", "an", "one"].contains(w[0]) ? 1 : Int(w[0])
        guard let n, n >= 0 else { return nil }
        let unit = w[1].hasSuffix("s") ? String(w[1].dropLast()) : w[1]
        switch unit {
        case "second", "sec": return n
        case "minute", "min": return n * 60
        case "hour", "hr": return n * 3600
        default: return nil
        }
    }

    /// The days a day phrase names (no time of day in it).
    static func days(_ w: [String], clock: Clock, mondayFirst: Bool) -> WallRange? {
        if let r = DateExpression.dayOrPeriod(w.joined(separator: " "), clock: clock, mondayFirst: mondayFirst) { return r }
        let today = clock.today
        func one(_ d: LocalDay) -> WallRange { WallRange(days: d, d) }
        if w.count == 1, let wd = DateExpression.weekdays[w[0]] { return one(pastWeekday(wd, from: today)) }
        if w.count == 2, w[0] == "last", let wd = DateExpression.weekdays[w[1]] { return one(pastWeekday(wd, from: today)) }
        if w.count == 2, w[0] == "next", let wd = DateExpression.weekdays[w[1]] {
            var d = today.adding(days: 1)
            while d.weekday != wd { d = d.adding(days: 1) }
            return one(d)
        }
        if w.count == 3, w[0] == "in", let n = Int(w[1]), n >= 0 {
            switch w[2].hasSuffix("s") ? String(w[2].dropLast()) : w[2] {
            case "day": return one(today.adding(days: n))
            case "week": return one(today.adding(days: 7 * n))
            default: return nil
            }
        }
        if w.count == 1, let r = numericDay(w[0]) { return one(r) }
        return monthNamed(w, today: today)
    }

    /// Its most recent past day, never today (as jrnl's "Tuesday" on a Tuesday is a week ago).
    static func pastWeekday(_ wd: Int, from today: LocalDay) -> LocalDay {
        var d = today.adding(days: -1)
        while d.weekday != wd { d = d.adding(days: -1) }
        return d
    }

    /// `26/06/2099`, `3/7/2014`, `04-24-2014`, `2013/11/30`. With the year last, the month comes
    /// first as in US English (jrnl's reading of `3/7/2014` is 7 March), unless the first number
    /// cannot be a month (`26/06/2099` is 26 June).
    static func numericDay(_ s: String) -> LocalDay? {
        let sep: Character = s.contains("/") ? "/" : "-"
        let p = s.split(separator: sep, omittingEmptySubsequences: false)
        guard p.count == 3, p.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }),
              let a = Int(p[0]), let b = Int(p[1]), let c = Int(p[2]) else { return nil }
        if p[0].count == 4 { return sep == "/" ? LocalDay(year: a, month: b, day: c) : nil }
        guard p[2].count == 4, p[0].count <= 2, p[1].count <= 2 else { return nil }
        return a > 12 ? LocalDay(year: c, month: b, day: a) : LocalDay(year: c, month: a, day: b)
    }

    /// "june 9 2013", "9 june 2013", "9th of june, 2013", "june 2013", "june 9" (this year).
    static func monthNamed(_ w: [String], today: LocalDay) -> WallRange? {
        let w = w.filter { $0 != "of" && $0 != "the" }
        guard let mi = w.firstIndex(where: { months[$0] != nil }), let month = months[w[mi]] else { return nil }
        var rest = w
        rest.remove(at: mi)
        func dayNumber(_ s: String) -> Int? {
            let digits = ["st", "nd", "rd", "th"].contains(where: { s.hasSuffix($0) }) ? String(s.dropLast(2)) : s
            guard digits.count <= 2, let n = Int(digits) else { return nil }
            return n
        }
        func year(_ s: String) -> Int? { s.count == 4 ? Int(s) : nil }
        switch rest.count {
        case 0: return nil // "june" alone: which June is not clear (jrnl leaves it open too)
        case 1:
            if let y = year(rest[0]) { return DateExpression.monthRange(y, month) }
            guard let d = dayNumber(rest[0]), let day = LocalDay(year: today.year, month: month, day: d) else { return nil }
            return WallRange(days: day, day)
        case 2:
            // The day stands next to the month (before or after it), the year last.
            guard let d = dayNumber(rest[0]), let y = year(rest[1]), mi <= 1,
                  let day = LocalDay(year: y, month: month, day: d) else { return nil }
            return WallRange(days: day, day)
        default: return nil
        }
    }

    /// `5pm`, `5 pm`, `4:37pm`, `9am`, `17:00`, `7:05:30`, `noon`, `midnight` at the end of `w`,
    /// with how many words it took.
    static func timeOfDay(atEndOf w: [String]) -> ((second: Int, precise: Bool), Int)? {
        if w.count >= 2, ["am", "pm", "a.m.", "p.m."].contains(w[w.count - 1]), let t = clockTime(w[w.count - 2] + w[w.count - 1]) {
            return (t, 2)
        }
        if let last = w.last, let t = clockTime(last) { return (t, 1) }
        return nil
    }

    static func timeOfDay(atStartOf w: [String]) -> ((second: Int, precise: Bool), Int)? {
        let at = w.first == "at" ? 1 : 0
        guard w.count > at + 1 else { return nil }
        if w.count > at + 2, ["am", "pm", "a.m.", "p.m."].contains(w[at + 1]), let t = clockTime(w[at] + w[at + 1]) {
            return (t, at + 2)
        }
        if let t = clockTime(w[at]) { return (t, at + 1) }
        return nil
    }

    /// One word of clock time. A bare number is no time ("2026" is a year): it needs `am`/`pm`
    /// or a colon.
    static func clockTime(_ s: String) -> (second: Int, precise: Bool)? {
        switch s {
        case "noon", "midday": return (12 * 3600, false)
        case "midnight": return (0, false)
        default: break
        }
        var s = s.replacingOccurrences(of: ".", with: "")
        var meridiem: String?
        for m in ["am", "pm"] where s.hasSuffix(m) {
            meridiem = m
            s = String(s.dropLast(2))
        }
        if let meridiem {
            let p = s.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(p.count), let h = Int(p[0]), (1...12).contains(h), p[0].count <= 2 else { return nil }
            var m = 0
            if p.count == 2 {
                guard p[1].count == 2, let mm = Int(p[1]), (0..<60).contains(mm) else { return nil }
                m = mm
            }
            let hour = h % 12 + (meridiem == "pm" ? 12 : 0)
            return (hour * 3600 + m * 60, false)
        }
        guard s.contains(":"), let sod = DateExpression.parseTimeOfDay(s) else { return nil }
        return (sod, s.split(separator: ":").count == 3)
    }
}
