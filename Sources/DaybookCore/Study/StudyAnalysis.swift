// The rules the study commands add on top of the single-diary ones: which participants, in which
// groups, how well each kept the protocol, and codes counted per participant.
import Foundation

extension Study {
    /// The participants named in `ids` (all when empty), in study.yml's order, that meet every
    /// attribute condition (`--attribute site=Leeds`, the syntax of `--where`).
    public func select(ids: [String], conditions: [FieldCondition]) throws -> [Participant] {
        for id in ids where !participants.contains(where: { $0.id == id }) {
            let close = participants.map(\.id).min { editDistance($0, id) < editDistance($1, id) }
            throw DaybookError.usage("no participant `\(id)` in \(Study.fileName)" + (close.map { " (did you mean `\($0)`?)" } ?? ""))
        }
        return participants.filter { p in
            (ids.isEmpty || ids.contains(p.id)) && conditions.allSatisfy { $0.holds(value: p.attribute($0.key), path: p.id) }
        }
    }

    /// Participants grouped by the value of an attribute, groups in order of first appearance;
    /// those without it form the group `(none)`.
    public static func groups(_ participants: [Participant], by key: String) -> [(value: String, members: [Participant])] {
        var order: [String] = []
        var members: [String: [Participant]] = [:]
        for p in participants {
            let v = p.attribute(key).flatMap { $0 == .null ? nil : $0.stringValue } ?? noValue
            if members[v] == nil { order.append(v) }
            members[v, default: []].append(p)
        }
        return order.map { ($0, members[$0] ?? []) }
    }

    public static let noValue = "(none)"

    /// The days the protocol covers for one participant: its start (else their first entry) to
    /// its end, never past today. Nil when it has not begun.
    public func period(first: LocalDay?, today: LocalDay) -> ClosedRange<LocalDay>? {
        guard let from = start ?? first else { return nil }
        let to = min(end ?? today, today)
        return from <= to ? from...to : nil
    }
}

/// How well a participant kept the protocol: of the days the goal asked for in the period, how
/// many had an entry; with the streaks (the single-diary rule) as of the period's last day.
public struct Adherence: Equatable, Sendable {
    public var goal: WritingGoal
    public var period: ClosedRange<LocalDay>?
    /// Days with an entry in the period, asked for or not.
    public var written = 0
    /// Days the goal asked for in the period, and of those the ones written.
    public var asked = 0
    public var kept = 0
    public var streak: Streak?

    /// Kept / asked, nil when nothing was asked.
    public var rate: Double? { asked == 0 ? nil : Double(kept) / Double(asked) }

    public init(written days: Set<LocalDay>, goal: WritingGoal, period: ClosedRange<LocalDay>?) {
        self.goal = goal
        self.period = period
        guard let period else { return }
        var day = period.lowerBound
        while day <= period.upperBound {
            let wrote = days.contains(day)
            if wrote { written += 1 }
            if goal.requires(weekday: day.weekday) {
                asked += 1
                if wrote { kept += 1 }
            }
            day = day.adding(days: 1)
        }
        streak = Streak(written: days.filter { period.contains($0) }, goal: goal, today: period.upperBound)
    }

    public var json: JSONValue {
        .object([("goal", .string(goal.description)), ("start", period.map { .string($0.lowerBound.description) } ?? .null),
                 ("end", period.map { .string($0.upperBound.description) } ?? .null), ("written", .int(written)),
                 ("asked", .int(asked)), ("kept", .int(kept)), ("adherence", rate.map(JSONValue.double) ?? .null),
                 ("current", streak?.current?.json ?? .null), ("longest", streak?.longest?.json ?? .null)])
    }
}

/// `study code stats`: per code, the totals over every participant (CodeStatistics' rule over all
/// their entries) and the codings in each participant's diary.
public struct StudyCodeTable: Sendable {
    public struct Row: Sendable {
        public var total: CodeUse
        /// Codings per participant, in the order of `participants`.
        public var codings: [Int]
    }

    public var participants: [String]
    public var rows: [Row]

    public init(_ perParticipant: [(id: String, entries: [Entry])]) {
        participants = perParticipant.map(\.id)
        let each = perParticipant.map { p in Dictionary(uniqueKeysWithValues: CodeStatistics.uses(p.entries).map { ($0.code, $0.codings) }) }
        rows = CodeStatistics.uses(perParticipant.flatMap(\.entries)).map { u in Row(total: u, codings: each.map { $0[u.code] ?? 0 }) }
    }
}
