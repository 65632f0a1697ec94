// A new entry before it is written: its front matter values and body.
import Foundation
import Yams

public struct EntryDraft: Sendable {
    public var date: LocalDateTime
    public var title: String?
    public var tags: [String] = []
    public var mood: Int?
    public var template: String?
    /// Other front-matter keys, in order.
    public var fields: [(String, JSONValue)] = []
    public var body = ""

    public init(date: LocalDateTime, title: String?) {
        self.date = date
        self.title = title
    }

    /// The title for messages: the given one, else the body's first line.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        let prose = Prose(markdown: body)
        return prose.firstHeading ?? EntryParser.firstLine(of: body)
    }

    /// `--set key=value`: the value is YAML, read as the front matter is read, so `7` is a number,
    /// `true` a boolean, `[a, b]` a list and `{name: Ward 3, lat: 48.2}` a mapping. A value YAML
    /// reads as a plain string is kept as typed, so a `#` or a line break in it costs no word.
    public mutating func setFields(_ assignments: [String]) throws {
        for a in assignments {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw DaybookError.usage("--set `\(a)`: use KEY=VALUE")
            }
            let key = String(a[..<eq]).trimmingCharacters(in: .whitespaces)
            let raw = String(a[a.index(after: eq)...])
            guard key.unicodeScalars.allSatisfy({ Tag.isTagCharacter($0) && $0 != "/" }) else {
                throw DaybookError.usage("--set `\(a)`: a key is letters, digits, _ and -")
            }
            let (value, text) = try EntryDraft.yamlValue(raw, key: key)
            try setField(key, value)
            setText[key] = text
        }
    }

    /// `--location NAME[@LAT,LON]`: the `location` field as SPEC §1.1 has it, `{name, lat, lon}`.
    /// What follows the last `@` is coordinates when it is only numbers and a comma (a name may
    /// hold an `@`); coordinates out of range or only one of them are refused.
    public static func location(_ spec: String) throws -> JSONValue {
        let text = spec.trimmingCharacters(in: .whitespaces)
        func fail(_ why: String) -> DaybookError { .usage("--location `\(spec)`: \(why); use NAME or NAME@LAT,LON such as \"Ward 3@48.2,16.3\"") }
        var name = text
        var coordinates: (Double, Double)?
        if let at = text.range(of: "@", options: .backwards) {
            let tail = text[at.upperBound...]
            if !tail.isEmpty, tail.allSatisfy({ $0.isNumber || "+-., ".contains($0) }) {
                let parts = tail.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, let lat = parts[0], let lon = parts[1] else { throw fail("the coordinates must be a latitude and a longitude") }
                guard (-90...90).contains(lat), (-180...180).contains(lon) else { throw fail("latitude is -90 to 90, longitude -180 to 180") }
                coordinates = (lat, lon)
                name = String(text[..<at.lowerBound]).trimmingCharacters(in: .whitespaces)
            }
        }
        guard !name.isEmpty else { throw fail("the place needs a name") }
        guard let (lat, lon) = coordinates else { return .object([("name", .string(name))]) }
        func number(_ d: Double) -> JSONValue { d == d.rounded() && abs(d) < 1e9 ? .int(Int(d)) : .double(d) }
        return .object([("name", .string(name)), ("lat", number(lat)), ("lon", number(lon))])
    }

    /// For each `--set` key whose value is a scalar, its text as typed (unquoted when it was
    /// quoted): a template field reads it as it reads a prompt's answer, so `yes` in a text field
    /// stays `yes`.
    public private(set) var setText: [String: String] = [:]

    public mutating func setField(_ key: String, _ value: JSONValue) throws {
        switch key {
        case "date", "codes":
            throw DaybookError.usage("--set cannot set `\(key)`; use --date or `daybook code add`")
        case "title", "template":
            guard let text = value.stringValue else { throw DaybookError.usage("--set \(key): must be text, not \(value.described)") }
            if key == "title" { title = text } else { template = text }
        case "tags":
            switch value {
            case let .array(items):
                for item in items {
                    guard let t = item.stringValue else { throw DaybookError.usage("--set tags: a tag must be a word, not \(item.described)") }
                    tags.append(t)
                }
            default:
                guard let list = value.stringValue else { throw DaybookError.usage("--set tags: give a list ([a, b]) or words separated by commas, not \(value.described)") }
                tags += list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        case "mood":
            guard case let .int(m) = value else { throw DaybookError.usage("mood must be an integer") }
            mood = m
        default:
            if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = value } else { fields.append((key, value)) }
        }
    }

    /// A command-line value read as YAML, with the text a template field reads (nil for a list or
    /// a mapping). Not YAML is an error naming the key and the problem.
    public static func yamlValue(_ raw: String, key: String) throws -> (JSONValue, String?) {
        // Nothing after `=` sets the empty string, as it always has (YAML would read null).
        if raw.trimmingCharacters(in: .whitespaces).isEmpty { return (.string(""), "") }
        let node: Node?
        do {
            node = try YAML.compose(raw, path: "--set \(key)")
        } catch let e as DaybookError {
            // A column only helps on a one-line value; Yams places an unclosed bracket past the end.
            var at = ""
            if let loc = e.location, loc.line == 1, let c = loc.column, !raw.contains("\n") { at = " at column \(c)" }
            throw DaybookError.usage("--set \(key): the value `\(raw)` is not valid YAML\(at): "
                + e.message.replacingOccurrences(of: "invalid YAML: ", with: "")
                + "; quote it to keep it as text")
        }
        guard let node else { return (.null, nil) }
        let value = asTyped(node)
        guard case let .scalar(scalar) = node else { return (value, nil) }
        guard scalar.style == .plain else { return (value, scalar.string) }
        // The text as typed, not as YAML folds it: a `#` or a line break in a plain string stays.
        if case .string = value { return (.string(raw), raw) }
        return (value, raw.trimmingCharacters(in: .whitespaces))
    }

    /// A YAML node as a value, keeping the text as typed where YAML 1.1 would change it: a plain
    /// scalar is a number only when written as one (`7`, `-2.5`, `1e3`; not `007`, `0x1A`, `1:30`),
    /// a boolean only as `true` or `false` (not `yes`, `on`), and anything else the string typed.
    static func asTyped(_ node: Node) -> JSONValue {
        switch node {
        case let .scalar(s):
            let value = YAML.value(node)
            guard s.style == .plain else { return value }
            let text = s.string
            switch value {
            case .int, .double:
                let written = text.range(of: #"^[-+]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$"#, options: .regularExpression) != nil
                guard written, let d = value.doubleValue, d.isFinite else { return .string(text) }
                return value
            case .bool:
                return ["true", "false"].contains(text.lowercased()) ? value : .string(text)
            default:
                return value
            }
        case let .sequence(seq):
            return .array(seq.map { asTyped($0) })
        case let .mapping(map):
            return .object(map.map { (key: Node, v: Node) in (key.string ?? key.scalar?.string ?? "", asTyped(v)) })
        case .alias:
            return YAML.value(node)
        }
    }

    /// The file text: front matter in the order title, date, tags, mood, template, fields; then the body.
    public func text() throws -> String {
        var lines: [String] = []
        if let title, !title.isEmpty { lines.append("title: " + YAMLWriter.scalar(title)) }
        lines.append("date: \(date)")
        var normalized: [String] = []
        for t in tags {
            let n = Tag.normalize(t)
            guard Tag.isValid(n) else { throw DaybookError.usage("`\(t)` is not a tag: use letters, digits, _, - and /") }
            if !normalized.contains(n) { normalized.append(n) }
        }
        if !normalized.isEmpty { lines.append(YAMLWriter.flowList("tags", normalized)) }
        if let mood { lines.append("mood: \(mood)") }
        if let template { lines.append("template: " + YAMLWriter.scalar(template)) }
        for (k, v) in fields { lines.append(k + ": " + YAMLWriter.value(v)) }
        // Line endings first: "\r\n" is one Character, so a CRLF body does not end in "\n" and
        // would gain a blank line.
        var body = self.body.replacingOccurrences(of: "\r\n", with: "\n")
        if !body.hasSuffix("\n") { body += "\n" }
        return EntryText(frontMatter: lines, body: body).text
    }
}
