// Editing one entry file inside a Change: read, edit the text in place, rewrite if it changed.
import Foundation

extension Change {
    /// Reads the entry at `rel`, lets `edit` change its text, and rewrites the file when it
    /// changed, unless something else changed the file meanwhile. An entry that does not parse is
    /// refused (its first problem is thrown), so nothing is rewritten on a misreading.
    @discardableResult
    public func editEntry(_ rel: String, _ edit: (inout EntryText, Entry) throws -> Void) throws -> Bool {
        let display = diary.displayPath(rel)
        guard let data = FileManager.default.contents(atPath: diary.url(rel).path) else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: display))
        }
        guard let source = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        var text = try EntryText(source, path: display)
        let outcome = diary.parser.parse(text, relativePath: rel, displayPath: display)
        guard let entry = outcome.entry else {
            throw outcome.problems.first ?? DaybookError.input("the entry cannot be read", at: SourceLocation(path: display))
        }
        let before = text
        try edit(&text, entry)
        guard text != before else { return false }
        try rewrite(rel, expected: data, with: Data(text.text.utf8))
        return true
    }
}
