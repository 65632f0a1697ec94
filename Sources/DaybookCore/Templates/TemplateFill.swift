// Filling a new entry's draft from a template: its name, tags and typed field values, checked before anything is written.
import Foundation

public enum TemplateFill {
    /// Asks for one field's value. `rejection` says why the last answer (or the `--set` value) was
    /// refused; the result is the answer typed, or nil when input ended.
    public typealias Ask = (_ field: TemplateField, _ rejection: FieldRejection?) throws -> String?

    /// Puts the template's name, tags and field values into `draft`. Values given with `--set` are
    /// already in the draft; a field without one takes its default. With `ask` (a terminal) every
    /// field without a valid `--set` value is asked for until the answer fits; without it, a value
    /// that does not fit, or a missing required one, is an error naming the field.
    public static func apply(_ template: Template, to draft: inout EntryDraft, diaryMoodScale: ClosedRange<Int>, ask: Ask?) throws {
        draft.template = template.name
        draft.tags = template.tags + draft.tags
        var values: [(String, JSONValue)] = []
        // Without a terminal, every value that does not fit is gathered and all are said at once.
        var problems: [String] = []
        var rejected = Set<String>()
        for field in template.fields {
            var value: JSONValue?
            var rejection: FieldRejection?
            // A follow-up whose condition does not hold for the answers so far is not asked and
            // not written; a value given for it anyway is refused, never dropped unsaid.
            // When an answer it reads was itself refused, whether it is asked cannot be told: a value
            // given for it is checked by its own rules, and a missing one is not reported.
            let undecided = field.condition.map { !rejected.isDisjoint(with: $0.fieldNames) } ?? false
            if let condition = field.condition, !undecided,
               !condition.holds(template.fields, answer: { n in values.first { $0.0 == n }?.1 }) {
                if let given = given(field.name, in: draft), given != .null {
                    let shown = draft.setText[field.name] ?? given.stringValue ?? YAMLWriter.value(given)
                    let problem = "--set \(field.name)=\(shown): field `\(field.name)`: \(template.notAskedReason(field))"
                    guard ask == nil else { throw DaybookError.usage(problem) }
                    problems.append(problem)
                }
                continue
            }
            if let given = given(field.name, in: draft) {
                let text = draft.setText[field.name]
                do { value = try field.value(fromGiven: given, text: text) } catch let r as FieldRejection {
                    let shown = text ?? given.stringValue ?? YAMLWriter.value(given)
                    guard ask != nil else {
                        problems.append("--set \(field.name)=\(shown): field `\(field.name)`: \(r.reason) (template \(template.name))")
                        rejected.insert(field.name)
                        continue
                    }
                    rejection = r
                }
                if value != nil { values.append((field.name, value ?? .null)); continue }
            }
            if let ask {
                value = try answer(field, rejection: rejection, ask: ask)
            } else {
                value = field.defaultValue
                if value == nil && field.required && !undecided {
                    problems.append("field `\(field.name)` is required by template \(template.name): give it with --set \(field.name)=VALUE (\(field.hint))")
                }
            }
            if let value { values.append((field.name, value)) }
        }
        if problems.count == 1 { throw DaybookError.usage(problems[0]) }
        if problems.count > 1 {
            throw DaybookError.usage("\(problems.count) fields do not fit template \(template.name); nothing saved:\n" + problems.map { "  " + $0 }.joined(separator: "\n"))
        }
        // Template fields go first, in the template's order; other `--set` keys stay plain fields after them.
        let declared = Set(template.fields.map(\.name))
        let others = draft.fields.filter { !declared.contains($0.0) }
        draft.fields = values.filter { $0.0 != "mood" } + others
        if let mood = values.first(where: { $0.0 == "mood" })?.1, case let .int(m) = mood { draft.mood = m }
        if template.field("mood") == nil, let mood = draft.mood, !diaryMoodScale.contains(mood) {
            throw DaybookError.usage("mood \(mood) is off the scale \(diaryMoodScale.lowerBound)–\(diaryMoodScale.upperBound)")
        }
    }

    /// Fills `draft` from the template named `name` (nil: no template) and returns the entry's
    /// starting text: `new` on the command line and the web app's form both come here, so a field
    /// is checked by the same rules wherever it was typed.
    public static func prepare(_ name: String?, diary: Diary, draft: inout EntryDraft, ask: Ask?) throws -> String? {
        guard let name else { return nil }
        let template = try TemplateLibrary(diary: diary).require(name)
        try apply(template, to: &draft, diaryMoodScale: diary.config.moodMin...diary.config.moodMax, ask: ask)
        return try text(of: template, for: draft, in: diary)
    }

    /// The template's text rendered for the draft (its date, title and field values so far).
    public static func text(of template: Template, for draft: EntryDraft, in diary: Diary) throws -> String {
        let fields = draft.fields + (draft.mood.map { [("mood", JSONValue.int($0))] } ?? [])
        let prompts = { PromptList.load(diary)?.list.prompts(for: template.name) ?? BuiltinPrompts.all }
        return try TemplateRenderer.render(template, date: draft.date, title: draft.title, fields: fields, prompts: prompts) {
            var unreadable: [Diagnostic] = []
            return WeekSummary(entries: diary.loadEntries(diagnostics: &unreadable, bodies: false), endingOn: draft.date.day,
                               moodScale: diary.config.moodMin...diary.config.moodMax,
                               templateMoodScale: diary.moodScales.ofTemplate)
        }
    }

    /// Every field's answer checked at once, as a form needs it: the reason for each field whose
    /// answer does not fit (or is required and missing), by field name; empty when all fit.
    /// A field not asked (its `when:` does not hold for the answers) has no reason: its answer is
    /// not written (`answersAsked`).
    public static func rejections(_ template: Template, answers: [String: String]) -> [String: String] {
        var reasons: [String: String] = [:]
        let skipped = template.fieldsNotAsked(typed: answers)
        for field in template.fields where !skipped.contains(field.name) {
            do {
                if try field.value(fromAnswer: answers[field.name] ?? "") == nil, field.defaultValue == nil, field.required {
                    reasons[field.name] = "required, but missing"
                }
            } catch let r as FieldRejection {
                reasons[field.name] = r.reason
            } catch {
                reasons[field.name] = "\(error)"
            }
        }
        return reasons
    }

    /// The answers a form sent without those to fields its other answers leave unasked: a form
    /// hides such a field, and what it still held is not written.
    public static func answersAsked(_ template: Template, answers: [String: String]) -> [String: String] {
        let skipped = template.fieldsNotAsked(typed: answers)
        return answers.filter { !skipped.contains($0.key) }
    }

    /// Each `--set` value that does not fit its field by the field's own rules, as
    /// `--set KEY=VALUE: field `KEY`: why`, in the template's order: the prompts say them all
    /// before asking again for each in turn.
    public static func givenRejections(_ template: Template, draft: EntryDraft) -> [String] {
        template.fields.compactMap { field in
            guard let given = given(field.name, in: draft) else { return nil }
            let text = draft.setText[field.name]
            do { _ = try field.value(fromGiven: given, text: text); return nil } catch let r as FieldRejection {
                return "--set \(field.name)=\(text ?? given.stringValue ?? YAMLWriter.value(given)): field `\(field.name)`: \(r.reason)"
            } catch { return nil }
        }
    }

    /// The value the command line gave for a field, if any.
    static func given(_ name: String, in draft: EntryDraft) -> JSONValue? {
        if name == "mood" { return draft.mood.map(JSONValue.int) }
        return draft.fields.first { $0.0 == name }?.1
    }

    /// Asks until the answer fits: an empty answer takes the default, or leaves an optional field out.
    static func answer(_ field: TemplateField, rejection first: FieldRejection?, ask: Ask) throws -> JSONValue? {
        var rejection = first
        while true {
            guard let typed = try ask(field, rejection) else {
                throw DaybookError.usage("no answer for field `\(field.name)` (input ended); nothing saved")
            }
            do {
                if let v = try field.value(fromAnswer: typed) { return v }
                if let d = field.defaultValue { return d }
                if !field.required { return nil }
                rejection = FieldRejection("required, but missing")
            } catch let r as FieldRejection {
                rejection = r
            }
        }
    }
}
