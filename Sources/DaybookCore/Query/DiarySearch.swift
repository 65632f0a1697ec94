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
    /// filter works on cached metadata; only the passing entries' files are read, a batch at a
    /// time, searched on every core, and reported in order.
    public func search(_ diary: Diary, filter: CompiledFilter, problem: (Diagnostic) -> Void,
                       found: (GrepResult) throws -> Void) rethrows {
        var unreadable: [Diagnostic] = []
        let passing = filter.apply(diary.loadEntries(diagnostics: &unreadable, bodies: false)).sorted { $0.path < $1.path }
        unreadable.forEach(problem)
        let workers = [self] + (1..<max(1, ProcessInfo.processInfo.activeProcessorCount)).compactMap { _ in try? copy() }
        let batch = 256
        var start = 0
        while start < passing.count {
            let items = Array(passing[start..<min(start + batch, passing.count)])
            start += items.count
            var results = [(lines: [GrepLine], problems: [Diagnostic])](repeating: ([], []), count: items.count)
            results.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                    let grep = workers[w]
                    for k in stride(from: w, to: items.count, by: workers.count) {
                        slots[k] = grep.searchFile(items[k].path, in: diary)
                    }
                }
            }
            for (entry, result) in zip(items, results) {
                result.problems.forEach(problem)
                if !result.lines.isEmpty { try found(GrepResult(id: entry.id, path: entry.path, lines: result.lines)) }
            }
        }
    }

    /// One file's matching lines and the problems met reading it.
    func searchFile(_ rel: String, in diary: Diary) -> (lines: [GrepLine], problems: [Diagnostic]) {
        var problems: [Diagnostic] = []
        guard let data = FileManager.default.contents(atPath: diary.url(rel).path) else {
            return ([], [Diagnostic(.io("cannot read the file", at: SourceLocation(path: diary.displayPath(rel))))])
        }
        guard var string = String(validatingUTF8Data: data) else {
            return ([], [Diagnostic(EntryParser.utf8Error(data, path: diary.displayPath(rel)))])
        }
        if isPlainText, string.withUTF8({ pattern.matches(in: $0).isEmpty }) {
            _ = pattern.takeFailure()
            return ([], [])
        }
        guard let text = diary.entryText(string, rel, problem: { problems.append($0) }) else { return ([], problems) }
        let lines = search(text)
        if let failure = pattern.takeFailure() {
            problems.append(Diagnostic(.warning, "the pattern gave up on a line (\(failure)): matches may be missing",
                                       at: SourceLocation(path: diary.displayPath(rel))))
        }
        return (lines, problems)
    }
}

extension Diary {
    /// The text of an entry file as lines; a file without front matter goes to `problem`.
    func entryText(_ string: String, _ rel: String, problem: (Diagnostic) -> Void) -> EntryText? {
        let shown = displayPath(rel)
        do { return try EntryText(string, path: shown) } catch {
            problem(Diagnostic(error as? DaybookError ?? .input("\(error)", at: SourceLocation(path: shown))))
            return nil
        }
    }
}
