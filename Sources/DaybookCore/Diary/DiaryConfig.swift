// daybook.yml: the diary's settings. Unknown keys are errors, so typos do not pass silently.
import Foundation
import Yams

public enum WritingGoal: Equatable, Sendable {
    case daily
    case weekdays
    /// Named weekdays, 1 = Sunday … 7 = Saturday (Calendar's numbering).
    case days(Set<Int>)

    static let names = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

    /// `daily`, `weekdays`, or a comma-separated list of day names (`mon,wed,fri`).
    public init?(parsing text: String) {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        if t == "daily" { self = .daily; return }
        if t == "weekdays" { self = .weekdays; return }
        var days = Set<Int>()
        for part in t.split(separator: ",") {
            let p = part.trimmingCharacters(in: .whitespaces)
            guard p.count >= 3, let d = WritingGoal.names[String(p.prefix(3))] else { return nil }
            days.insert(d)
        }
        guard !days.isEmpty else { return nil }
        self = .days(days)
    }

    /// A goal as YAML writes it: `daily`, `weekdays`, `[mon, wed, fri]` or `mon,wed,fri`.
    public init?(node: Node) {
        if case let .sequence(seq) = node { self.init(parsing: seq.compactMap(\.string).joined(separator: ",")) }
        else { self.init(parsing: node.string ?? "") }
    }

    public func requires(weekday: Int) -> Bool {
        switch self {
        case .daily: return true
        case .weekdays: return weekday >= 2 && weekday <= 6
        case let .days(set): return set.contains(weekday)
        }
    }

    public var description: String {
        switch self {
        case .daily: return "daily"
        case .weekdays: return "weekdays"
        case let .days(set):
            let inv = Dictionary(uniqueKeysWithValues: WritingGoal.names.map { ($1, $0) })
            return set.sorted().compactMap { inv[$0] }.joined(separator: ",")
        }
    }
}

public struct DiaryConfig: Equatable, Sendable {
    public var name: String?
    public var timeZone: TimeZone
    public var weekStartsOnMonday = true
    public var moodMin = 1
    public var moodMax = 5
    public var goal: WritingGoal = .daily
    public var coder: String?
    public var strictCodebook = false
    /// `lsp: {commit_on_save: false}` keeps the language server from committing on save.
    public var lspCommitOnSave = true
    /// `schedule:`: which template is owed when (`daybook due`).
    public var schedule: [ScheduleRule] = []
    /// Why `schedule:` could not be read (then `schedule` is empty). A command that needs the
    /// schedule fails with it (`requireSchedule`); any other warns and carries on, so a typo
    /// there never stops `new` or `append` (issue 43).
    public var scheduleProblem: DaybookError?
    /// `transcribe:`: a command that prints the text of an audio file given as its last argument
    /// (whisper.cpp's CLI, pocketsphinx, …), run by /bin/sh; voice notes' bodies come from it.
    public var transcribe: String?

    /// The schedule, or the problem that kept it from being read.
    public func requireSchedule() throws -> [ScheduleRule] {
        if let scheduleProblem { throw scheduleProblem }
        return schedule
    }
    /// `id:`: the diary's random id (32 hexadecimal digits), made at `init`; an encrypted
    /// remote's manifests name it, so one diary's pushes are never taken for another's.
    public var id: String?

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    static let knownKeys = ["name", "timezone", "week_start", "mood", "streak", "coder", "codebook", "lsp", "schedule", "id", "transcribe"]

    /// A diary id: 32 lowercase hexadecimal digits.
    public static func isDiaryID(_ s: String) -> Bool {
        s.count == 32 && s.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// A new random diary id.
    public static func newDiaryID() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// Parses the text of daybook.yml; `path` names the file in errors.
    public static func parse(_ text: String, path: String) throws -> DiaryConfig {
        var config = DiaryConfig()
        guard let root = try YAML.compose(text, path: path) else { return config }
        guard case let .mapping(map) = root else {
            throw DaybookError.input("daybook.yml must be a mapping of settings", at: YAML.location(of: root, path: path))
        }
        func fail(_ node: Node, _ message: String) -> DaybookError {
            .input(message, at: YAML.location(of: node, path: path))
        }
        func submap(_ node: Node, _ key: String, allowed: [String]) throws -> Node.Mapping {
            guard case let .mapping(m) = node else { throw fail(node, "`\(key)` must be a mapping") }
            for (k, _) in m where !allowed.contains(k.string ?? "") {
                throw fail(k, "unknown key `\(key).\(k.string ?? "?")` (known: \(allowed.joined(separator: ", ")))")
            }
            return m
        }
        for (keyNode, value) in map {
            let key = keyNode.string ?? ""
            switch key {
            case "name":
                config.name = value.string
            case "timezone":
                guard let id = value.string, let tz = TimeZone(identifier: id) else {
                    throw fail(value, "unknown time zone `\(value.string ?? "")` (use a name such as Europe/Vienna)")
                }
                config.timeZone = tz
            case "week_start":
                switch value.string?.lowercased() {
                case "monday": config.weekStartsOnMonday = true
                case "sunday": config.weekStartsOnMonday = false
                default: throw fail(value, "week_start must be monday or sunday")
                }
            case "mood":
                let m = try submap(value, key, allowed: ["min", "max"])
                for (k, v) in m {
                    guard let n = v.int else { throw fail(v, "mood.\(k.string ?? "") must be an integer") }
                    if k.string == "min" { config.moodMin = n } else { config.moodMax = n }
                }
                if config.moodMin > config.moodMax { throw fail(value, "mood.min is larger than mood.max") }
            case "streak":
                let m = try submap(value, key, allowed: ["goal"])
                for (_, v) in m {
                    guard let g = WritingGoal(node: v) else {
                        throw fail(v, "streak.goal must be daily, weekdays or a list of days such as [mon, wed, fri]")
                    }
                    config.goal = g
                }
            case "coder":
                config.coder = value.string
            case "codebook":
                let m = try submap(value, key, allowed: ["strict"])
                for (_, v) in m {
                    guard let b = v.bool else { throw fail(v, "codebook.strict must be true or false") }
                    config.strictCodebook = b
                }
            case "lsp":
                let m = try submap(value, key, allowed: ["commit_on_save"])
                for (_, v) in m {
                    guard let b = v.bool else { throw fail(v, "lsp.commit_on_save must be true or false") }
                    config.lspCommitOnSave = b
                }
            case "schedule":
                do { config.schedule = try Schedule.parse(value, path: path) } catch let e as DaybookError { config.scheduleProblem = e }
            case "transcribe":
                guard let command = value.string, !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw fail(value, "`transcribe` is a command that prints the text of the audio file it is given, e.g. `whisper-cli -nt -m ~/models/ggml-base.en.bin -f`")
                }
                config.transcribe = command
            case "id":
                guard let id = value.string, DiaryConfig.isDiaryID(id) else {
                    throw fail(value, "`id` must be 32 hexadecimal digits (made by `daybook init`; do not edit)")
                }
                config.id = id
            default:
                let close = knownKeys.min { editDistance($0, key) < editDistance($1, key) } ?? ""
                let hint = editDistance(close, key) <= 2 ? " (did you mean `\(close)`?)" : ""
                throw fail(keyNode, "unknown key `\(key)`\(hint)")
            }
        }
        return config
    }
}

/// Levenshtein distance, for "did you mean" hints.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
