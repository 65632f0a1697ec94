// Writing: a new entry or an edit, the body in a plain text area, the template's fields as real form controls.
import DaybookCore
import Foundation

struct EntryFormPage {
    let diary: Diary
    /// The entry being edited; nil for a new one.
    let entry: Entry?
    let version: String?
    let template: Template?
    /// The starting body of a new entry (the template's text).
    let startingBody: String

    func html() -> String {
        let e = AppLayout.escape
        var s = "<h1>\(entry == nil ? "New entry" : "Edit " + e(entry?.title ?? ""))</h1>\n"
        if entry == nil {
            var problems: [Diagnostic] = []
            let names = TemplateLibrary(diary: diary).all(problems: &problems).map(\.name)
            s += "<form method=\"get\" action=\"/new\" class=\"template-choice\"><label>Template <select name=\"template\" id=\"template-choice\">"
            s += "<option value=\"\">(none)</option>"
            for n in names { s += "<option\(n == template?.name ? " selected" : "")>\(e(n))</option>" }
            s += "</select></label> <button type=\"submit\">Use</button></form>\n"
        }
        s += "<p class=\"draft\" id=\"draft-offer\" role=\"status\" hidden>A draft of this form was kept <span id=\"draft-time\"></span>. "
        s += "<button type=\"button\" id=\"draft-restore\">Restore it</button> <button type=\"button\" id=\"draft-discard\">Discard it</button></p>\n"
        // A template with `when:` conditions: the script asks the server which fields to hide as answers change.
        let conditional = template?.hasConditions == true ? " data-conditions=\"\(e(template?.name ?? ""))\"" : ""
        s += "<form id=\"entry-form\" class=\"entry-form\"\(conditional) novalidate>\n"
        // Not a live region of its own: the page has one (`#live`), where the script says the refusal.
        s += "<p class=\"error\" id=\"form-error\" tabindex=\"-1\"></p>\n"
        s += "<p class=\"conflict\" role=\"alert\" id=\"form-conflict\" hidden>This entry changed on disk since you opened it. "
        s += "Nothing was overwritten, and your text is still here. <a href=\"\" id=\"conflict-reload\">Open the new version</a> (copy your text first).</p>\n"
        s += control(name: "title", label: "Title", html: "<input name=\"title\" value=\"\(e(entry?.title ?? ""))\" autocomplete=\"off\">")
        if entry == nil {
            s += control(name: "date", label: "When", html: "<input name=\"date\" placeholder=\"now (or 2026-11-21 18:30, yesterday 18:30)\" autocomplete=\"off\">")
        }
        let tags = entry?.tags ?? template?.tags ?? []
        s += control(name: "tags", label: "Tags", html: "<input name=\"tags\" value=\"\(e(tags.joined(separator: ", ")))\" placeholder=\"fieldwork, interview\" autocomplete=\"off\">")
        let notAsked = template?.fieldsNotAsked { name in template?.field(name)?.startingValue(in: entry) } ?? []
        for field in template?.fields ?? [] { s += hiding(helped(self.field(field), field), notAsked.contains(field.name)) }
        s += control(name: "body", label: "Text (Markdown)", html: "<textarea name=\"body\" rows=\"18\" required>\(e(entry?.body ?? startingBody))</textarea>")
        s += "<button type=\"submit\">Save</button>\n</form>\n"
        return s
    }

    /// The id of a field's control, and of its hint and its reason (`-hint`, `-error`).
    static func id(_ name: String) -> String {
        "f-" + String(name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "_" })
    }

    /// One field: its label tied to its control by `for`, its hint and its reason (empty until the
    /// form is refused) as the control's description. A group of radio buttons or check boxes is
    /// a `<fieldset>` named by its `<legend>` (`group`), never inside a `<label>`.
    func control(name: String, label: String, html: String, hint: String? = nil, group: Bool = false) -> String {
        let e = AppLayout.escape
        let id = EntryFormPage.id(name)
        let described = (hint == nil ? "" : id + "-hint ") + id + "-error"
        var s = "<div class=\"control\" data-field=\"\(e(name))\">"
        if group {
            s += "<fieldset class=\"options\" id=\"\(id)\" aria-describedby=\"\(described)\"><legend>\(e(label))</legend>\(html)</fieldset>"
        } else {
            // The first control of `html` is the field's own: it gets the id and the description.
            var control = html
            if let r = control.range(of: "<input ") ?? control.range(of: "<textarea ") {
                control.replaceSubrange(r, with: String(control[r].dropLast()) + " id=\"\(id)\" aria-describedby=\"\(described)\" ")
            }
            s += "<label for=\"\(id)\">\(e(label))</label> \(control)"
        }
        if let hint { s += "<span class=\"meta\" id=\"\(id)-hint\">\(e(hint))</span>" }
        return s + "<span class=\"field-error\" id=\"\(id)-error\"></span></div>\n"
    }

    /// "Not answered": the choice a scale, a bool and a choice offer besides their values. Chosen
    /// (or cleared to), the field is not written; nothing else here starts a field with a value
    /// the person did not give (`TemplateField.startingValue`).
    func notAnswered(_ name: String, chosen: Bool) -> String {
        "<label class=\"not-answered\"><input type=\"radio\" name=\"\(AppLayout.escape(name))\" value=\"\"\(chosen ? " checked" : "")> not answered</label>"
    }

    /// A field's `placeholder` on its text box and its `help` under it.
    func helped(_ control: String, _ f: TemplateField) -> String {
        var out = control
        if let p = f.placeholder {
            let name = "name=\"\(AppLayout.escape("field:" + f.name))\""
            out = out.replacingOccurrences(of: name, with: name + " placeholder=\"\(AppLayout.escape(p))\"")
        }
        if let h = f.help, let end = out.range(of: "<span class=\"field-error\"", options: .backwards) {
            out.insert(contentsOf: "<span class=\"meta help\">\(AppLayout.escape(h))</span>", at: end.lowerBound)
        }
        return out
    }

    /// A field's control hidden (and its inputs off) when the answers so far leave it unasked;
    /// the script shows it again when they change.
    func hiding(_ control: String, _ hidden: Bool) -> String {
        guard hidden else { return control }
        return control.replacingOccurrences(of: "<div class=\"control\"", with: "<div hidden class=\"control\"")
    }

    func field(_ f: TemplateField) -> String {
        let e = AppLayout.escape
        let name = "field:" + f.name
        let label = f.prompt ?? f.name
        let value = f.startingValue(in: entry)
        let text = value.map { $0.stringValue ?? YAMLWriter.value($0) } ?? ""
        let required = f.required ? " required" : ""
        func number(_ d: Double?) -> String { d.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "" }
        switch f.kind {
        case .scale:
            // A slider always has a position; until it is moved, it says "not answered" and the
            // form sends nothing for it (app.js), so its midpoint is never saved as an answer.
            let lo = Int(f.min ?? 1), hi = Int(f.max ?? 5)
            let answered = Int(text)
            let slider = "<input type=\"range\" name=\"\(e(name))\" min=\"\(lo)\" max=\"\(hi)\" step=\"1\" value=\"\(answered ?? (lo + hi) / 2)\""
                + (answered == nil ? " data-unanswered=\"1\"" : "") + "\(required)> <output>\(answered.map(String.init) ?? "not answered")</output>"
                + " <button type=\"button\" class=\"clear-answer\">Clear</button>"
            return control(name: f.name, label: label, html: slider, hint: "\(lo)–\(hi)")
        case .choice:
            var s = ""
            for o in f.options { s += "<label><input type=\"radio\" name=\"\(e(name))\" value=\"\(e(o))\"\(o == text ? " checked" : "")\(required)> \(e(o))</label> " }
            return control(name: f.name, label: label, html: s + notAnswered(name, chosen: value == nil), group: true)
        case .multi:
            let chosen: Set<String>
            if case let .array(items)? = value { chosen = Set(items.compactMap(\.stringValue)) } else { chosen = [] }
            var s = ""
            for o in f.options { s += "<label><input type=\"checkbox\" name=\"\(e(name))\" value=\"\(e(o))\"\(chosen.contains(o) ? " checked" : "")> \(e(o))</label> " }
            return control(name: f.name, label: label, html: s, group: true)
        case .date:
            return control(name: f.name, label: label, html: "<input type=\"date\" name=\"\(e(name))\" value=\"\(e(text))\"\(required)>")
        case .bool:
            // Yes, no, or not answered: a check box cannot tell "no" from "not asked".
            var s = ""
            for (answer, shown) in [(true, "yes"), (false, "no")] {
                s += "<label><input type=\"radio\" name=\"\(e(name))\" value=\"\(answer)\"\(value == .bool(answer) ? " checked" : "")> \(shown)</label> "
            }
            return control(name: f.name, label: label, html: s + notAnswered(name, chosen: value == nil), group: true)
        case .number:
            return control(name: f.name, label: label,
                           html: "<input type=\"number\" step=\"any\" name=\"\(e(name))\" value=\"\(e(text))\" min=\"\(number(f.min))\" max=\"\(number(f.max))\"\(required)> \(e(f.unit ?? ""))")
        case .integer:
            return control(name: f.name, label: label,
                           html: "<input type=\"number\" step=\"1\" name=\"\(e(name))\" value=\"\(e(text))\" min=\"\(number(f.min))\" max=\"\(number(f.max))\"\(required)> \(e(f.unit ?? ""))")
        case .time:
            let shown = value.flatMap(FieldCondition.timeOfDay).map { TemplateField.timeText(Int($0)) } ?? text
            return control(name: f.name, label: label, html: "<input type=\"time\" name=\"\(e(name))\" value=\"\(e(shown))\"\(required)>")
        case .text:
            return control(name: f.name, label: label, html: "<input name=\"\(e(name))\" value=\"\(e(text))\" maxlength=\"\(number(f.max))\"\(required)>", hint: f.hint)
        }
    }
}
