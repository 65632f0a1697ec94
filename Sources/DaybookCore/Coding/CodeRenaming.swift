// Renaming a code everywhere: the codebook and every coding of every entry, in one commit. The
// command line's `code rename` and the language server's rename share it.
import Foundation

public enum CodeRenaming {
    /// Rewrites, in `change`, the front-matter codings of every entry whose code `map` renames.
    /// Returns the titles of the entries changed, and warnings: a highlighter coding keeps its
    /// code (it lives in the stroke file), an entry that could not be read is left out.
    public static func recode(_ diary: Diary, in change: Change, _ map: (String) -> String?) throws -> (titles: [String], warnings: [Diagnostic]) {
        var diags: [Diagnostic] = []
        var titles: [String] = []
        for e in diary.loadEntries(diagnostics: &diags, bodies: false) where e.codings.contains(where: { map($0.code) != nil }) {
            for c in e.codings where c.source != .frontMatter && map(c.code) != nil {
                diags.append(Diagnostic(.warning, "the highlighter coding `\(c.code)` lives in the stroke file and keeps its code",
                                        at: SourceLocation(path: diary.displayPath(String(e.path.dropLast(3)) + ".strokes.json"))))
            }
            if try change.editEntry(e.path, { text, _ in recode(&text, map) }) { titles.append(e.title) }
        }
        return (titles, diags)
    }

    /// The same edit of one entry's text (an editor's buffer follows a rename with it).
    public static func recode(_ text: inout EntryText, _ map: (String) -> String?) {
        var lines = CodingLines(text)
        lines.update { c in
            guard let to = map(c.code) else { return c }
            var new = c
            new.code = to
            return new
        }
        text = lines.text
    }

    /// `code rename OLD NEW`: the codebook's definition (when there is one) and every coding, one
    /// commit `code rename: OLD → NEW (N entries)`. Throws `.nothing` when OLD is neither defined
    /// nor used. Returns the summary and the warnings of `recode`.
    public static func rename(_ old: String, to new: String, in diary: Diary) throws -> (summary: String, warnings: [Diagnostic]) {
        guard old != new else { throw DaybookError.usage("the old and the new name are the same") }
        var book = try Codebook.load(diary)
        let defined = book.contains(old)
        if defined { try book.rename(old, to: new) }
        let change = try Change(diary)
        try change.allOrNothing("code rename \(old) \(new)")
        let (titles, warnings) = try recode(diary, in: change) { $0 == old ? new : nil }
        guard defined || !titles.isEmpty else { throw DaybookError.nothing("daybook: no code `\(old)` in the codebook or in any entry") }
        try change.write(book)
        let summary = "\(old) → \(new) (\(titles.count == 1 ? "1 entry" : "\(titles.count) entries"))"
        try change.commit("code rename: \(summary)" + (titles.isEmpty ? "" : "\n\n" + titles.joined(separator: "\n")))
        return (summary, warnings)
    }

    /// `code merge SOURCES --into TARGET`: the merged codes leave the codebook (their children move
    /// under the target) and every coding of them becomes one of the target, one commit
    /// `code merge: A, B → TARGET (N entries)`. Throws `.nothing` when none is defined or used.
    /// The command line and the web app's code page both come here.
    public static func merge(_ sources: [String], into target: String, in diary: Diary) throws -> (summary: String, warnings: [Diagnostic]) {
        let sources = sources.filter { $0 != target }
        guard !sources.isEmpty else { throw DaybookError.usage("name the codes to merge into \(target)") }
        var book = try Codebook.load(diary)
        let defined = sources.contains(where: book.contains)
        try book.merge(sources, into: target)
        let change = try Change(diary)
        try change.allOrNothing("code merge")
        let (titles, warnings) = try recode(diary, in: change) { sources.contains($0) ? target : nil }
        guard defined || !titles.isEmpty else { throw DaybookError.nothing("daybook: none of \(sources.joined(separator: ", ")) is in the codebook or in any entry") }
        try change.write(book)
        let summary = "\(sources.joined(separator: ", ")) → \(target) (\(titles.count == 1 ? "1 entry" : "\(titles.count) entries"))"
        try change.commit("code merge: \(summary)" + (titles.isEmpty ? "" : "\n\n" + titles.joined(separator: "\n")))
        return (summary, warnings)
    }
}
