// Any value of an entry by name: a front-matter key, a dotted path into a mapping, or what daybook
// knows of every entry. One rule for `ls --columns`, `--where`, `stats --field` and `fields`.
import Foundation

extension Entry {
    /// What daybook knows of every entry, beside its front matter (`ls --columns id,words`).
    public static let computedKeys = ["id", "path", "day", "time", "words", "codes", "ink"]

    /// The value named `key`: a front-matter key (`mood`, `feeling`), a path into a mapping
    /// (`location.name`) or a list (`sites.0`), or one of `computedKeys`. A key the front matter
    /// has wins over a path or a computed key of the same name. Nil when the entry has none.
    public func value(at key: String) -> JSONValue? {
        if let v = field(key) { return v }
        switch key {
        case "id": return .string(id)
        case "path": return .string(path)
        case "day": return .string(date.day.description)
        case "time": return .string(String(format: "%02d:%02d", date.hour, date.minute))
        case "words": return .int(words)
        case "codes": return codings.isEmpty ? nil : .array(Array(Set(codings.map(\.code))).sorted().map(JSONValue.string))
        case "ink": return .bool(hasInk)
        default: break
        }
        var parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, var v = field(parts.removeFirst()) else { return nil }
        for p in parts {
            switch v {
            case let .object(pairs):
                guard let next = pairs.first(where: { $0.0 == p })?.1 else { return nil }
                v = next
            case let .array(items):
                guard let i = Int(p), items.indices.contains(i) else { return nil }
                v = items[i]
            default: return nil
            }
        }
        return v
    }
}

/// The kind of a front-matter value, as `daybook fields` names it.
public enum ValueKind: String, CaseIterable, Sendable {
    case text, number, bool, date, list, mapping, empty

    public init(_ v: JSONValue) {
        switch v {
        case .null: self = .empty
        case .bool: self = .bool
        case .int, .double: self = .number
        case let .string(s): self = YAMLWriter.isTimestamp(s) ? .date : .text
        case .array: self = .list
        case .object: self = .mapping
        }
    }
}

/// Every key in use in a set of entries, with the kinds of its values and how many entries have it
/// (`daybook fields`). Mappings' keys are listed too, as dotted paths (`location.name`).
public struct FieldCensus: Sendable {
    public struct Key: Sendable {
        public var name: String
        public var entries = 0
        /// How many entries hold each kind of value.
        public var kinds: [ValueKind: Int] = [:]

        public var json: JSONValue {
            .object([("key", .string(name)), ("entries", .int(entries)),
                      ("types", .object(ValueKind.allCases.compactMap { k in kinds[k].map { (k.rawValue, .int($0)) } }))])
        }
    }

    /// In the order first met, daybook's own keys first.
    public private(set) var keys: [Key] = []
    private var index: [String: Int] = [:]

    public init(_ entries: [Entry]) {
        for e in entries {
            var seen = Set<String>()
            func note(_ name: String, _ v: JSONValue) {
                guard seen.insert(name).inserted else { return }
                let k = index[name] ?? { keys.append(Key(name: name)); index[name] = keys.count - 1; return keys.count - 1 }()
                keys[k].entries += 1
                keys[k].kinds[ValueKind(v), default: 0] += 1
            }
            note("date", .string(e.date.description))
            if !e.title.isEmpty { note("title", .string(e.title)) }
            if !e.frontTags.isEmpty { note("tags", .array(e.frontTags.map(JSONValue.string))) }
            if let m = e.mood { note("mood", .int(m)) }
            if let t = e.template { note("template", .string(t)) }
            if !e.codings.isEmpty { note("codes", .array(e.codings.map(\.json))) }
            func walk(_ name: String, _ v: JSONValue, depth: Int) {
                note(name, v)
                guard depth < 8, case let .object(pairs) = v else { return }
                for (k, sub) in pairs { walk(name + "." + k, sub, depth: depth + 1) }
            }
            for (k, v) in e.fields { walk(k, v, depth: 0) }
        }
    }
}
