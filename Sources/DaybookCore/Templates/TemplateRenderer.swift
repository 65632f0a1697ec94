// Rendering a template's body with Mustache: the entry's date, time, weekday, title, field values and the week.
import Foundation
import Mustache

public enum TemplateRenderer {
    /// What the body may use: `{{date}}`, `{{time}}`, `{{weekday}}`, `{{title}}`, each field by
    /// its name, `{{#week}}` (computed only when the body mentions it, since it reads every entry)
    /// and `{{prompt}}`, the day's prompt from `prompts` (unless a field is called `prompt`).
    public static func render(_ template: Template, date: LocalDateTime, title: String?,
                              fields: [(String, JSONValue)], prompts: () -> [String] = { BuiltinPrompts.all },
                              week: () -> WeekSummary) throws -> String {
        // Entries are Markdown, not HTML: values go in as written (`&` stays `&`). The pragma's
        // own line is dropped from the output, and from the line numbers in errors.
        let source = "{{% CONTENT_TYPE: TEXT}}\n" + template.body
        let mustache: MustacheTemplate
        do { mustache = try MustacheTemplate(string: source) } catch let e as MustacheTemplate.ParserError {
            throw DaybookError.input("the template text is not valid Mustache: \(e.error)",
                                     at: SourceLocation(path: template.path, line: template.bodyStartLine + max(e.context.lineNumber - 2, 0),
                                                        column: e.context.columnNumber))
        } catch {
            throw DaybookError.input("the template text is not valid Mustache: \(error)", at: SourceLocation(path: template.path))
        }
        var context: [String: Any] = [:]
        for (key, value) in fields { context[key] = mustacheValue(value) }
        context["date"] = date.day.description
        context["time"] = String(format: "%02d:%02d", date.hour, date.minute)
        context["weekday"] = weekdayNames[date.day.weekday - 1]
        context["title"] = title ?? ""
        if mentionsWeek(template.body) { context["week"] = week().mustacheContext }
        if context["prompt"] == nil, mentionsPrompt(template.body) { context["prompt"] = PromptList.prompt(on: date.day, from: prompts()) ?? "" }
        return mustache.render(context)
    }

    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Whether the body uses `week` (`{{#week}}`, `{{^week}}`, `{{week.words}}`).
    static func mentionsWeek(_ body: String) -> Bool {
        body.range(of: #"\{\{[#^]?\s*week\b"#, options: .regularExpression) != nil
    }

    /// Whether the body uses `prompt` (`{{prompt}}`, `{{#prompt}}`).
    static func mentionsPrompt(_ body: String) -> Bool {
        body.range(of: #"\{\{[#^&{]?\s*prompt\b"#, options: .regularExpression) != nil
    }

    /// Field values as Mustache shows them: lists joined with commas.
    static func mustacheValue(_ v: JSONValue) -> Any {
        switch v {
        case let .array(items): return items.compactMap(\.stringValue).joined(separator: ", ")
        case let .bool(b): return b
        default: return v.stringValue ?? ""
        }
    }
}
