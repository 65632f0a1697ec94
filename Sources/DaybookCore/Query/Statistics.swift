// Statistics of a set of entries: the summary of `stats` and its tables per period.
import Foundation

/// The periods `stats --by` groups entries into.
public enum Period: String, CaseIterable, Sendable {
    case day, week, month, year, weekday, hour
}

public struct Statistics: Sendable {
    /// Today, for "last 7 days" and "this week".
    public var today: LocalDay
    public var mondayFirst: Bool
    /// Moods are averaged on the diary's scale, each first mapped from its own (see MoodScales).
    public var moodScales: MoodScales
    /// Which template fields were not asked (their `when:` did not hold), so `--field` counts
    /// "not asked" apart from "not answered"; nil counts neither.
    public var fieldsAsked: FieldsAsked?

    public init(today: LocalDay, mondayFirst: Bool, moodScales: MoodScales = MoodScales(diary: 1...5)) {
        self.today = today
        self.mondayFirst = mondayFirst
        self.moodScales = moodScales
    }

    /// A diary's statistics: its today, its week start, its mood scales.
    public init(diary: Diary) {
        self.init(today: diary.clock.today, mondayFirst: diary.config.weekStartsOnMonday, moodScales: diary.moodScales)
    }

    /// What a summary reads of each entry besides its date, mood and words: the template tells
    /// the mood's scale (see MoodScales). Tables per period read only the template.
    public static let summaryParts: EntryParts = [.tags, .codings, .template]
    public static let periodParts: EntryParts = [.template]

    // MARK: Summary

    public struct Summary: Sendable {
        public var entries = 0
        public var days = 0
        public var words = 0
        public var first: LocalDateTime?
        public var last: LocalDateTime?
        public var last7Days = 0
        public var tags: [(name: String, entries: Int)] = []
        public var codes: [(name: String, entries: Int)] = []
        public var mood = Mean()
        public var moodThisWeek = Mean()
        public var moodLastWeek = Mean()
        /// The scale the mood averages are on: the diary's (moods on a template's own scale are
        /// mapped onto it first, see `MoodScales`).
        public var moodScale: ClosedRange<Int> = 1...5
        /// Entries per week, oldest week first, starting with the week of `weeksStart`.
        public var weeks: [Int] = []
        public var weeksStart: LocalDay?
        /// Set when a field was asked for (`--field`).
        public var field: FieldTally?

        public var wordsPerEntry: Double { entries == 0 ? 0 : Double(words) / Double(entries) }

        /// The JSON shape of SPEC §3.
        public var json: JSONValue {
            func counts(_ list: [(name: String, entries: Int)], _ key: String) -> JSONValue {
                .array(list.map { .object([(key, .string($0.name)), ("entries", .int($0.entries))]) })
            }
            var o: [(String, JSONValue)] = [
                ("entries", .int(entries)), ("days", .int(days)), ("words", .int(words)),
                ("words_per_entry", .double(wordsPerEntry)),
                ("first", first.map { .string($0.description) } ?? .null), ("last", last.map { .string($0.description) } ?? .null),
                ("last_7_days", .int(last7Days)), ("tags", counts(tags, "tag")), ("codes", counts(codes, "code")),
                ("mood", .object([("average", Statistics.json(mood.value)), ("this_week", Statistics.json(moodThisWeek.value)),
                                  ("last_week", Statistics.json(moodLastWeek.value)), ("scale", .string(MoodScales.text(moodScale)))])),
                ("weeks", .array(weeks.map(JSONValue.int))), ("weeks_start", weeksStart.map { .string($0.description) } ?? .null),
            ]
            if let field { o.append(("field", field.json)) }
            return .object(o)
        }
    }

    /// The most weeks the sparkline of a summary covers.
    public static let sparklineWeeks = 52

    /// What a summary is made from, gathered in one pass over entries. A tally does not depend on
    /// the day it is made or on the week's first day (those come in when it is summed up), and
    /// the tallies of several sets of entries merge into the tally of all of them, exactly: `study
    /// stats` merges one per participant, and `stats` one per month folder (`FolderTallies`).
    public struct Tally: Sendable, Equatable {
        var entries = 0, words = 0
        var first: LocalDateTime?, last: LocalDateTime?
        var tagCounts: [String: Int] = [:], codeCounts: [String: Int] = [:]
        /// Each day written, by its ordinal.
        var days: [Int: Day] = [:]
        var field: FieldTally?

        public init() {}

        /// One day's entries and their moods. Moods are kept on the scale each was given on, as
        /// whole numbers, so sums are exact in any order; they are put on the diary's scale when a
        /// summary is made.
        struct Day: Sendable, Equatable {
            var entries = 0
            var moods: [ScaledMoods] = []

            mutating func add(mood: Int, on scale: ClosedRange<Int>) {
                if let k = moods.firstIndex(where: { $0.scale == scale }) { moods[k].mean.add(Double(mood)) }
                else {
                    var m = Mean()
                    m.add(Double(mood))
                    moods.append(ScaledMoods(scale: scale, mean: m))
                }
            }

            mutating func add(_ other: Day) {
                entries += other.entries
                for o in other.moods {
                    if let k = moods.firstIndex(where: { $0.scale == o.scale }) { moods[k].mean.add(o.mean) } else { moods.append(o) }
                }
            }

            static func == (a: Day, b: Day) -> Bool {
                a.entries == b.entries && a.moods.sorted(by: ScaledMoods.order) == b.moods.sorted(by: ScaledMoods.order)
            }
        }

        struct ScaledMoods: Sendable, Equatable {
            var scale: ClosedRange<Int>
            var mean: Mean

            static func order(_ a: ScaledMoods, _ b: ScaledMoods) -> Bool {
                (a.scale.lowerBound, a.scale.upperBound) < (b.scale.lowerBound, b.scale.upperBound)
            }
        }

        /// The entries of `other` added to these.
        public mutating func add(_ other: Tally) {
            entries += other.entries
            words += other.words
            if let f = other.first, first.map({ f < $0 }) ?? true { first = f }
            if let l = other.last, last.map({ $0 < l }) ?? true { last = l }
            tagCounts.merge(other.tagCounts, uniquingKeysWith: +)
            codeCounts.merge(other.codeCounts, uniquingKeysWith: +)
            for (d, day) in other.days { days[d, default: Day()].add(day) }
        }

        /// Every tag with its number of entries (`tag ls`).
        public var tags: [String: Int] { tagCounts }
    }

    /// The tally of `entries`; with `field`, the field's values are tallied too.
    public func tally(_ entries: [Entry], field: String? = nil) -> Tally {
        var t = Tally()
        t.field = field.map(FieldTally.init)
        for e in entries {
            t.entries += 1
            t.words += e.words
            if t.first.map({ e.date < $0 }) ?? true { t.first = e.date }
            if t.last.map({ $0 < e.date }) ?? true { t.last = e.date }
            for tag in e.tags { t.tagCounts[tag, default: 0] += 1 }
            for c in Set(e.codings.map(\.code)) { t.codeCounts[c, default: 0] += 1 }
            var day = t.days[e.date.day.ordinal] ?? Tally.Day()
            day.entries += 1
            if let m = e.mood { day.add(mood: m, on: moodScales.scale(of: e)) }
            t.days[e.date.day.ordinal] = day
            t.field?.add(e, asked: field.flatMap { fieldsAsked?.asked($0, in: e) })
        }
        return t
    }

    /// The tally of the entries of all `tallies`. Nil when one holds a field: then only a pass over
    /// all the entries gives their summary.
    public static func merged(_ tallies: [Tally]) -> Tally? {
        guard tallies.allSatisfy({ $0.field == nil }) else { return nil }
        var all = Tally()
        for t in tallies { all.add(t) }
        return all
    }

    /// The summary of `entries`; `top` tags and codes are kept, most used first.
    public func summary(_ entries: [Entry], top: Int = 10, field: String? = nil) -> Summary {
        summary(tally(entries, field: field), top: top)
    }

    /// The summary a tally makes as of this `today` and week start, moods on this diary's scale;
    /// `top` tags and codes are kept, most used first.
    public func summary(_ t: Tally, top: Int = 10) -> Summary {
        var s = Summary()
        s.moodScale = moodScales.diary
        s.entries = t.entries
        s.words = t.words
        s.first = t.first
        s.last = t.last
        s.days = t.days.count
        s.tags = Statistics.top(t.tagCounts, top)
        s.codes = Statistics.top(t.codeCounts, top)
        let thisWeek = today.startOfWeek(mondayFirst: mondayFirst), lastWeek = thisWeek.adding(days: -7)
        var perWeek: [Int: Int] = [:]
        var all: [Tally.ScaledMoods] = [], this: [Tally.ScaledMoods] = [], last: [Tally.ScaledMoods] = []
        func gather(_ moods: [Tally.ScaledMoods], into list: inout [Tally.ScaledMoods]) {
            for m in moods {
                if let k = list.firstIndex(where: { $0.scale == m.scale }) { list[k].mean.add(m.mean) } else { list.append(m) }
            }
        }
        for (ordinal, day) in t.days {
            let d = LocalDay(ordinal: ordinal)
            if d <= today && d > today.adding(days: -7) { s.last7Days += day.entries }
            let week = d.startOfWeek(mondayFirst: mondayFirst)
            perWeek[week.ordinal, default: 0] += day.entries
            gather(day.moods, into: &all)
            if week == thisWeek { gather(day.moods, into: &this) }
            if week == lastWeek { gather(day.moods, into: &last) }
        }
        s.mood = onDiaryScale(all)
        s.moodThisWeek = onDiaryScale(this)
        s.moodLastWeek = onDiaryScale(last)
        if let first = s.first?.day, let last = s.last?.day {
            // Up to this week while the diary is alive, so a pause shows; an old selection
            // (`--on 2019`) ends at its own last week instead of a year of empty weeks.
            let lastWeek = last.startOfWeek(mondayFirst: mondayFirst)
            let end = last <= today && last > today.adding(days: -365) ? thisWeek : lastWeek
            let start = max(first.startOfWeek(mondayFirst: mondayFirst), end.adding(days: -7 * (Statistics.sparklineWeeks - 1)))
            s.weeksStart = start
            s.weeks = stride(from: start.ordinal, through: end.ordinal, by: 7).map { perWeek[$0] ?? 0 }
        }
        s.field = t.field
        return s
    }

    /// Moods given on several scales as one mean on the diary's scale, the scales taken in order
    /// (so the sum is the same whatever order the moods came in).
    func onDiaryScale(_ moods: [Tally.ScaledMoods]) -> Mean {
        var out = Mean()
        for m in moods.sorted(by: Tally.ScaledMoods.order) {
            out.add(m.scale == moodScales.diary ? m.mean : m.mean.mapped { moodScales.onDiaryScale($0, from: m.scale) })
        }
        return out
    }

    static func top(_ counts: [String: Int], _ n: Int) -> [(name: String, entries: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(n).map { ($0.key, $0.value) }
    }

    // MARK: Tables per period

    public struct Row: Sendable {
        /// The period's name: `2026-11-21`, `2026-11-16` (a week, by its first day), `2026-11`,
        /// `2026`, `Mon`, `08`.
        public var period: String
        /// The period's first day (none for weekdays and hours).
        public var start: LocalDay?
        public var entries = 0
        public var words = 0
        public var mood = Mean()
        public var field: FieldTally?

        public var json: JSONValue {
            var o: [(String, JSONValue)] = [
                ("period", .string(period)), ("start", start.map { .string($0.description) } ?? .null),
                ("entries", .int(entries)), ("words", .int(words)), ("mood", Statistics.json(mood.value)),
            ]
            if let field { o.append(("field", field.json)) }
            return .object(o)
        }
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// One row per period from the first entry's to the last entry's, empty periods included;
    /// weekdays in the diary's week order and all 24 hours.
    public func table(_ entries: [Entry], by period: Period, field: String? = nil) -> [Row] {
        table(diaries: [(entries, moodScales)], by: period, field: field)
    }

    /// The same table of several diaries' entries together (`study stats --by`), in this
    /// statistics' weeks: each diary's moods are put on its own diary's scale by its own
    /// `MoodScales`, then from there on this one's, as `summary` puts them.
    public func table(diaries: [(entries: [Entry], moodScales: MoodScales)], by period: Period, field: String? = nil) -> [Row] {
        var rows: [Int: Row] = [:]
        for (entries, scales) in diaries {
            for e in entries {
                let key = self.key(e.date, period)
                var row = rows[key] ?? emptyRow(key, period, field)
                row.entries += 1
                row.words += e.words
                if let m = scales.onDiaryScale(e) { row.mood.add(moodScales.onDiaryScale(m, from: scales.diary)) }
                row.field?.add(e, asked: field.flatMap { fieldsAsked?.asked($0, in: e) })
                rows[key] = row
            }
        }
        let keys: [Int]
        switch period {
        case .weekday: keys = (0..<7).map { ((mondayFirst ? 1 : 0) + $0) % 7 }
        case .hour: keys = Array(0..<24)
        default:
            guard let lo = rows.keys.min(), let hi = rows.keys.max() else { return [] }
            var all: [Int] = []
            var day = LocalDay(ordinal: lo)
            while day.ordinal <= hi {
                all.append(day.ordinal)
                switch period {
                case .day: day = day.adding(days: 1)
                case .week: day = day.adding(days: 7)
                case .month: day = day.adding(months: 1)
                default: day = day.adding(months: 12)
                }
            }
            keys = all
        }
        return keys.map { rows[$0] ?? emptyRow($0, period, field) }
    }

    /// The period an entry falls in: a first day's ordinal, a weekday (0 = Sunday) or an hour.
    func key(_ date: LocalDateTime, _ period: Period) -> Int {
        let d = date.day
        switch period {
        case .day: return d.ordinal
        case .week: return d.startOfWeek(mondayFirst: mondayFirst).ordinal
        case .month: return d.adding(days: 1 - d.day).ordinal
        case .year: return (LocalDay(year: d.year, month: 1, day: 1) ?? d).ordinal
        case .weekday: return d.weekday - 1
        case .hour: return date.hour
        }
    }

    func emptyRow(_ key: Int, _ period: Period, _ field: String?) -> Row {
        var row: Row
        switch period {
        case .weekday: row = Row(period: Statistics.weekdayNames[key])
        case .hour: row = Row(period: String(format: "%02d", key))
        default:
            let day = LocalDay(ordinal: key)
            let name = period == .month ? String(day.description.prefix(7)) : period == .year ? String(day.year) : day.description
            row = Row(period: name, start: day)
        }
        row.field = field.map(FieldTally.init)
        return row
    }

    // MARK: Values

    /// A value as a number (`7`, `7.5`, `"7"`); other text, lists and mappings are none.
    static func number(_ v: JSONValue) -> Double? {
        switch v {
        case let .int(i): return Double(i)
        case let .double(d): return d.isFinite ? d : nil
        case let .string(s): return Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    static func json(_ d: Double?) -> JSONValue { d.map(JSONValue.double) ?? .null }
}

/// `stats --field KEY` over a set of entries: the numbers averaged, and every value counted (the
/// entries that hold it; each option of a list apart, so a `multi` field counts each choice). A
/// field is numeric when every value it has there is a number; else its counts are what matter
/// ("most frequent feeling"). KEY is any key `ls --columns` takes (`location.name` too).
public struct FieldTally: Sendable, Equatable {
    public var key: String
    /// The values that are numbers.
    public var values = Mean()
    /// Entries holding each value, by the value as text.
    public var counts: [String: Int] = [:]
    /// Entries that have the field.
    public var entries = 0
    /// Whether some value was not a number.
    public var hasText = false
    /// Entries whose template asked for the field and have no answer.
    public var notAnswered = 0
    /// Entries whose template did not ask for the field: its `when:` did not hold.
    public var notAsked = 0

    public init(_ key: String) { self.key = key }

    public var isNumeric: Bool { !hasText && values.count > 0 }

    /// Values most frequent first (ties by name).
    public var ranked: [(value: String, entries: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Adds an entry; `asked` says whether its template asked for the field (nil: no template
    /// condition decides it, and an entry without it is neither).
    public mutating func add(_ e: Entry, asked: Bool? = nil) {
        if asked == false { notAsked += 1; return }
        guard let v = e.value(at: key), v != .null else {
            if asked == true { notAnswered += 1 }
            return
        }
        entries += 1
        let items: [JSONValue]
        if case let .array(list) = v { items = list; hasText = true } else { items = [v] }
        if items.count == 1, let n = Statistics.number(items[0]) { values.add(n) } else if !items.isEmpty { hasText = true }
        var seen = Set<String>()
        for item in items {
            let text = item.readable
            if !text.isEmpty, seen.insert(text).inserted { counts[text, default: 0] += 1 }
            if Statistics.number(item) == nil { hasText = true }
        }
    }

    /// `{key, values, average, min, max}` as before, with `entries` and `counts` (most frequent first).
    public var json: JSONValue {
        .object([("key", .string(key)), ("values", .int(values.count)), ("average", Statistics.json(values.value)),
                 ("min", Statistics.json(values.min)), ("max", Statistics.json(values.max)),
                 ("entries", .int(entries)), ("not_answered", .int(notAnswered)), ("not_asked", .int(notAsked)),
                 ("numeric", .bool(isNumeric)),
                 ("counts", .array(ranked.map { .object([("value", .string($0.value)), ("entries", .int($0.entries))]) }))])
    }
}
