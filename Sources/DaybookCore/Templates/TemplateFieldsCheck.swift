// `check`: the diary's own templates parse, and entries hold what the fields of their template declare.
import Foundation

struct TemplateFieldsCheck: DiaryCheck {
    init() {}

    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        let library = TemplateLibrary(diary: diary)
        var problems: [Diagnostic] = []
        var templates: [String: Template?] = [:]
        // Every template of the diary's own is read, used or not, so a broken one shows before `new` needs it.
        for name in TemplateLibrary.names(in: library.folder) {
            do { templates[name] = try library.template(named: name) } catch let e as DaybookError {
                problems.append(Diagnostic(e, severity: .error))
                templates[name] = .some(nil)
            }
        }
        for entry in entries {
            // An entry whose template is gone (or was never daybook's) has nothing to be checked against.
            guard let name = entry.template, Template.isValidName(name) else { continue }
            if templates[name] == nil { templates[name] = .some(try? library.template(named: name)) }
            guard let template = templates[name] ?? nil, !template.fields.isEmpty else { continue }
            problems += self.problems(of: entry, against: template, diary: diary)
        }
        return problems
    }

    /// Each field of the template that the entry's value does not fit, at the line of its key
    /// (a missing required field at the front matter's first line); `text` is the entry's text
    /// when the caller has it (else the file is read).
    func problems(of entry: Entry, against template: Template, diary: Diary, text: EntryText? = nil) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var lines = text
        let skipped = template.fieldsNotAsked(in: entry)
        for field in template.fields {
            let value = entry.field(field.name)
            let reason: String
            if skipped.contains(field.name) {
                // An answer to a question that did not apply: hand-edited, or the answer it hangs on changed.
                guard let value, value != .null else { continue }
                reason = "answered (\(value.described)), but \(template.notAskedReason(field))"
            } else {
                guard let r = field.reason(rejecting: value) else { continue }
                reason = r + " (template \(template.name))"
            }
            if lines == nil, let text = try? String(contentsOf: diary.url(entry.path), encoding: .utf8) {
                lines = try? EntryText(text, path: entry.path)
            }
            let line = lines?.span(of: field.name).map { $0.lowerBound + 1 } ?? 1
            out.append(Diagnostic(.error, "field `\(field.name)`: \(reason)",
                                  at: SourceLocation(path: diary.displayPath(entry.path), line: line)))
        }
        return out
    }
}
