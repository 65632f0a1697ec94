// Adding and removing front-matter tags by editing only the `tags:` lines, in the style found.
import Foundation
import Yams

/// The `tags:` value of an entry text, in the style it is written in: a flow list on one line
/// stays a flow list (the other items keep their quoting), a block list stays a block list with
/// its indentation, a single tag or an empty value becomes a flow list.
public struct TagLines {
    public private(set) var text: EntryText

    public init(_ text: EntryText) {
        self.text = text
    }

    /// The front-matter tags as written, normalized.
    public var tags: [String] { items.map(\.tag) }

    /// Adds tags not there yet; returns the ones added.
    @discardableResult
    public mutating func add(_ new: [String]) -> [String] {
        var have = Set(tags)
        let added = new.filter { have.insert($0).inserted }
        guard !added.isEmpty else { return [] }
        let lines = current
        switch style {
        case .absent:
            text.set(key: "tags", lines: [YAMLWriter.flowList("tags", added)])
        case let .flow(open, close):
            let head = String(lines[0][..<close]).trimmingTrailingSpace(after: open)
            let separator = items.isEmpty ? "" : ", "
            let rest = String(lines[0][close...])
            text.set(key: "tags", lines: [head + separator + added.map { YAMLWriter.scalar($0, inFlow: true) }.joined(separator: ", ") + rest])
        case let .block(indent):
            let last = items.last.map { $0.line + 1 } ?? lines.count
            let new = added.map { indent + "- " + YAMLWriter.scalar($0) }
            text.set(key: "tags", lines: Array(lines[..<last]) + new + Array(lines[last...]))
        case .other:
            text.set(key: "tags", lines: [YAMLWriter.flowList("tags", tags + added)])
        }
        return added
    }

    /// Removes tags (nested ones are not removed: `rm a` keeps `a/b`); returns the ones removed.
    @discardableResult
    public mutating func remove(_ gone: [String]) -> [String] {
        let goneSet = Set(gone)
        let removed = tags.filter(goneSet.contains)
        guard !removed.isEmpty else { return [] }
        let lines = current
        let keep = items.filter { !goneSet.contains($0.tag) }
        switch style {
        case let .flow(open, close) where !keep.isEmpty:
            let head = String(lines[0][...open])
            text.set(key: "tags", lines: [head + keep.map(\.raw).joined(separator: ", ") + String(lines[0][close...])])
        case .block where !keep.isEmpty:
            let dropped = Set(items.filter { goneSet.contains($0.tag) }.map(\.line))
            text.set(key: "tags", lines: lines.indices.filter { !dropped.contains($0) }.map { lines[$0] })
        default:
            text.set(key: "tags", lines: [YAMLWriter.flowList("tags", keep.map(\.tag))])
        }
        return removed
    }

    /// Replaces tag `old` (and `old/…`) by `new` (and `new/…`), item by item, dropping an item
    /// that becomes a repeat; returns whether anything changed.
    public mutating func rename(_ old: String, to new: String) -> Bool {
        guard tags.contains(where: { Tag.matches($0, query: old) }) else { return false }
        let lines = current
        var seen = Set<String>()
        var renamed: [(item: Item, text: String?)] = []
        for item in items {
            let changed = Tag.matches(item.tag, query: old)
            let tag = changed ? new + item.tag.dropFirst(old.count) : item.tag
            let keep = seen.insert(tag).inserted
            renamed.append((item, keep ? (changed ? YAMLWriter.scalar(tag, inFlow: true) : item.raw) : nil))
        }
        switch style {
        case let .flow(open, close):
            let list = renamed.compactMap(\.text).joined(separator: ", ")
            text.set(key: "tags", lines: [String(lines[0][...open]) + list + String(lines[0][close...])])
        case let .block(indent):
            var out = lines
            for (item, t) in renamed.reversed() {
                if let t { if t != item.raw { out[item.line] = indent + "- " + t + item.after } } else { out.remove(at: item.line) }
            }
            text.set(key: "tags", lines: out)
        default:
            text.set(key: "tags", lines: [YAMLWriter.flowList("tags", renamed.compactMap { $0.text.map(TagLines.tag) })])
        }
        return true
    }

    // MARK: Reading the lines

    enum Style {
        case absent
        /// One line `tags: [ … ]`: the indices of `[` and `]` in it.
        case flow(open: String.Index, close: String.Index)
        /// `tags:` then `- item` lines indented by this.
        case block(indent: String)
        /// A single value, or a form daybook rewrites as a flow list.
        case other
    }

    struct Item {
        var tag: String
        /// The item as written (for flow lists), to keep its quoting.
        var raw: String
        /// Its line within `current` (for block lists).
        var line: Int
        /// What follows the item on its line (spaces, a comment), kept when it is renamed.
        var after = ""
    }

    /// The key's lines without their endings.
    var current: [String] {
        text.currentLines(of: "tags").map(EntryText.withoutEnding)
    }

    var style: Style { parsed.style }
    var items: [Item] { parsed.items }

    var parsed: (style: Style, items: [Item]) {
        let lines = current
        guard let first = lines.first, let colon = first.firstIndex(of: ":") else { return (.absent, []) }
        let value = first[first.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("["), lines.count == 1, let open = first.firstIndex(of: "["),
           let (raws, close) = TagLines.flowItems(first, from: open) {
            return (.flow(open: open, close: close), raws.map { Item(tag: TagLines.tag($0), raw: $0, line: 0) })
        }
        if value.isEmpty || value.hasPrefix("#") {
            var items: [Item] = []
            var indent: String?
            for (i, line) in lines.enumerated().dropFirst() {
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("- ") else {
                    if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                    return (.other, TagLines.values(of: lines))
                }
                indent = indent ?? String(line.prefix(line.count - trimmed.count))
                var raw = String(trimmed.dropFirst(2))
                var after = ""
                if let hash = raw.range(of: " #") { after = String(raw[hash.lowerBound...]); raw = String(raw[..<hash.lowerBound]) }
                let value = raw.trimmingCharacters(in: .whitespaces)
                after = String(raw.dropFirst(value.count)) + after
                items.append(Item(tag: TagLines.tag(value), raw: value, line: i, after: after))
            }
            if let indent { return (.block(indent: indent), items) }
            if value.isEmpty { return (.other, []) }
        }
        return (.other, TagLines.values(of: lines))
    }

    /// Items of a one-line flow list, split at commas outside quotes, and the index of `]`.
    static func flowItems(_ line: String, from open: String.Index) -> ([String], String.Index)? {
        var items: [String] = []
        var current = ""
        var quote: Character?
        var i = line.index(after: open)
        while i < line.endIndex {
            let c = line[i]
            if let q = quote {
                current.append(c)
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
                current.append(c)
            } else if c == "," || c == "]" {
                let t = current.trimmingCharacters(in: .whitespaces)
                if !t.isEmpty { items.append(t) }
                current = ""
                if c == "]" { return (items, i) }
            } else if c == "[" || c == "{" {
                return nil
            } else {
                current.append(c)
            }
            i = line.index(after: i)
        }
        return nil
    }

    static func tag(_ raw: String) -> String {
        let node = try? Yams.compose(yaml: raw)
        return Tag.normalize(node?.scalar?.string ?? raw)
    }

    /// The tags of any other form, read through YAML.
    static func values(of lines: [String]) -> [Item] {
        guard let node = try? Yams.compose(yaml: lines.joined(separator: "\n")), case let .mapping(m)? = Optional(node),
              let value = m.first?.value else { return [] }
        let nodes: [Node]
        if case let .sequence(seq) = value { nodes = Array(seq) } else { nodes = [value] }
        return nodes.compactMap { $0.scalar?.string }.filter { !$0.isEmpty }.map { Item(tag: Tag.normalize($0), raw: $0, line: 0) }
    }
}

extension String {
    /// The string cut after `index` when what follows it is only spaces (for `[ ]`).
    func trimmingTrailingSpace(after index: String.Index) -> String {
        var s = self
        while s.count > 0, s.index(before: s.endIndex) > index, s.last == " " { s.removeLast() }
        return s
    }
}
