// Renaming a tag everywhere: front matter and inline #tags of every entry, in one commit. The
// command line's `tag rename` and the language server's rename share it.
import Foundation

public enum TagRenaming {
    /// Renames tag `old` (and the tags nested under it) to `new` in one entry's text: its front
    /// matter, its inline #tags (in prose only), and the quotes that hold a renamed #tag. Returns
    /// what changed (" front matter", " 2 inline, quotes"), empty when nothing did.
    @discardableResult
    public static func edit(_ text: inout EntryText, _ old: String, to new: String) -> String {
        var report = ""
        var lines = TagLines(text)
        if lines.rename(old, to: new) { report += " front matter" }
        text = lines.text
        let before = text.body
        let (body, replaced) = Prose.renamingInlineTag(old, to: new, in: before)
        guard !replaced.isEmpty else { return report }
        text.setBody(body)
        report += " \(replaced.count) inline"
        // Quotes that hold a renamed #tag follow it instead of becoming orphans.
        var codings = CodingLines(text)
        let edits = replaced.map { (range: $0, length: new.unicodeScalars.count + 1) }
        if codings.update({ $0.following(edits, from: before, to: body) }) > 0 { report += ", quotes"; text = codings.text }
        return report
    }

    /// The entries that have the tag (or one nested under it).
    public static func entries(with old: String, in diary: Diary, diagnostics: inout [Diagnostic]) -> [Entry] {
        diary.loadEntries(diagnostics: &diagnostics, bodies: false).filter { $0.tags.contains { Tag.matches($0, query: old) } }
    }

    /// `tag rename OLD NEW` over `entries` (those `entries(with:)` found): one commit
    /// `tag rename: #OLD → #NEW (N entries)`. Returns the summary.
    public static func rename(_ old: String, to new: String, entries: [Entry], in diary: Diary) throws -> String {
        guard old != new else { throw DaybookError.usage("the old and the new name are the same") }
        guard !entries.isEmpty else { throw DaybookError.nothing("daybook: no entry has the tag #\(old)") }
        let change = try Change(diary)
        try change.allOrNothing("tag rename #\(old) #\(new)")
        var changed: [String] = []
        for e in entries {
            var report = ""
            try change.editEntry(e.path) { text, _ in report = edit(&text, old, to: new) }
            if !report.isEmpty { changed.append(e.title) }
        }
        let summary = "#\(old) → #\(new) (\(changed.count) entr\(changed.count == 1 ? "y" : "ies"))"
        try change.commit("tag rename: \(summary)\n\n" + changed.joined(separator: "\n"))
        return summary
    }
}
