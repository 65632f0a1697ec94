// How `new --template` fills a draft from a template (the templates issue completes this).
import DaybookCore

enum NewTemplate {
    /// Applies the template's front matter to the draft and returns its starting text, or nil
    /// without a template.
    static func prepare(_ name: String?, diary: Diary, draft: inout EntryDraft, interactive: Bool) throws -> String? {
        guard let name else { return nil }
        draft.template = name
        throw DaybookError.usage("templates are not available in this build yet (--template \(name))")
    }
}
