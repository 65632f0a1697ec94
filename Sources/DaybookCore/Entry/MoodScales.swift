// The scale each entry's mood is on (its template's, else the diary's), and a mood mapped onto the diary's.
import Foundation

/// A mood is kept on the scale it was given on: an entry made from a template with its own
/// `mood` field (emotion: 1–10) is on that scale, every other entry on the diary's (default 1–5).
/// Printing a mood names its own scale; averaging across entries first maps each mood linearly
/// onto the diary's scale (its lowest to the diary's lowest, its highest to the diary's highest),
/// so 8 on 1–10 counts as 4.11 on 1–5 and no average mixes scales.
public struct MoodScales: Sendable {
    public var diary: ClosedRange<Int>
    /// The scale a template's `mood` field declares, if any.
    public var ofTemplate: @Sendable (String) -> ClosedRange<Int>?

    public init(diary: ClosedRange<Int>, ofTemplate: @escaping @Sendable (String) -> ClosedRange<Int>? = { _ in nil }) {
        self.diary = diary
        self.ofTemplate = ofTemplate
    }

    /// The scale `entry`'s mood is on.
    public func scale(of entry: Entry) -> ClosedRange<Int> {
        entry.template.flatMap(ofTemplate) ?? diary
    }

    /// `entry`'s mood as every face prints it, on its own scale: `mood 7/10` for an emotion
    /// entry, `mood 4/5` on the diary's default scale; nil without a mood.
    public func label(of entry: Entry) -> String? {
        entry.mood.map { "mood \($0)/\(scale(of: entry).upperBound)" }
    }

    /// A scale as written in CSV and JSON: `1-10`.
    public static func text(_ scale: ClosedRange<Int>) -> String { "\(scale.lowerBound)-\(scale.upperBound)" }

    /// `entry`'s mood on the diary's scale, for averages; nil without a mood.
    public func onDiaryScale(_ entry: Entry) -> Double? {
        guard let m = entry.mood else { return nil }
        return onDiaryScale(m, from: scale(of: entry))
    }

    public func onDiaryScale(_ mood: Int, from own: ClosedRange<Int>) -> Double {
        onDiaryScale(Double(mood), from: own)
    }

    /// A mood (or an average of moods) on scale `own`, put on the diary's.
    public func onDiaryScale(_ mood: Double, from own: ClosedRange<Int>) -> Double {
        guard own != diary, own.count > 1 else { return mood }
        let fraction = (mood - Double(own.lowerBound)) / Double(own.upperBound - own.lowerBound)
        return Double(diary.lowerBound) + fraction * Double(diary.upperBound - diary.lowerBound)
    }
}

extension Diary {
    /// The diary's mood scale, with its templates' own scales.
    public var moodScales: MoodScales {
        let templates = templateMoodScales
        return MoodScales(diary: config.moodMin...config.moodMax, ofTemplate: { templates.scale(of: $0) })
    }
}
