// Which of a template's fields were asked: worked out again from the answers by the fields' `when:` conditions.
import Foundation

extension Template {
    /// The fields not asked for these answers. Conditions are read in the template's order, and
    /// the answer of a field not asked counts as missing for the conditions after it, so a chain
    /// of follow-ups falls away together.
    public func fieldsNotAsked(answer: (String) -> JSONValue?) -> Set<String> {
        var skipped = Set<String>()
        for field in fields {
            guard let condition = field.condition else { continue }
            if !condition.holds(fields, answer: { skipped.contains($0) ? nil : answer($0) }) { skipped.insert(field.name) }
        }
        return skipped
    }

    /// The fields not asked for an entry's values.
    public func fieldsNotAsked(in entry: Entry) -> Set<String> {
        fieldsNotAsked { entry.field($0) }
    }

    /// The fields not asked for answers as typed (a form, `--set`): each answer read by its
    /// field's rules; one that does not fit counts as missing.
    public func fieldsNotAsked(typed answers: [String: String]) -> Set<String> {
        fieldsNotAsked { name in answers[name].flatMap { try? field(name)?.value(fromAnswer: $0) } }
    }

    /// Whether any field has a condition.
    public var hasConditions: Bool { fields.contains { $0.condition != nil } }

    /// Why a field was not asked, for messages: "`when: smoked == true` does not hold".
    func notAskedReason(_ field: TemplateField) -> String {
        "it is not asked, as `when: \(field.conditionText ?? "")` does not hold (template \(name))"
    }
}

/// The templates of a diary, read once, to tell for an entry which of its template's fields were
/// not asked: `stats --field` and the exports tell "not asked" from "not answered" by it.
public struct FieldsAsked: Sendable {
    var templates: [String: Template] = [:]

    /// The diary's templates that have conditions (a template that cannot be read is left out:
    /// `check` names it).
    public init(diary: Diary) {
        var problems: [Diagnostic] = []
        for t in TemplateLibrary(diary: diary).all(problems: &problems) where t.hasConditions { templates[t.name] = t }
    }

    public init(templates: [Template]) {
        for t in templates where t.hasConditions { self.templates[t.name] = t }
    }

    /// True when the entry's template asked for `field`, false when its condition left it out,
    /// nil when the entry's template has no such conditional field.
    public func asked(_ field: String, in entry: Entry) -> Bool? {
        guard let name = entry.template, let t = templates[name], t.field(field) != nil else { return nil }
        return !t.fieldsNotAsked(in: entry).contains(field)
    }

    /// The fields of the entry's template that were not asked, in the template's order.
    public func notAsked(in entry: Entry) -> [String] {
        guard let name = entry.template, let t = templates[name] else { return [] }
        let skipped = t.fieldsNotAsked(in: entry)
        return t.fields.map(\.name).filter { skipped.contains($0) }
    }

    /// The fields the entry's template declares, when it has conditions (else none).
    public func declared(by entry: Entry) -> [String] {
        entry.template.flatMap { templates[$0] }.map { $0.fields.map(\.name).filter { $0 != "mood" } } ?? []
    }

    public var isEmpty: Bool { templates.isEmpty }
}
