// What a form or a prompt shows for a template's field before the person answers (what was given, or nothing), and which fields a form may send.
import Foundation

extension TemplateField {
    /// The value a field starts with: the entry's own value, else the template's declared default
    /// (the answer an empty reply at the prompt takes), else nil: "not answered". Never a value
    /// nobody gave, such as a scale's midpoint or a check box's false: in a diary study that is
    /// invented data, so a face that has no value to show shows "not answered" and writes nothing
    /// until the person answers (the web form, issue 41; the prompts, which take an empty reply
    /// as no answer).
    public func startingValue(in entry: Entry?) -> JSONValue? {
        guard let entry else { return defaultValue }
        if name == "mood" { return entry.mood.map(JSONValue.int) }
        return entry.fields.first { $0.0 == name }?.1
    }
}

extension TemplateFill {
    /// The answers to fields the template does not declare, each with why it is refused; with no
    /// template, every answer. A form sends only its template's fields, so another name is a
    /// mistake (or a forged request) and is refused at the field, never written as a key of its own.
    public static func unknownFields(_ template: Template?, answers: [String: String]) -> [String: String] {
        var reasons: [String: String] = [:]
        for name in answers.keys where template?.field(name) == nil {
            reasons[name] = template.map { "not a field of template \($0.name)" } ?? "the entry has no template, so no fields to answer"
        }
        return reasons
    }
}
