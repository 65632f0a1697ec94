// A template: front matter (`template`, `description`, `tags`, `fields`) and the body an entry starts from.
import Foundation
import Yams

public struct Template: Sendable {
    public enum Origin: Equatable, Sendable {
        /// Shipped inside daybook.
        case builtin
        /// The diary's own `templates/NAME.md` (relative path).
        case diary(String)
    }

    /// The file name without `.md`; what `--template` and an entry's `template:` say.
    public var name: String
    public var description: String?
    public var tags: [String] = []
    public var fields: [TemplateField] = []
    /// `append_under`: the heading `daybook append` puts its notes under in an entry made from
    /// this template (the daily one); nil puts them at the end.
    public var appendUnder: String?
    /// The starting text, Mustache variables not yet rendered.
    public var body: String
    /// The whole file, as `template show` prints it.
    public var text: String
    public var origin: Origin
    /// The path errors name (`templates/daily.md`, or `builtin:daily.md`).
    public var path: String
    /// The file line on which the body starts, so Mustache errors point into the file.
    public var bodyStartLine: Int

    public func field(_ name: String) -> TemplateField? { fields.first { $0.name == name } }

    static let keys = ["template", "description", "tags", "fields", "append_under"]

    /// A name that can only be a file in the templates folder: letters, digits, `_` and `-`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("-") && name.unicodeScalars.allSatisfy { Tag.isTagCharacter($0) && $0 != "/" }
    }

    /// Reads a template file. A file without front matter is all body.
    public static func parse(_ text: String, name: String, origin: Origin, path: String) throws -> Template {
        var template = Template(name: name, body: text, text: text, origin: origin, path: path, bodyStartLine: 1)
        guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n") else { return template }
        let doc = try EntryText(text, path: path)
        template.body = doc.body
        template.bodyStartLine = doc.bodyStartLine
        guard let root = try YAML.compose(doc.yaml, path: path, lineOffset: 1) else { return template }
        func problem(_ node: Node, _ message: String) -> DaybookError {
            .input(message, at: YAML.location(of: node, path: path, lineOffset: 1))
        }
        guard case let .mapping(map) = root else { throw problem(root, "a template's front matter must be a mapping") }
        for (keyNode, value) in map {
            let key = keyNode.string ?? ""
            switch key {
            case "template":
                // The file name is the name; a different one here would make `--template` and the
                // entries' `template:` disagree.
                guard value.string == name else {
                    throw problem(value, "`template: \(value.string ?? "")` does not match the file name \(name).md")
                }
            case "description":
                template.description = value.string
            case "append_under":
                let heading = (value.string ?? "").trimmingCharacters(in: .whitespaces)
                guard !heading.isEmpty, EntryAppend.section(under: heading, in: EntryText.splitLines(template.body)) != nil else {
                    throw problem(value, "`append_under` names a heading of the template's body (`## \(heading)` is not there)")
                }
                template.appendUnder = heading
            case "tags":
                let items: [Node]
                if case let .sequence(seq) = value { items = Array(seq) } else { items = [value] }
                for item in items {
                    let t = Tag.normalize(item.string ?? "")
                    guard Tag.isValid(t) else { throw problem(item, "`\(item.string ?? "")` is not a tag: use letters, digits, _, - and /") }
                    template.tags.append(t)
                }
            case "fields":
                guard case let .mapping(fieldMap) = value else { throw problem(value, "`fields` must be a mapping of field names to their types") }
                for (fieldKey, declaration) in fieldMap {
                    guard let fieldName = fieldKey.string, Template.isValidName(fieldName) else {
                        throw problem(fieldKey, "a field name is letters, digits, _ and -")
                    }
                    template.fields.append(try TemplateField.parse(name: fieldName, keyNode: fieldKey, node: declaration,
                                                                   earlier: template.fields, problem: problem))
                }
            default:
                let close = keys.min { editDistance($0, key) < editDistance($1, key) } ?? ""
                let hint = editDistance(close, key) <= 2 ? " (did you mean `\(close)`?)" : ""
                throw problem(keyNode, "unknown key `\(key)` in a template (known: \(keys.joined(separator: ", ")))\(hint)")
            }
        }
        return template
    }

    /// Where the template comes from, in words for `template ls`.
    public var originDescription: String {
        switch origin {
        case .builtin: return "built-in"
        case let .diary(rel): return rel
        }
    }

    /// The JSON of `template ls --json` and `template show --json`.
    public func json(includeBody: Bool = false) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("name", .string(name)), ("description", description.map(JSONValue.string) ?? .null),
            ("origin", .string(origin == .builtin ? "builtin" : "diary")),
            ("path", origin == .builtin ? .null : .string(originDescription)),
            ("tags", .array(tags.map(JSONValue.string))),
            ("fields", .array(fields.map(\.json))),
        ]
        if includeBody { o.append(("body", .string(body))) }
        return .object(o)
    }
}

extension TemplateField {
    public var json: JSONValue {
        var o: [(String, JSONValue)] = [("name", .string(name)), ("type", .string(kind.rawValue)), ("required", .bool(required))]
        if let prompt { o.append(("prompt", .string(prompt))) }
        if let defaultValue { o.append(("default", defaultValue)) }
        if let min { o.append(("min", .double(min))) }
        if let max { o.append(("max", .double(max))) }
        if let unit { o.append(("unit", .string(unit))) }
        if !options.isEmpty { o.append(("options", .array(options.map(JSONValue.string)))) }
        if let conditionText { o.append(("when", .string(conditionText))) }
        if let help { o.append(("help", .string(help))) }
        if let placeholder { o.append(("placeholder", .string(placeholder))) }
        return .object(o)
    }
}
