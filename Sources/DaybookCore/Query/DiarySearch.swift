// Searching a whole diary: entry files are read and searched one at a time, never all held at once.
import Foundation

/// The lines of one entry that matched, with their context.
public struct GrepResult: Sendable {
    public var id: String
    /// Relative to the diary.
    public var path: String
    public var lines: [GrepLine]

    public var matchingLines: Int { lines.reduce(0) { $0 + ($1.isMatch ? 1 : 0) } }
}

extension Grep {
    /// Searches the entries that pass `filter`, in path order (ids start with the entry's date),
    /// calling `found` for each entry with a match and `problem` for each unreadable entry. The
    /// filter works on cached metadata; only the passing entries' files are read, one at a time.
    public func search(_ diary: Diary, filter: CompiledFilter, problem: (Diagnostic) -> Void,
                       found: (GrepResult) throws -> Void) rethrows {
        var unreadable: [Diagnostic] = []
        let passing = filter.apply(diary.loadEntries(diagnostics: &unreadable, bodies: false)).sorted { $0.path < $1.path }
        unreadable.forEach(problem)
        for entry in passing {
            guard let text = diary.readEntryText(entry.path, problem: problem) else { continue }
            let lines = search(text)
            if let failure = pattern.takeFailure() {
                problem(Diagnostic(.warning, "the pattern gave up on a line (\(failure)): matches may be missing",
                                   at: SourceLocation(path: diary.displayPath(entry.path))))
            }
            if !lines.isEmpty { try found(GrepResult(id: entry.id, path: entry.path, lines: lines)) }
        }
    }
}

extension Diary {
    /// The text of an entry file as lines; a file that became unreadable goes to `problem`.
    func readEntryText(_ rel: String, problem: (Diagnostic) -> Void) -> EntryText? {
        let shown = displayPath(rel)
        guard let data = FileManager.default.contents(atPath: url(rel).path) else {
            problem(Diagnostic(.io("cannot read the file", at: SourceLocation(path: shown))))
            return nil
        }
        guard let string = String(validatingUTF8Data: data) else {
            problem(Diagnostic(EntryParser.utf8Error(data, path: shown)))
            return nil
        }
        do { return try EntryText(string, path: shown) } catch {
            problem(Diagnostic(error as? DaybookError ?? .input("\(error)", at: SourceLocation(path: shown))))
            return nil
        }
    }
}
