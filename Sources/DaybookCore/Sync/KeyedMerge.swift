// Three-way merge of a YAML mapping key by key, in place: front matter, daybook.yml, codebook.yml.
import Foundation
import Yams

public enum KeyedMerge {
    /// How a key's values merge when both sides changed it.
    public enum Rule: Sendable {
        /// Mappings merge key by key, recursively; any other value changed on both sides conflicts.
        case value
        /// A list of tags: a set (additions and removals of both sides apply), written as a flow list.
        case tagSet
        /// A list of codings: a set, written in block style.
        case codingSet
    }

    /// Merges into `ours` what `theirs` changed since `base`, changing only the lines of merged keys.
    /// Returns the keys both sides changed differently (ours kept), or nil when a side's YAML is
    /// not a readable mapping.
    public static func merge(base: EntryText?, ours: inout EntryText, theirs: EntryText, rules: [String: Rule] = [:]) -> [String]? {
        guard let o = keys(ours), let t = keys(theirs) else { return nil }
        let b = base.flatMap(keys) ?? []
        var conflicts: [String] = []
        let names = o.map(\.0) + t.map(\.0).filter { k in !o.contains { $0.0 == k } }
        for key in names {
            let bv = lookup(b, key), ov = lookup(o, key), tv = lookup(t, key)
            if ov == tv || bv == tv { continue }
            if bv == ov {
                if tv == nil { ours.remove(key: key) } else { ours.set(key: key, lines: theirs.currentLines(of: key).map(withoutEnding)) }
                continue
            }
            switch rules[key] ?? .value {
            case .tagSet:
                let merged = setMerge(tags(bv), tags(ov), tags(tv))
                if merged != tags(ov) { ours.set(key: key, lines: [YAMLWriter.flowList(key, merged)]) }
            case .codingSet:
                let merged = setMerge(list(bv), list(ov), list(tv))
                if merged != list(ov) { ours.set(key: key, lines: codingLines(key, merged)) }
            case .value:
                guard case let .value(merged) = deepMerge(bv, ov, tv), let merged else { conflicts.append(key); continue }
                ours.set(key: key, lines: blockLines(key, merged))
            }
        }
        return conflicts
    }

    /// Merges a whole YAML file (daybook.yml, codebook.yml) the same way.
    public static func mergeDocument(base: String?, ours: String, theirs: String) -> (text: String, conflicts: [String])? {
        func wrap(_ s: String) -> EntryText { EntryText(frontMatter: EntryText.splitLines(s), body: "") }
        var merged = wrap(ours)
        guard let conflicts = merge(base: base.map(wrap), ours: &merged, theirs: wrap(theirs)) else { return nil }
        return (merged.yaml, conflicts)
    }

    /// The top-level keys and values, in order; nil when the YAML does not read as a mapping.
    static func keys(_ doc: EntryText) -> [(String, JSONValue)]? {
        let root: Node?
        do { root = try YAML.compose(doc.yaml, path: "") } catch { return nil }
        guard let root else { return [] }
        guard case let .object(pairs) = YAML.value(root) else { return nil }
        return pairs
    }

    static func lookup(_ pairs: [(String, JSONValue)], _ key: String) -> JSONValue? {
        pairs.first { $0.0 == key }?.1
    }

    enum Merged { case value(JSONValue?), conflict }

    /// A value changed on one side takes that side's value; mappings changed on both merge key by
    /// key; anything else changed differently on both sides is a conflict.
    static func deepMerge(_ b: JSONValue?, _ o: JSONValue?, _ t: JSONValue?) -> Merged {
        if o == t || b == t { return .value(o) }
        if b == o { return .value(t) }
        guard case let .object(op)? = o, case let .object(tp)? = t else { return .conflict }
        var bp: [(String, JSONValue)] = []
        if case let .object(p)? = b { bp = p }
        var out: [(String, JSONValue)] = []
        for key in op.map(\.0) + tp.map(\.0).filter({ k in !op.contains { $0.0 == k } }) {
            guard case let .value(v) = deepMerge(lookup(bp, key), lookup(op, key), lookup(tp, key)) else { return .conflict }
            if let v { out.append((key, v)) }
        }
        return .value(.object(out))
    }

    /// Items of `ours` that `theirs` did not remove, then what `theirs` added.
    static func setMerge<T: Equatable>(_ b: [T], _ o: [T], _ t: [T]) -> [T] {
        var out = o.filter { !b.contains($0) || t.contains($0) }
        for x in t where !b.contains(x) && !out.contains(x) { out.append(x) }
        return out
    }

    static func list(_ v: JSONValue?) -> [JSONValue] {
        switch v {
        case let .array(items)?: return items
        case nil, .null?: return []
        case let other?: return [other]
        }
    }

    static func tags(_ v: JSONValue?) -> [String] {
        list(v).compactMap { $0.stringValue.map(Tag.normalize) }
    }

    /// `codes:` with one item per coding, as SPEC §1.1 writes them.
    static func codingLines(_ key: String, _ codings: [JSONValue]) -> [String] {
        guard !codings.isEmpty else { return ["\(key): []"] }
        var lines = ["\(key):"]
        for coding in codings {
            guard case let .object(pairs) = coding, !pairs.isEmpty else { lines.append("  - " + YAMLWriter.value(coding)); continue }
            for (i, pair) in pairs.enumerated() {
                lines.append((i == 0 ? "  - " : "    ") + YAMLWriter.scalar(pair.0) + ": " + YAMLWriter.value(pair.1))
            }
        }
        return lines
    }

    /// A merged value: short mappings of plain values on one line, others as blocks.
    static func blockLines(_ key: String, _ v: JSONValue, indent: String = "") -> [String] {
        let head = indent + YAMLWriter.scalar(key) + ":"
        guard case let .object(pairs) = v, !pairs.isEmpty else { return [head + " " + YAMLWriter.value(v)] }
        let flow = head + " " + YAMLWriter.value(v)
        let nested = pairs.contains {
            switch $0.1 {
            case .object, .array: return true
            default: return false
            }
        }
        if !nested && flow.count <= 80 { return [flow] }
        return [head] + pairs.flatMap { blockLines($0.0, $0.1, indent: indent + "  ") }
    }

    static func withoutEnding(_ line: String) -> String {
        // "\r\n" is one Character in Swift, so one dropLast removes either ending.
        line.hasSuffix("\n") || line.hasSuffix("\r\n") ? String(line.dropLast()) : line
    }
}
