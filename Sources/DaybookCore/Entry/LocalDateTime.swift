// Dates as a diary sees them: the wall-clock time where the entry was written, plus its UTC offset.
import Foundation

/// A calendar day, independent of any time zone.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(year: year, month: month) else { return nil }
        ordinal = LocalDay.daysFromCivil(year, month, day)
    }

    public var components: (year: Int, month: Int, day: Int) { LocalDay.civil(from: ordinal) }
    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// 1 = Sunday … 7 = Saturday, as Foundation's Calendar counts.
    public var weekday: Int { ((ordinal % 7 + 7 + 4) % 7) + 1 }

    public func adding(days: Int) -> LocalDay { LocalDay(ordinal: ordinal + days) }

    /// The same day of month `months` later, clamped to the month's length.
    public func adding(months: Int) -> LocalDay {
        let (y, m, d) = components
        let total = y * 12 + (m - 1) + months
        let ny = Int((Double(total) / 12).rounded(.down)), nm = total - ny * 12 + 1
        return LocalDay(year: ny, month: nm, day: min(d, LocalDay.daysIn(year: ny, month: nm)))!
    }

    /// The first day of the week holding this day.
    public func startOfWeek(mondayFirst: Bool) -> LocalDay {
        let wd = weekday // 1 = Sunday
        let back = mondayFirst ? (wd + 5) % 7 : wd - 1
        return adding(days: -back)
    }

    public var description: String {
        let (y, m, d) = components
        return LocalDay.padded(y, 4) + "-" + LocalDay.padded(m, 2) + "-" + LocalDay.padded(d, 2)
    }

    /// A number with leading zeros to `width` digits (a minus sign before them).
    static func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(abs(n))
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (n < 0 ? "-" : "") + zeros + digits
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.ordinal < b.ordinal }

    /// Parses `YYYY-MM-DD`.
    public static func parse(_ s: Substring) -> LocalDay? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              y >= 1 else { return nil } // the calendar has no year 0000
        return LocalDay(year: y, month: m, day: d)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm: exact for the proleptic Gregorian calendar.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(from z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

/// A moment as written in an entry: local day and time of day, and the UTC offset in force there.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let day: LocalDay
    /// Seconds since local midnight.
    public let secondOfDay: Int
    /// Seconds east of UTC.
    public let offset: Int

    public init(day: LocalDay, secondOfDay: Int, offset: Int) {
        self.day = day
        self.secondOfDay = secondOfDay
        self.offset = offset
    }

    /// The moment `instant` as the wall clock in `timeZone` shows it.
    public init(instant: Date, timeZone: TimeZone) {
        let off = timeZone.secondsFromGMT(for: instant)
        let local = Int((instant.timeIntervalSince1970).rounded(.down)) + off
        let days = Int((Double(local) / 86400).rounded(.down))
        self.init(day: LocalDay(ordinal: days), secondOfDay: local - days * 86400, offset: off)
    }

    /// The wall-clock time `day` + `secondOfDay` in `timeZone`, with the offset in force then
    /// (see `resolving` for the times a daylight-saving change skips or repeats).
    public init(day: LocalDay, secondOfDay: Int, timeZone: TimeZone) {
        self = LocalDateTime.resolving(day: day, secondOfDay: secondOfDay, timeZone: timeZone).time
    }

    /// The wall-clock time `day` + `secondOfDay` in `timeZone`: the one rule (SPEC §7) for a local
    /// time that a daylight-saving change made ambiguous, with a note saying what was done.
    /// - A time the clocks skipped (02:30 when they go from 02:00 to 03:00) moves forward by the
    ///   gap, to 03:30 with the new offset, as java.time and PostgreSQL do.
    /// - A time the clocks repeat (02:30 when they go back from 03:00 to 02:00) is its first
    ///   occurrence, with the offset from before the change.
    public static func resolving(day: LocalDay, secondOfDay: Int, timeZone: TimeZone) -> (time: LocalDateTime, note: ClockChange?) {
        let wall = day.ordinal * 86400 + secondOfDay
        func offset(at instant: Int) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
        // Offsets lie within ±14 h, so the offsets in force on either side of the wall time, as
        // instants, are the only ones it can have (no zone changes twice within a day).
        let before = offset(at: wall - 14 * 3600), after = offset(at: wall + 14 * 3600)
        let fits = Set([before, after]).filter { offset(at: wall - $0) == $0 }.sorted(by: >)
        guard let first = fits.first else {
            // Read with the offset from before the gap, the instant is after it: the wall clock
            // then shows the time moved forward by the gap's length.
            let moved = LocalDateTime(instant: Date(timeIntervalSince1970: Double(wall - before)), timeZone: timeZone)
            let asked = LocalDateTime(day: day, secondOfDay: secondOfDay, offset: before)
            return (moved, ClockChange(kind: .skipped, asked: asked, taken: moved, other: nil, timeZone: timeZone))
        }
        let taken = LocalDateTime(day: day, secondOfDay: secondOfDay, offset: first)
        guard fits.count > 1 else { return (taken, nil) }
        let second = LocalDateTime(day: day, secondOfDay: secondOfDay, offset: fits[1])
        return (taken, ClockChange(kind: .repeated, asked: taken, taken: taken, other: second, timeZone: timeZone))
    }

    public var instant: Date { Date(timeIntervalSince1970: Double(wallSeconds - offset)) }

    /// Seconds since 1970-01-01 00:00 on the local wall clock (ignores the offset): what filters
    /// compare, so a day is the entry's own local day.
    public var wallSeconds: Int { day.ordinal * 86400 + secondOfDay }

    public var hour: Int { secondOfDay / 3600 }
    public var minute: Int { secondOfDay / 60 % 60 }
    public var second: Int { secondOfDay % 60 }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`, the one form daybook writes.
    public var description: String {
        let sign = offset < 0 ? "-" : "+"
        let a = abs(offset)
        return day.description + "T" + LocalDay.padded(hour, 2) + ":" + LocalDay.padded(minute, 2) + ":" + LocalDay.padded(second, 2)
            + sign + LocalDay.padded(a / 3600, 2) + ":" + LocalDay.padded(a / 60 % 60, 2)
    }

    /// `HHMM` for ids.
    public var compactTime: String { String(format: "%02d%02d", hour, minute) }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        let x = a.wallSeconds - a.offset, y = b.wallSeconds - b.offset
        return x != y ? x < y : a.wallSeconds < b.wallSeconds
    }

    /// Parses the forms a front matter `date` may take: ISO 8601 with offset (`Z` too, seconds and
    /// fractions optional), `YYYY-MM-DD HH:MM[:SS]` and `YYYY-MM-DD` (in `timeZone`).
    public static func parse(_ text: String, timeZone: TimeZone) -> LocalDateTime? {
        parseNotingClockChange(text, timeZone: timeZone)?.time
    }

    /// `parse`, and what a daylight-saving change did to a time given without an offset.
    public static func parseNotingClockChange(_ text: String, timeZone: TimeZone) -> (time: LocalDateTime, note: ClockChange?)? {
        if let t = canonical(text) { return (t, nil) }
        return parseAnyForm(text, timeZone: timeZone)
    }

    /// The form daybook writes, `YYYY-MM-DDTHH:MM:SS+HH:MM` (or `Z`), read from its bytes: the
    /// same answer as `parseAnyForm`, without its trimming and splitting. Nil for any other text.
    static func canonical(_ text: String) -> LocalDateTime? {
        var text = text
        return text.withUTF8 { b -> LocalDateTime? in
            guard b.count == 20 || b.count == 25 else { return nil }
            func digits(_ at: Int) -> Int? {
                let x = Int(b[at]) - 48, y = Int(b[at + 1]) - 48
                return (0...9).contains(x) && (0...9).contains(y) ? x * 10 + y : nil
            }
            guard b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                  let h = digits(11), let m = digits(14), let sec = digits(17), h < 24, m < 60, sec < 60,
                  // The day as `LocalDay.parse` reads it, from digits only (a sign or other text is
                  // left to `parseAnyForm`), without a String and a split per date.
                  let c = digits(0), let y = digits(2), b[4] == UInt8(ascii: "-"), let mo = digits(5),
                  b[7] == UInt8(ascii: "-"), let d = digits(8), c * 100 + y >= 1,
                  let day = LocalDay(year: c * 100 + y, month: mo, day: d)
            else { return nil }
            let offset: Int
            if b.count == 20 {
                guard b[19] == UInt8(ascii: "Z") else { return nil }
                offset = 0
            } else {
                guard b[19] == UInt8(ascii: "+") || b[19] == UInt8(ascii: "-"), b[22] == UInt8(ascii: ":"),
                      let oh = digits(20), let om = digits(23), oh <= 18, om < 60 else { return nil }
                offset = (b[19] == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
            }
            return LocalDateTime(day: day, secondOfDay: h * 3600 + m * 60 + sec, offset: offset)
        }
    }

    /// Every form `parse` takes.
    static func parseAnyForm(_ text: String, timeZone: TimeZone) -> (time: LocalDateTime, note: ClockChange?)? {
        let s = Substring(text.trimmingCharacters(in: .whitespaces))
        guard s.count >= 10, let day = LocalDay.parse(s.prefix(10)) else { return nil }
        var rest = s.dropFirst(10)
        if rest.isEmpty { return resolving(day: day, secondOfDay: 0, timeZone: timeZone) }
        guard let sep = rest.first, sep == "T" || sep == " " || sep == "t" else { return nil }
        rest = rest.dropFirst()
        // time: HH:MM[:SS[.fff]]
        let timeEnd = rest.firstIndex { !($0.isNumber || $0 == ":" || $0 == ".") } ?? rest.endIndex
        let time = rest[rest.startIndex..<timeEnd]
        let zone = rest[timeEnd...].trimmingCharacters(in: .whitespaces)
        let tparts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard tparts.count == 2 || tparts.count == 3, tparts[0].count == 2, tparts[1].count == 2,
              let h = Int(tparts[0]), let m = Int(tparts[1]), h < 24, m < 60 else { return nil }
        var sec = 0
        if tparts.count == 3 {
            let sp = tparts[2].split(separator: ".", maxSplits: 1)
            // No leap second: a day's clock has 86,400 seconds here, as in git and most tools.
            guard let first = sp.first, first.count == 2, let sv = Int(first), sv < 60 else { return nil }
            sec = sv
        }
        let sod = h * 3600 + m * 60 + sec
        if zone.isEmpty { return resolving(day: day, secondOfDay: sod, timeZone: timeZone) }
        if zone == "Z" || zone == "z" { return (LocalDateTime(day: day, secondOfDay: sod, offset: 0), nil) }
        guard let off = parseOffset(zone) else { return nil }
        return (LocalDateTime(day: day, secondOfDay: sod, offset: off), nil)
    }

    /// `+HH:MM`, `+HHMM` or `+HH`.
    static func parseOffset(_ z: String) -> Int? {
        guard let sign = z.first, sign == "+" || sign == "-" else { return nil }
        let digits = z.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isNumber), digits.count == 2 || digits.count == 4 else { return nil }
        let h = Int(digits.prefix(2))!, m = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard h <= 18, m < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }
}

/// The current time and the diary's time zone: everything that says "today" asks this.
public struct Clock: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// `DAYBOOK_NOW` when set (an ISO 8601 date-time with offset), else the date-time written in
    /// the file `DAYBOOK_NOW_FILE` names (read at every call: a test moves a running server's
    /// clock by rewriting it), else the system clock.
    public static func fromEnvironment(_ env: [String: String], timeZone: TimeZone) throws -> Clock {
        if let f = env["DAYBOOK_NOW_FILE"], !f.isEmpty, env["DAYBOOK_NOW"]?.isEmpty ?? true {
            guard let data = FileManager.default.contents(atPath: f), let s = String(data: data, encoding: .utf8),
                  let t = LocalDateTime.parse(s.trimmingCharacters(in: .whitespacesAndNewlines), timeZone: timeZone) else {
                throw DaybookError.usage("DAYBOOK_NOW_FILE: \(f) does not hold an ISO 8601 date-time")
            }
            return Clock(now: t.instant, timeZone: timeZone)
        }
        if let s = env["DAYBOOK_NOW"], !s.isEmpty {
            guard let t = LocalDateTime.parse(s, timeZone: timeZone) else {
                throw DaybookError.usage("DAYBOOK_NOW is not an ISO 8601 date-time: \(s)")
            }
            return Clock(now: t.instant, timeZone: timeZone)
        }
        return Clock(now: Date(), timeZone: timeZone)
    }

    public var nowLocal: LocalDateTime { LocalDateTime(instant: now, timeZone: timeZone) }
    public var today: LocalDay { nowLocal.day }
}
