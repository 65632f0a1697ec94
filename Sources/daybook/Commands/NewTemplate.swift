// How `new --template` fills a draft from a template: field values from prompts or --set, then the rendered text.
import DaybookCore
import Foundation

enum NewTemplate {
    /// Applies the template's front matter to the draft and returns its starting text, or nil
    /// without a template. Every field is checked here, before anything is written.
    static func prepare(_ name: String?, diary: Diary, draft: inout EntryDraft, interactive: Bool) throws -> String? {
        guard let name else { return nil }
        let template = try TemplateLibrary(diary: diary).require(name)
        try TemplateFill.apply(template, to: &draft, diaryMoodScale: diary.config.moodMin...diary.config.moodMax,
                               ask: interactive ? FieldPrompt.ask : nil)
        let fields = draft.fields + (draft.mood.map { [("mood", JSONValue.int($0))] } ?? [])
        return try TemplateRenderer.render(template, date: draft.date, title: draft.title, fields: fields) {
            var unreadable: [Diagnostic] = []
            return WeekSummary(entries: diary.loadEntries(diagnostics: &unreadable, bodies: false), endingOn: draft.date.day,
                               moodScale: diary.config.moodMin...diary.config.moodMax,
                               templateMoodScale: diary.templateMoodScales.scale(of:))
        }
    }
}
