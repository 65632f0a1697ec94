// FILTERS shared by the reading commands: dates, tags, codes, mood, fields, template, ink.
import Foundation

public struct EntryFilter: Sendable {
    public var from: String?
    public var to: String?
    public var on: String?
    public var tags: [String] = []
    public var anyTags: [String] = []
    public var notTags: [String] = []
    public var codes: [String] = []
    public var mood: String?
    public var wheres: [String] = []
    public var template: String?
    public var hasInk = false
    public var onThisDay = false
    /// Only favourites (`Entry.isStarred`).
    public var starred = false
    public var last: Int?

    public init() {}

    /// Whether no condition is set: every entry passes.
    public var passesEverything: Bool {
        from == nil && to == nil && on == nil && tags.isEmpty && anyTags.isEmpty && notTags.isEmpty && codes.isEmpty && mood == nil
            && wheres.isEmpty && template == nil && !hasInk && !onThisDay && !starred && last == nil
    }

    /// Checks the expressions once, so matching many entries is cheap.
    /// `expandCode` gives a code and its descendants in the codebook.
    public func compile(clock: Clock, mondayFirst: Bool, expandCode: (String) -> Set<String> = { [$0] }) throws -> CompiledFilter {
        var c = CompiledFilter()
        if let from { c.lower = try DateExpression.range(from, clock: clock, mondayFirst: mondayFirst).lower }
        if let to { c.upper = try DateExpression.range(to, clock: clock, mondayFirst: mondayFirst).upper }
        if let on {
            let r = try DateExpression.range(on, clock: clock, mondayFirst: mondayFirst)
            c.lower = max(c.lower ?? r.lower, r.lower)
            c.upper = min(c.upper ?? r.upper, r.upper)
        }
        c.tags = tags.map(Tag.normalize)
        c.anyTags = anyTags.map(Tag.normalize)
        c.notTags = notTags.map(Tag.normalize)
        c.codeSets = codes.map { expandCode($0.lowercased()) }
        if let mood { c.mood = try NumberCondition(mood, what: "--mood") }
        c.wheres = try wheres.map(FieldCondition.init)
        c.starred = starred
        c.template = template
        c.hasInk = hasInk
        if onThisDay { let t = clock.today; c.monthDay = (t.month, t.day) }
        if let last, last < 0 { throw DaybookError.usage("--last takes a number from 0") }
        c.last = last
        return c
    }
}

public struct CompiledFilter: Sendable {
    var lower: Int?
    var upper: Int?
    var tags: [String] = []
    var anyTags: [String] = []
    var notTags: [String] = []
    var codeSets: [Set<String>] = []
    var mood: NumberCondition?
    var wheres: [FieldCondition] = []
    var template: String?
    var hasInk = false
    var starred = false
    var monthDay: (Int, Int)?
    public var last: Int?

    public init() {}

    public func matches(_ e: Entry) -> Bool {
        guard matchesDate(e.date) else { return false }
        if !tags.isEmpty || !anyTags.isEmpty || !notTags.isEmpty {
            let all = e.tags
            func has(_ q: String) -> Bool { all.contains { Tag.matches($0, query: q) } }
            if !tags.allSatisfy(has) { return false }
            if !anyTags.isEmpty && !anyTags.contains(where: has) { return false }
            if notTags.contains(where: has) { return false }
        }
        for set in codeSets where !e.codings.contains(where: { c in set.contains(c.code) || set.contains { Tag.matches(c.code, query: $0) } }) {
            return false
        }
        if let mood { guard let m = e.mood, mood.holds(Double(m)) else { return false } }
        for w in wheres where !w.holds(e) { return false }
        if let template, e.template?.lowercased() != template.lowercased() { return false }
        if hasInk && !e.hasInk { return false }
        if starred && !e.isStarred { return false }
        return true
    }

    /// Whether a date passes the date conditions (--from, --to, --on, --on-this-day).
    func matchesDate(_ date: LocalDateTime) -> Bool {
        let wall = date.wallSeconds
        if let lower, wall < lower { return false }
        if let upper, wall > upper { return false }
        if let (m, d) = monthDay, date.day.month != m || date.day.day != d { return false }
        return true
    }

    /// Warnings for the entries a `--where key~regex` gave up on (grep's warning), clearing them.
    public func takeWarnings(_ diary: Diary) -> [Diagnostic] {
        wheres.flatMap { w in
            defer { w.gaveUp.items = [] }
            return w.gaveUp.items.map {
                Diagnostic(.warning, "--where `\(w.key)~\(w.value)` gave up on the value (\($0.message)): the entry may match",
                           at: SourceLocation(path: diary.displayPath($0.path)))
            }
        }
    }

    /// Whether only dates are asked about: then entries are chosen without decoding them.
    var asksOnlyDates: Bool {
        tags.isEmpty && anyTags.isEmpty && notTags.isEmpty && codeSets.isEmpty && mood == nil && wheres.isEmpty
            && template == nil && !hasInk && !starred
    }

    /// Whether every entry passes (no condition, no --last).
    var passesEverything: Bool {
        asksOnlyDates && lower == nil && upper == nil && monthDay == nil && last == nil
    }

    /// The matching entries of a date-sorted list, then the last N of them.
    public func apply(_ entries: [Entry]) -> [Entry] {
        let hits = entries.filter(matches)
        if let last { return Array(hits.suffix(last)) }
        return hits
    }

    /// What the conditions look at besides dates.
    var parts: EntryParts {
        var p: EntryParts = []
        if !tags.isEmpty || !anyTags.isEmpty || !notTags.isEmpty { p.insert(.tags) }
        if !codeSets.isEmpty { p.insert(.codings) }
        if template != nil { p.insert(.template) }
        if starred { p.insert(.fields) }
        if !wheres.isEmpty { p = .all } // a key may name any part (title, tags, template)
        return p
    }

    /// The positions in a snapshot of the matching entries, then the last N of them: for commands
    /// that need the dates alone (an entry is decoded only when a condition looks past its date).
    public func positions(_ snapshot: EntrySnapshot) -> [Int] {
        var ks = (0..<snapshot.count).filter { matchesDate(snapshot.date($0)) }
        if !asksOnlyDates { ks = ks.filter { matches(snapshot.entry($0, parts: parts)) } }
        if let last { ks = Array(ks.suffix(last)) }
        return ks
    }

    /// The matching entries of a snapshot, oldest first, then the last N of them, with the parts
    /// asked for (and those the conditions need). Conditions on dates alone are answered from the
    /// dates, so only the entries that pass are decoded.
    /// `among`: the positions a command would drop anyway once decoded (`code ls`: entries
    /// without codings), told without decoding; not used with `--last`, which counts the entries
    /// the filters pass, not those the command keeps.
    public func select(_ snapshot: EntrySnapshot, parts: EntryParts = .all, among: ((Int) -> Bool)? = nil) -> [Entry] {
        let among = last == nil ? among : nil
        var ks = (0..<snapshot.count).filter { matchesDate(snapshot.date($0)) && among?($0) ?? true }
        if asksOnlyDates {
            if let last { ks = Array(ks.suffix(last)) }
            return snapshot.entries(ks, parts: parts)
        }
        let hits = snapshot.entries(ks, parts: parts.union(self.parts)).filter(matches)
        if let last { return Array(hits.suffix(last)) }
        return hits
    }
}

/// Where a `--where key~regex` gave up (entry path, PCRE2's message), for the warning.
final class FailureLog: @unchecked Sendable {
    var items: [(path: String, message: String)] = []
    func append(_ item: (String, String)) { items.append(item) }
}

/// `3`, `>=4`, `<3`, `>2`, `<=2`, `2..4`.
public struct NumberCondition: Sendable {
    var low = -Double.infinity, high = Double.infinity
    var lowOpen = false, highOpen = false

    public init(_ text: String, what: String) throws {
        let t = text.replacingOccurrences(of: " ", with: "")
        func num(_ s: Substring) throws -> Double {
            guard let d = Double(s) else { throw DaybookError.usage("\(what): cannot read `\(text)` (use 3, >=4, <3 or 2..4)") }
            return d
        }
        if let r = t.range(of: "..") {
            low = try num(t[..<r.lowerBound]); high = try num(t[r.upperBound...])
        } else if t.hasPrefix(">=") { low = try num(t.dropFirst(2)) }
        else if t.hasPrefix("<=") { high = try num(t.dropFirst(2)) }
        else if t.hasPrefix(">") { low = try num(t.dropFirst()); lowOpen = true }
        else if t.hasPrefix("<") { high = try num(t.dropFirst()); highOpen = true }
        else if t.hasPrefix("=") { low = try num(t.dropFirst()); high = low }
        else { low = try num(Substring(t)); high = low }
    }

    public func holds(_ v: Double) -> Bool {
        (lowOpen ? v > low : v >= low) && (highOpen ? v < high : v <= high)
    }
}

/// `--where`: `key=value`, `key!=value`, `key>=n`, `key<=n`, `key>n`, `key<n`, `key~regex`, `key`;
/// the comparisons take a date (`on>=2026-11-28`) or a time of day (`start<12:00`) as well.
public struct FieldCondition: @unchecked Sendable {
    /// `day` and `time` compare a date's day number and a time's seconds after midnight, so the
    /// numbers' rule (`NumberCondition`) decides them too.
    enum Op { case present, equal, notEqual, number(NumberCondition), day(NumberCondition), time(NumberCondition), regex(Pattern) }
    public let key: String
    let op: Op
    let value: String
    /// Entries whose value the pattern gave up on (PCRE2's match limit), with its message.
    let gaveUp = FailureLog()

    public init(_ text: String) throws {
        let ops = ["!=", ">=", "<=", "=", "~", ">", "<"]
        var found: (Range<String.Index>, String)?
        for o in ops {
            if let r = text.range(of: o), found.map({ r.lowerBound < $0.0.lowerBound }) ?? true { found = (r, o) }
        }
        guard let (r, o) = found else {
            key = text.trimmingCharacters(in: .whitespaces); op = .present; value = ""
            guard !key.isEmpty else { throw DaybookError.usage("--where needs a key") }
            return
        }
        key = String(text[..<r.lowerBound]).trimmingCharacters(in: .whitespaces)
        value = String(text[r.upperBound...]).trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { throw DaybookError.usage("--where `\(text)`: the key is missing before `\(o)`") }
        switch o {
        case "=": op = .equal
        case "!=": op = .notEqual
        case "~":
            // PCRE2, as grep: its match limits stop catastrophic backtracking (`(a+)+$`), where
            // ICU's expressions ran for seconds; a value it gives up on is warned about.
            do { op = .regex(try Pattern(value, ignoreCase: true)) } catch let e as DaybookError {
                throw DaybookError.usage("--where `\(text)`: \(e.message)")
            }
        default:
            if let day = LocalDay.parse(Substring(value)) {
                op = .day(try NumberCondition(o + String(day.ordinal), what: "--where \(key)"))
            } else if let seconds = FieldCondition.secondsOfDay(value) {
                op = .time(try NumberCondition(o + String(seconds), what: "--where \(key)"))
            } else {
                guard let cond = try? NumberCondition(o + value, what: "--where \(key)") else {
                    throw DaybookError.usage("--where `\(text)`: cannot read `\(value)` after `\(o)`: compare with a number, a date (YYYY-MM-DD) or a time of day (HH:MM)")
                }
                op = .number(cond)
            }
        }
    }

    /// `H:MM` or `HH:MM:SS` as seconds after midnight.
    static func secondsOfDay(_ s: String) -> Int? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
              let h = Int(parts[0]), let m = Int(parts[1]), parts[1].count == 2, (0...23).contains(h), (0...59).contains(m) else { return nil }
        let sec = parts.count == 3 ? Int(parts[2]) : 0
        guard let sec, (0...59).contains(sec), parts.count == 2 || parts[2].count == 2 else { return nil }
        return h * 3600 + m * 60 + sec
    }

    /// A value's day: a date, or the day of a date-time.
    static func dayOrdinal(_ v: JSONValue) -> Double? {
        guard case let .string(s) = v, let day = LocalDay.parse(Substring(s.prefix(10))) else { return nil }
        return Double(day.ordinal)
    }

    /// A value's time of day: `14:00`, the time of a date-time, or the number YAML makes of an
    /// unquoted `14:00` (base 60: 840, read as minutes).
    public static func timeOfDay(_ v: JSONValue) -> Double? {
        switch v {
        case let .string(s):
            if let t = secondsOfDay(s) { return Double(t) }
            guard s.count > 11, LocalDay.parse(Substring(s.prefix(10))) != nil else { return nil }
            let rest = s.dropFirst(11).prefix { $0.isNumber || $0 == ":" }
            return secondsOfDay(String(rest)).map(Double.init)
        case let .int(minutes) where (0..<1440).contains(minutes): return Double(minutes * 60)
        default: return nil
        }
    }

    func holds(_ e: Entry) -> Bool { holds(value: e.value(at: key), path: e.path) }

    /// The condition on a value found under `key` (an entry's field, a study participant's
    /// attribute); `path` names where it came from if a pattern gives up on it.
    public func holds(value v: JSONValue?, path: String) -> Bool {
        let values: [JSONValue]
        switch v {
        case nil, .some(.null): values = []
        case let .some(.array(items)): values = items
        case let .some(other): values = [other]
        }
        switch op {
        case .present: return v != nil && v != .null
        case .equal: return values.contains { $0.stringValue?.lowercased() == value.lowercased() }
        case .notEqual: return !values.contains { $0.stringValue?.lowercased() == value.lowercased() }
        case let .number(cond): return values.contains { $0.doubleValue.map(cond.holds) ?? false }
        case let .day(cond): return values.contains { FieldCondition.dayOrdinal($0).map(cond.holds) ?? false }
        case let .time(cond): return values.contains { FieldCondition.timeOfDay($0).map(cond.holds) ?? false }
        case let .regex(re):
            return values.contains { item in
                guard var s = item.stringValue else { return false }
                let hit = s.withUTF8 { re.hasMatch(in: $0) }
                if let failure = re.takeFailure() { gaveUp.append((path, failure)) }
                return hit
            }
        }
    }
}
