// Committing an entry that was changed in place: by an editor, the language server's save, the web app.
import Foundation

extension Diary {
    /// Commits the entry at `rel`, changed in place by someone else than daybook, as
    /// `edit: TITLE` (outside edits of other files are committed apart first, SPEC §4.1). The file
    /// must parse: otherwise its problems are thrown and nothing is committed, so a broken entry
    /// never reaches history as if it were sound. Returns the entry and the commit, nil when the
    /// file is as committed.
    @discardableResult
    public func commitEdit(of rel: String) throws -> (entry: Entry, commit: String?) {
        let outcome = readEntry(rel)
        guard let entry = outcome.entry else {
            throw outcome.problems.first ?? DaybookError.input("the entry cannot be read", at: SourceLocation(path: displayPath(rel)))
        }
        let change = try Change(self, excluding: [rel])
        change.touch(rel)
        return (entry, try change.commit("edit: \(entry.title)"))
    }
}
