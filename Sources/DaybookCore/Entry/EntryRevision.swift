// A form's changes to an entry (the web app's edit page), written as daybook writes every change: only the lines of the keys that changed.
import Foundation

public struct EntryRevision: Sendable {
    /// Nil leaves a part as it is.
    public var title: String?
    public var tags: [String]?
    /// Answers to the template's fields, as typed; checked by the template's rules.
    public var fields: [String: String] = [:]
    public var body: String?

    public init(title: String? = nil, tags: [String]? = nil, fields: [String: String] = [:], body: String? = nil) {
        self.title = title
        self.tags = tags
        self.fields = fields
        self.body = body
    }

    /// The reasons the fields' answers do not fit the template, by field name (empty: all fit).
    public func rejections(template: Template?) -> [String: String] {
        guard !fields.isEmpty else { return [:] }
        let unknown = TemplateFill.unknownFields(template, answers: fields)
        guard let template else { return unknown }
        // Fields the answers leave unasked (their `when:` does not hold) are not checked: they are
        // removed. The rest are checked as they stand, whatever their conditions.
        let skipped = template.fieldsNotAsked(typed: fields)
        let asked = template.fields.filter { fields[$0.name] != nil && !skipped.contains($0.name) }
        var only = template
        only.fields = asked.map { var f = $0; f.condition = nil; return f }
        return TemplateFill.rejections(only, answers: fields).merging(unknown) { known, _ in known }
    }

    /// Applies the revision to an entry's text. Keys whose value is unchanged keep their bytes;
    /// tags are added and removed as `tag add`/`tag rm` do. Throws for a tag that is not one, or
    /// a field answer the template refuses (check `rejections` first to show them all).
    public func apply(to text: inout EntryText, entry: Entry, template: Template?) throws {
        if let title, title != entry.title {
            if title.isEmpty { text.remove(key: "title") } else { text.set(key: "title", lines: ["title: " + YAMLWriter.scalar(title)]) }
        }
        if let tags {
            let wanted = try tags.map { t -> String in
                let n = Tag.normalize(t)
                guard Tag.isValid(n) else { throw DaybookError.usage("`\(t)` is not a tag: use letters, digits, _, - and /") }
                return n
            }
            var lines = TagLines(text)
            lines.remove(lines.tags.filter { !wanted.contains($0) })
            lines.add(wanted)
            text = lines.text
        }
        if let template {
            if let (name, reason) = rejections(template: template).first { throw DaybookError.usage("field `\(name)`: \(reason)") }
            let skipped = fields.isEmpty ? [] : template.fieldsNotAsked(typed: fields)
            for field in template.fields {
                if skipped.contains(field.name) {
                    // The answers now leave this field unasked: a value it held no longer applies.
                    if field.name == "mood" ? entry.mood != nil : entry.fields.contains(where: { $0.0 == field.name }) { text.remove(key: field.name) }
                    continue
                }
                guard let answer = fields[field.name] else { continue }
                let value = try field.value(fromAnswer: answer)
                let current = field.name == "mood" ? entry.mood.map(JSONValue.int) : entry.fields.first { $0.0 == field.name }?.1
                guard value != current else { continue }
                if let value { text.set(key: field.name, lines: [field.name + ": " + YAMLWriter.value(value)]) } else { text.remove(key: field.name) }
            }
        }
        // A text area's value need not end with a newline; the file's body does (as `new` writes it).
        if var body {
            if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
            if body != entry.body { text.setBody(body) }
        }
    }
}
