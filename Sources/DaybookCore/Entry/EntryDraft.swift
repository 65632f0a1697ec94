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

    /// `--set key=value`: the value is read as a YAML scalar, so `7` is a number and `true` a boolean.
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
            try setField(key, EntryDraft.scalarValue(raw))
        }
    }

    public mutating func setField(_ key: String, _ value: JSONValue) throws {
        switch key {
        case "date", "codes":
            throw DaybookError.usage("--set cannot set `\(key)`; use --date or `daybook code add`")
        case "title": title = value.stringValue
        case "tags":
            tags += (value.stringValue ?? "").split(separator: ",").map { String($0) }
        case "mood":
            guard case let .int(m) = value else { throw DaybookError.usage("mood must be an integer") }
            mood = m
        case "template": template = value.stringValue
        default:
            if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = value } else { fields.append((key, value)) }
        }
    }

    /// A command-line value read as YAML would read it when plain.
    public static func scalarValue(_ raw: String) -> JSONValue {
        let t = raw.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return .string("") }
        if let i = Int(t) { return .int(i) }
        if let d = Double(t), t.contains("."), !t.hasPrefix(".") { return .double(d) }
        switch t.lowercased() {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return .string(raw)
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
        var body = self.body
        if !body.hasSuffix("\n") { body += "\n" }
        body = body.replacingOccurrences(of: "\r\n", with: "\n")
        return EntryText(frontMatter: lines, body: body).text
    }
}
