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
    /// calling `found` for each entry with a match and `problem` for each unreadable entry.
    public func search(_ diary: Diary, filter: CompiledFilter, problem: (Diagnostic) -> Void,
                       found: (GrepResult) throws -> Void) rethrows {
        var files = diary.entryFiles()
        if let last = filter.last {
            // `--last N` needs the N most recent entries that pass: a first pass keeps only their dates.
            var passing: [(date: LocalDateTime, id: String, path: String)] = []
            for rel in files {
                guard let (entry, _) = diary.readEntryText(rel, problem: problem), filter.matches(entry) else { continue }
                passing.append((entry.date, entry.id, rel))
            }
            passing.sort { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
            files = passing.suffix(last).map(\.path)
        }
        for rel in files {
            // Problems were reported by the first pass already when there was one.
            guard let (entry, text) = diary.readEntryText(rel, problem: filter.last == nil ? problem : { _ in }) else { continue }
            if filter.last == nil, !filter.matches(entry) { continue }
            let lines = search(text)
            if let failure = pattern.takeFailure() {
                problem(Diagnostic(.warning, "the pattern gave up on a line (\(failure)): matches may be missing",
                                   at: SourceLocation(path: diary.displayPath(rel))))
            }
            if !lines.isEmpty { try found(GrepResult(id: entry.id, path: rel, lines: lines)) }
        }
    }
}

extension Diary {
    /// Reads one entry keeping its text as lines, for work on the lines themselves; an
    /// unreadable entry goes to `problem` and gives nil.
    func readEntryText(_ rel: String, problem: (Diagnostic) -> Void) -> (Entry, EntryText)? {
        let url = self.url(rel)
        let shown = displayPath(rel)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problem(Diagnostic(.io("cannot read the file", at: SourceLocation(path: shown))))
            return nil
        }
        guard let string = String(validatingUTF8Data: data) else {
            problem(Diagnostic(EntryParser.utf8Error(data, path: shown)))
            return nil
        }
        do {
            let text = try EntryText(string, path: shown)
            let ink = FileManager.default.fileExists(atPath: String(url.path.dropLast(3)) + ".strokes.json")
            let outcome = parser.parse(text, relativePath: rel, displayPath: shown, hasInk: ink)
            outcome.problems.forEach { problem(Diagnostic($0)) }
            return outcome.entry.map { ($0, text) }
        } catch {
            problem(Diagnostic(error as? DaybookError ?? .input("\(error)", at: SourceLocation(path: shown))))
            return nil
        }
    }
}
