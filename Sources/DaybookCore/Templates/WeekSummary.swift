// The past seven days in numbers, for review templates (`{{#week}}`): entries, words, tags, codes, mood.
import Foundation

public struct WeekSummary: Equatable, Sendable {
    /// The seven days, both ends included.
    public var from: LocalDay
    public var to: LocalDay
    public var entries = 0
    public var words = 0
    /// Tags and codes with their number of entries, most used first.
    public var tags: [Count] = []
    public var codes: [Count] = []
    public var moodAverage: Double?
    /// The mood average of the seven days before, to compare against.
    public var previousMoodAverage: Double?

    public struct Count: Equatable, Sendable {
        public var name: String
        public var entries: Int
    }

    /// The seven days ending on `day` (a review written on Sunday covers Monday to Sunday).
    /// Moods are averaged on the diary's `moodScale`; a mood on a template's own scale
    /// (`templateMoodScale`, e.g. emotion's 1–10) is first mapped linearly onto it.
    public init(entries all: [Entry], endingOn day: LocalDay, moodScale: ClosedRange<Int> = 1...5,
                templateMoodScale: @escaping @Sendable (String) -> ClosedRange<Int>? = { _ in nil }) {
        to = day
        from = day.adding(days: -6)
        var tagCounts: [String: Int] = [:], codeCounts: [String: Int] = [:]
        var moods: [Double] = [], previousMoods: [Double] = []
        let scales = MoodScales(diary: moodScale, ofTemplate: templateMoodScale)
        func onDiaryScale(_ e: Entry) -> Double? { scales.onDiaryScale(e) }
        for e in all {
            let d = e.date.day
            if d >= from && d <= to {
                entries += 1
                words += e.words
                for t in e.tags { tagCounts[t, default: 0] += 1 }
                for c in Set(e.codings.map(\.code)) { codeCounts[c, default: 0] += 1 }
                if let m = onDiaryScale(e) { moods.append(m) }
            } else if d >= from.adding(days: -7) && d < from, let m = onDiaryScale(e) {
                previousMoods.append(m)
            }
        }
        tags = WeekSummary.ranked(tagCounts)
        codes = WeekSummary.ranked(codeCounts)
        moodAverage = WeekSummary.average(moods)
        previousMoodAverage = WeekSummary.average(previousMoods)
    }

    static func ranked(_ counts: [String: Int]) -> [Count] {
        counts.map { Count(name: $0.key, entries: $0.value) }
            .sorted { $0.entries != $1.entries ? $0.entries > $1.entries : $0.name < $1.name }
    }

    static func average(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// One decimal, as people read an average mood.
    static func oneDecimal(_ d: Double) -> String { String(format: "%.1f", d) }

    /// The values `{{#week}}…{{/week}}` sees: `from`, `to`, `entries`, `words`, `tags` and `codes`
    /// (lists of `name` and `entries`), and `mood` (`average`, `last_week`, `change`) when
    /// the week has moods.
    public var mustacheContext: [String: Any] {
        var o: [String: Any] = [
            "from": from.description, "to": to.description, "entries": entries, "words": words,
            "tags": tags.map { ["name": $0.name, "entries": $0.entries] as [String: Any] },
            "codes": codes.map { ["name": $0.name, "entries": $0.entries] as [String: Any] },
        ]
        if let moodAverage {
            var mood: [String: Any] = ["average": WeekSummary.oneDecimal(moodAverage)]
            if let previousMoodAverage {
                mood["last_week"] = WeekSummary.oneDecimal(previousMoodAverage)
                let change = (moodAverage - previousMoodAverage) * 10
                let rounded = change.rounded() / 10
                mood["change"] = rounded > 0 ? "+" + WeekSummary.oneDecimal(rounded) : rounded < 0 ? "−" + WeekSummary.oneDecimal(-rounded) : "±0.0"
            }
            o["mood"] = mood
        }
        return o
    }
}
