// `schedule:` of daybook.yml: which template is owed on which days, or after which entries, and
// what is owed now (`daybook due`).
import Foundation
import Yams

/// One template's schedule. A day rule (`every`, `weeks`, `nth`, `from`, `to`, `except`) owes one
/// entry made from the template on each day it names; an `after` rule owes one within some hours
/// after each entry with a tag (a memo after each fieldwork session).
public struct ScheduleRule: Equatable, Sendable {
    public var template: String
    /// The rule's line in daybook.yml, for messages.
    public var line: Int?
    public var every: WritingGoal = .daily
    /// Only in odd or even ISO weeks (every other week).
    public var weeks: WeekParity?
    /// The Nth weekday of a month (`first monday`, `last friday`): (1…5 or -1 for the last, weekday 1 = Sunday).
    public var nth: NthWeekday?
    public var from: LocalDay?
    public var to: LocalDay?
    /// Days off (holidays): single days and ranges.
    public var except: [ClosedRange<LocalDay>] = []
    public var after: AfterTag?

    public enum WeekParity: String, Equatable, Sendable { case odd, even }

    public struct NthWeekday: Equatable, Sendable {
        public var n: Int
        public var weekday: Int
    }

    public struct AfterTag: Equatable, Sendable {
        public var tag: String
        public var seconds: Int
    }

    /// Whether a day rule owes an entry on `day` (an `after` rule owes none by the day).
    public func requires(_ day: LocalDay) -> Bool {
        guard after == nil else { return false }
        if let from, day < from { return false }
        if let to, day > to { return false }
        if except.contains(where: { $0.contains(day) }) { return false }
        if let weeks, (ScheduleRule.isoWeek(day) % 2 == 1) != (weeks == .odd) { return false }
        if let nth {
            guard day.weekday == nth.weekday else { return false }
            if nth.n == -1 { return day.adding(days: 7).month != day.month }
            return (day.day - 1) / 7 + 1 == nth.n
        }
        return every.requires(weekday: day.weekday)
    }

    /// The ISO 8601 week number: weeks start on Monday, week 1 holds the year's first Thursday.
    static func isoWeek(_ day: LocalDay) -> Int {
        let isoWeekday = (day.weekday + 5) % 7 + 1   // Monday 1 … Sunday 7
        let thursday = day.adding(days: 4 - isoWeekday)
        let jan1 = LocalDay(year: thursday.year, month: 1, day: 1) ?? thursday
        return (thursday.ordinal - jan1.ordinal) / 7 + 1
    }
}

public enum Schedule {
    static let ruleKeys = ["every", "weeks", "nth", "from", "to", "except", "after"]

    /// Parses `schedule:`, a mapping of template names to rules; every error names its line.
    static func parse(_ node: Node, path: String) throws -> [ScheduleRule] {
        func fail(_ n: Node, _ message: String) -> DaybookError { .input("schedule: " + message, at: YAML.location(of: n, path: path)) }
        guard case let .mapping(map) = node else { throw fail(node, "must map template names to rules, such as `daily: {every: weekdays}`") }
        var rules: [ScheduleRule] = []
        for (nameNode, value) in map {
            guard let name = nameNode.string, !name.isEmpty, !name.contains("/") else { throw fail(nameNode, "a template name is expected") }
            var rule = ScheduleRule(template: name, line: YAML.location(of: nameNode, path: path).line)
            // `daily: weekdays` is short for `daily: {every: weekdays}`.
            if value.scalar != nil {
                rule.every = try goal(value, name, fail)
                rules.append(rule)
                continue
            }
            guard case let .mapping(m) = value else { throw fail(value, "`\(name)` needs a rule, such as {every: [mon, thu]}") }
            for (k, v) in m {
                let key = k.string ?? ""
                switch key {
                case "every": rule.every = try goal(v, name, fail)
                case "weeks":
                    guard let p = v.string.flatMap({ ScheduleRule.WeekParity(rawValue: $0.lowercased()) }) else {
                        throw fail(v, "\(name).weeks must be odd or even (ISO weeks)")
                    }
                    rule.weeks = p
                case "nth": rule.nth = try nth(v, name, fail)
                case "from", "to":
                    guard let d = v.string.flatMap({ LocalDay.parse(Substring($0)) }) else { throw fail(v, "\(name).\(key) must be a date YYYY-MM-DD") }
                    if key == "from" { rule.from = d } else { rule.to = d }
                case "except":
                    let items: [Node]
                    if case let .sequence(seq) = v { items = Array(seq) } else { items = [v] }
                    for item in items {
                        let text = item.string ?? ""
                        let ends = text.components(separatedBy: "..").map { LocalDay.parse(Substring($0.trimmingCharacters(in: .whitespaces))) }
                        guard (1...2).contains(ends.count), let a = ends.first ?? nil, let b = ends.last ?? nil, a <= b else {
                            throw fail(item, "\(name).except takes dates YYYY-MM-DD and ranges YYYY-MM-DD..YYYY-MM-DD (got `\(text)`)")
                        }
                        rule.except.append(a...b)
                    }
                case "after":
                    guard case let .mapping(a) = v, let tagNode = a["tag"], let tag = tagNode.string, Tag.isValid(Tag.normalize(tag)) else {
                        throw fail(v, "\(name).after needs a tag and a time, such as {tag: fieldwork, within: 24h}")
                    }
                    for (ak, _) in a where !["tag", "within"].contains(ak.string ?? "") {
                        throw fail(ak, "unknown key `\(name).after.\(ak.string ?? "?")` (known: tag, within)")
                    }
                    let within = a["within"]
                    guard let seconds = within.flatMap({ Schedule.duration($0.string ?? "") }) else {
                        throw fail(within ?? v, "\(name).after.within must be a time such as 24h, 90m or 2d")
                    }
                    rule.after = .init(tag: Tag.normalize(tag), seconds: seconds)
                default:
                    let close = ruleKeys.min { editDistance($0, key) < editDistance($1, key) } ?? ""
                    throw fail(k, "unknown key `\(name).\(key)`" + (editDistance(close, key) <= 2 ? " (did you mean `\(close)`?)" : "") + " (known: \(ruleKeys.joined(separator: ", ")))")
                }
            }
            if rule.after != nil, m.contains(where: { ["every", "weeks", "nth"].contains($0.key.string ?? "") }) {
                throw fail(value, "`\(name)`: `after` owes an entry after each tagged one, and cannot be combined with every, weeks or nth")
            }
            if rule.nth != nil, m["every"] != nil { throw fail(value, "`\(name)`: give nth or every, not both") }
            if let f = rule.from, let t = rule.to, t < f { throw fail(value, "`\(name)`: to is before from") }
            rules.append(rule)
        }
        return rules
    }

    static func goal(_ v: Node, _ name: String, _ fail: (Node, String) -> DaybookError) throws -> WritingGoal {
        let text: String
        if case let .sequence(seq) = v { text = seq.compactMap(\.string).joined(separator: ",") } else { text = v.string ?? "" }
        let t = text.lowercased() == "day" ? "daily" : text
        guard let g = WritingGoal(parsing: t) else { throw fail(v, "\(name).every must be day, weekdays or days such as [mon, thu] (got `\(text)`)") }
        return g
    }

    static let ordinals = ["first": 1, "1st": 1, "1": 1, "second": 2, "2nd": 2, "2": 2, "third": 3, "3rd": 3, "3": 3,
                           "fourth": 4, "4th": 4, "4": 4, "fifth": 5, "5th": 5, "5": 5, "last": -1]

    static func nth(_ v: Node, _ name: String, _ fail: (Node, String) -> DaybookError) throws -> ScheduleRule.NthWeekday {
        let words = (v.string ?? "").lowercased().split(separator: " ").map(String.init)
        guard words.count == 2, let n = ordinals[words[0]], words[1].count >= 3,
              let day = WritingGoal.names[String(words[1].prefix(3))] else {
            throw fail(v, "\(name).nth must be such as `first monday`, `2nd tue` or `last friday` (got `\(v.string ?? "")`)")
        }
        return .init(n: n, weekday: day)
    }

    /// `24h`, `90m`, `2d`, `36` (hours) → seconds.
    static func duration(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units = ["m": 60, "min": 60, "h": 3600, "d": 86_400]
        if let n = Double(t), n > 0 { return Int(n * 3600) }
        for (u, s) in units where t.hasSuffix(u) {
            if let n = Double(t.dropLast(u.count).trimmingCharacters(in: .whitespaces)), n > 0, n <= 10_000 { return Int(n * Double(s)) }
        }
        return nil
    }
}

/// What one schedule owes now.
public struct Owed: Sendable {
    /// An entry with the tag that is owed a follow-up, and by when.
    public struct Follow: Sendable {
        public var id: String
        public var title: String
        public var date: LocalDateTime
        public var by: LocalDateTime
        public var overdue: Bool
    }

    public var rule: ScheduleRule
    /// The first day of the current run of missed days (nil: the last day owed was kept).
    public var since: LocalDay?
    /// Missed days of that run.
    public var missed: [LocalDay] = []
    /// Today is owed and not yet written.
    public var dueToday = false
    /// Today is owed and written.
    public var metToday = false
    public var follows: [Follow] = []
    /// Adherence over the window: what was owed (days, or tagged entries whose time is up) and kept.
    public var owed = 0
    public var kept = 0

    public var overdue: Bool { since != nil || follows.contains { $0.overdue } }

    public var json: JSONValue {
        func day(_ d: LocalDay?) -> JSONValue { d.map { .string($0.description) } ?? .null }
        return .object([
            ("template", .string(rule.template)), ("overdue", .bool(overdue)), ("since", day(since)),
            ("missed", .array(missed.map { .string($0.description) })), ("due_today", .bool(dueToday)), ("met_today", .bool(metToday)),
            ("after", .array(follows.map { f in
                .object([("id", .string(f.id)), ("title", .string(f.title)), ("date", .string(f.date.description)),
                         ("by", .string(f.by.description)), ("overdue", .bool(f.overdue))])
            })),
            ("adherence", .object([("owed", .int(owed)), ("kept", .int(kept))])),
        ])
    }

    /// What each rule owes at `now`, looking back `days` days (today included) for misses and
    /// for tagged entries, and never before a rule's `from`.
    public static func compute(_ rules: [ScheduleRule], entries: [Entry], now: LocalDateTime, days: Int) -> [Owed] {
        let today = now.day
        let start = today.adding(days: -(max(days, 1) - 1))
        var written: [String: Set<LocalDay>] = [:]
        var made: [String: [LocalDateTime]] = [:]
        for e in entries {
            guard let t = e.template else { continue }
            written[t, default: []].insert(e.date.day)
            made[t, default: []].append(e.date)
        }
        return rules.map { rule in
            var o = Owed(rule: rule)
            if let after = rule.after {
                let answers = made[rule.template] ?? []
                for e in entries where e.template != rule.template && e.tags.contains(where: { Tag.matches($0, query: after.tag) }) && e.date.day >= start && e.date.day <= today {
                    if let from = rule.from, e.date.day < from { continue }
                    let t0 = e.date.instant, t1 = t0.addingTimeInterval(Double(after.seconds))
                    let answered = answers.contains { $0.instant >= t0 && $0.instant <= t1 }
                    let up = now.instant > t1
                    if up { o.owed += 1; if answered { o.kept += 1 } }
                    if !answered {
                        o.follows.append(Follow(id: e.id, title: e.title, date: e.date,
                                                by: LocalDateTime(instant: t1, timeZone: TimeZone(secondsFromGMT: e.date.offset) ?? .current), overdue: up))
                    }
                }
                return o
            }
            let done = written[rule.template] ?? []
            var day = start
            while day < today {
                if rule.requires(day) {
                    o.owed += 1
                    if done.contains(day) { o.kept += 1; o.since = nil; o.missed = [] } else {
                        if o.since == nil { o.since = day }
                        o.missed.append(day)
                    }
                }
                day = day.adding(days: 1)
            }
            if rule.requires(today) {
                if done.contains(today) { o.metToday = true; o.owed += 1; o.kept += 1 } else { o.dueToday = true }
            }
            return o
        }
    }
}
