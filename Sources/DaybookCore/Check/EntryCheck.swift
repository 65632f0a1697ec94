// `check` for one entry: the problems of its text, read from the file or from an editor's unsaved buffer.
import Foundation

/// What `daybook check` reports about one entry, from its text: the front matter (YAML, `date`,
/// mood, tags, codings), the fields its template declares, its codings against the body and
/// the codebook, and its links. The language server runs it on every change of a buffer.
public struct EntryCheck {
    /// The entry, when its text parses.
    public var entry: Entry?
    /// The entry, or what of it still reads when it has problems (`EntryParser.Outcome.partial`):
    /// its codings, links and fields are checked all the same, and an editor keeps working on it.
    public var usable: Entry?
    public var problems: [Diagnostic]

    /// Checks `source` as the text of the entry at `rel` (relative to the diary). With
    /// `undefinedCodes`, codes missing from a codebook that is not strict are warnings too;
    /// `links` resolves the body's links (by default against the entry files on disk).
    public init(_ source: String, rel: String, diary: Diary, codebook: Codebook, undefinedCodes: Bool = true, links: EntryLinks? = nil) {
        let display = diary.displayPath(rel)
        let text: EntryText
        do { text = try EntryText(source, path: display) } catch {
            entry = nil
            usable = nil
            problems = [EntryCheck.diagnostic(error, path: display)]
            return
        }
        let outcome = diary.readEntry(rel, text: text)
        problems = outcome.problems.map { Diagnostic($0, severity: .error) }
        entry = outcome.entry
        usable = outcome.entry ?? outcome.partial
        guard let entry = usable else { return }
        if let name = entry.template, Template.isValidName(name),
           let template = try? TemplateLibrary(diary: diary).template(named: name), !template.fields.isEmpty {
            problems += TemplateFieldsCheck().problems(of: entry, against: template, diary: diary, text: text)
        }
        problems += CodingCheck.problems(of: entry, text: text, codebook: codebook, diary: diary,
                                         undefinedCodes: undefinedCodes) { entry.body }
        problems += (links ?? EntryLinks(diary)).problems(of: entry)
    }

    static func diagnostic(_ error: Error, path: String) -> Diagnostic {
        if let e = error as? DaybookError { return Diagnostic(e, severity: .error) }
        return Diagnostic(.error, "\(error)", at: SourceLocation(path: path))
    }
}
