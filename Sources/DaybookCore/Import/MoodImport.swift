// An imported mood checked against its own scale: its template's (emotion: 1–10), else the diary's.
import Foundation

enum MoodImport {
    /// Throws `fail(problem)` when the draft's mood is off the scale it is on (MoodScales): an
    /// emotion entry's 8 is on 1–10, not off the diary's 1–5. A template name that is not one file
    /// name is not looked up (ImportPath refuses it).
    static func check(_ d: EntryDraft, diary: Diary, fail: (String) -> DaybookError) throws {
        guard let mood = d.mood else { return }
        let scales = diary.moodScales
        var scale = scales.diary
        var whose = "the diary's scale"
        if let t = d.template, ImportPath.problem(component: t) == nil, let own = scales.ofTemplate(t) {
            scale = own
            whose = "the scale of the template `\(t)`"
        }
        guard scale.contains(mood) else {
            throw fail("\(mood) is off \(whose), \(scale.lowerBound)–\(scale.upperBound)")
        }
    }
}
