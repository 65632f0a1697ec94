// A typed field a template declares: its type, limits, default and prompt, read from the template's front matter.
import Foundation
import Yams

public struct TemplateField: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case text, number, integer, scale, choice, multi, date, time, bool
    }

    public var name: String
    public var kind: Kind
    public var required = false
    public var defaultValue: JSONValue?
    public var prompt: String?
    /// A short help text shown with the question (at the prompt, under the form's control).
    public var help: String?
    /// An example answer shown greyed in the form's empty control, and at the prompt as `e.g.`.
    public var placeholder: String?
    /// Length limits for `text`, value limits for `number`, `integer` and `scale`.
    public var min: Double?
    public var max: Double?
    public var unit: String?
    public var options: [String] = []
    /// `when:`: asked only when this holds for the earlier answers (nil: always asked).
    public var condition: AskCondition?
    /// The condition as the template writes it, for messages.
    public var conditionText: String?

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Keys of the entry that a template cannot declare as fields: daybook sets them itself.
    /// (`mood` can be declared, as a scale of the template's own.)
    static let reservedNames: Set<String> = ["date", "title", "tags", "template", "codes"]

    static let keys = ["type", "required", "default", "prompt", "min", "max", "unit", "options", "when", "help", "placeholder"]

    /// Reads the declaration `name: {type: …, …}` (or the short form `name: type`); `problem`
    /// gives an error at the node's place in the template file. `earlier` are the fields declared
    /// before this one, the only ones its `when:` may read.
    static func parse(name: String, keyNode: Node, node: Node, earlier: [TemplateField] = [],
                      problem: (Node, String) -> DaybookError) throws -> TemplateField {
        if reservedNames.contains(name) {
            throw problem(keyNode, "a template cannot declare the field `\(name)`: daybook sets it itself")
        }
        var pairs: [(Node, Node)] = []
        switch node {
        case .scalar: pairs = [(Node("type"), node)]
        case let .mapping(m): pairs = m.map { ($0.key, $0.value) }
        default: throw problem(node, "field `\(name)`: write `{type: text, …}` or just the type")
        }
        guard let typeNode = pairs.first(where: { $0.0.string == "type" })?.1 else {
            throw problem(node, "field `\(name)` has no `type` (one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let kind = typeNode.string.flatMap(Kind.init(rawValue:)) else {
            throw problem(typeNode, "field `\(name)`: unknown type `\(typeNode.string ?? "")` (one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var field = TemplateField(name: name, kind: kind)
        var defaultNode: Node?
        for (k, v) in pairs {
            let key = k.string ?? ""
            func number() throws -> Double {
                guard let s = v.scalar?.string, let d = Double(s), d.isFinite else {
                    throw problem(v, "field `\(name)`: `\(key)` must be a number")
                }
                return d
            }
            switch key {
            case "type": continue
            case "required":
                guard let b = v.bool else { throw problem(v, "field `\(name)`: `required` must be true or false") }
                field.required = b
            case "default": defaultNode = v
            case "prompt": field.prompt = v.string
            case "help": field.help = v.string
            case "placeholder": field.placeholder = v.string
            case "when":
                // YAML reads `when: smoked` as text and `when: true` as a boolean: both are text here.
                guard let text = v.scalar?.string, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw problem(v, "field `\(name)`: `when` must be a condition on earlier answers, such as `smoked == true`")
                }
                do { field.condition = try AskConditionParser.parse(text, earlier: earlier) } catch let r as FieldRejection {
                    throw problem(v, "field `\(name)`: `when: \(text)`: \(r.reason)")
                }
                field.conditionText = text
            case "min", "max":
                guard [.text, .number, .integer, .scale].contains(kind) else { throw problem(k, "field `\(name)`: `\(key)` applies to text, number, integer and scale fields") }
                let d = try number()
                if kind != .number, d != d.rounded() { throw problem(v, "field `\(name)`: `\(key)` must be a whole number") }
                if key == "min" { field.min = d } else { field.max = d }
            case "unit":
                guard kind == .number || kind == .integer else { throw problem(k, "field `\(name)`: `unit` applies to number and integer fields") }
                field.unit = v.string
            case "options":
                guard kind == .choice || kind == .multi else { throw problem(k, "field `\(name)`: `options` applies to choice and multi fields") }
                guard case let .sequence(seq) = v, !seq.isEmpty else { throw problem(v, "field `\(name)`: `options` must be a list of choices") }
                field.options = seq.map { YAML.value($0).stringValue ?? "" }
            default:
                throw problem(k, "field `\(name)`: unknown key `\(key)` (known: \(keys.joined(separator: ", ")))")
            }
        }
        if (kind == .choice || kind == .multi) && field.options.isEmpty {
            throw problem(node, "field `\(name)`: a \(kind.rawValue) field needs `options`")
        }
        if kind == .scale && (field.min == nil || field.max == nil) {
            throw problem(node, "field `\(name)`: a scale needs `min` and `max`")
        }
        if let lo = field.min, let hi = field.max, lo > hi {
            throw problem(node, "field `\(name)`: `min` is larger than `max`")
        }
        if name == "mood" && kind != .scale {
            throw problem(typeNode, "field `mood` must be a scale, as mood is a whole number")
        }
        if let defaultNode, YAML.value(defaultNode) != .null {
            // A default is held to the field's own rules, so a template cannot suggest a wrong answer.
            let raw = YAML.value(defaultNode)
            let value = raw.stringValue.map { (try? field.value(fromAnswer: $0)) ?? raw } ?? raw
            if let reason = field.reason(rejecting: value) { throw problem(defaultNode, "field `\(name)`: the default \(reason)") }
            field.defaultValue = value
        }
        return field
    }

    /// What a prompt shows after the question: the type's limits and the unit.
    public var hint: String {
        switch kind {
        case .text:
            if let min, let max { return "\(Int(min))–\(Int(max)) characters" }
            if let max { return "at most \(Int(max)) characters" }
            if let min { return "at least \(Int(min)) characters" }
            return ""
        case .number, .integer:
            var parts: [String] = []
            if let min, let max { parts.append("\(JSONValue.format(min))–\(JSONValue.format(max))") }
            else if let min { parts.append("at least \(JSONValue.format(min))") }
            else if let max { parts.append("at most \(JSONValue.format(max))") }
            if let unit { parts.append(unit) }
            return parts.isEmpty ? (kind == .integer ? "a whole number" : "a number") : parts.joined(separator: " ")
        case .scale: return "\(Int(min ?? 0))–\(Int(max ?? 0))"
        // Numbered: an option's number, or the start of its name, answers too.
        case .choice: return options.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: " / ")
        case .multi: return "any of " + options.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", ") + "; separate with commas"
        case .date: return "YYYY-MM-DD"
        case .time: return "HH:MM"
        case .bool: return "yes/no"
        }
    }
}
