// What a daylight-saving change did to a local time given without an offset: skipped or repeated.
import Foundation

/// Made by `LocalDateTime.resolving`; commands report it on stderr (imports as a warning), so a
/// time is never moved or chosen silently.
public struct ClockChange: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The clocks went forward over the time: it does not exist and was moved forward.
        case skipped
        /// The clocks went back over the time: it happened twice and the first was taken.
        case repeated
    }

    public let kind: Kind
    /// The time as given (for `skipped`, with the offset from before the change).
    public let asked: LocalDateTime
    public let taken: LocalDateTime
    /// The occurrence not taken (for `repeated`).
    public let other: LocalDateTime?
    public let timeZone: TimeZone

    /// `2026-03-29 02:30 does not exist in Europe/Vienna (…): moved forward to 03:30, …`.
    public var description: String {
        let zone = timeZone.identifier
        switch kind {
        case .skipped:
            let gap = (taken.offset - asked.offset) / 60
            let length = gap == 60 ? "an hour" : "\(gap) minutes"
            return "\(ClockChange.wall(asked)) does not exist in \(zone) (the clocks go forward \(length) then): "
                + "moved forward to \(ClockChange.clock(taken)), \(taken)"
        case .repeated:
            return "\(ClockChange.wall(asked)) happens twice in \(zone) (the clocks go back then): "
                + "took the first, \(taken)" + (other.map { ", not \($0)" } ?? "")
        }
    }

    static func wall(_ t: LocalDateTime) -> String { "\(t.day) \(clock(t))" }

    static func clock(_ t: LocalDateTime) -> String {
        LocalDay.padded(t.hour, 2) + ":" + LocalDay.padded(t.minute, 2) + (t.second == 0 ? "" : ":" + LocalDay.padded(t.second, 2))
    }
}
