// Searching a whole diary: the word index chooses the files, which are read and searched one at a
// time, never all held at once.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The lines of one entry that matched, with their context.
public struct GrepResult: Sendable {
    public var id: String
    /// Relative to the diary.
    public var path: String
    /// The matching lines and their context; empty unless `GrepOptions.output` is `.lines`.
    public var lines: [GrepLine]
    /// How many lines matched (with `GrepOptions.output` `.exists`: 1).
    public var matchingLines: Int
}

/// What the search of one file found.
struct FileResult {
    var lines: [GrepLine] = []
    var count = 0
    var problems: [Diagnostic] = []
}

extension Grep {
    /// Searches the entries that pass `filter`, in path order (ids start with the entry's date),
    /// calling `found` for each entry with a match and `problem` for each unreadable entry. The
    /// filter works on cached metadata; the word index (`index`) leaves out files that lack a
    /// word the pattern needs; the remaining files are read a batch at a time, searched on
    /// every core, and reported in order. `reading` hears (files, of files) while many entries
    /// are parsed afresh (a cold metadata cache), `indexing` while the index is built.
    /// A process that keeps the entries between requests passes its `snapshot` (else the diary is
    /// walked); `newestFirst` reports in reverse path order, and `found` returning false stops the
    /// search after the batch at hand (search as you type wants the newest few, not all).
    public func search(_ diary: Diary, snapshot given: EntrySnapshot? = nil, newestFirst: Bool = false,
                       filter: CompiledFilter, index policy: WordIndexPolicy = WordIndexPolicy(),
                       reading: ((Int, Int) -> Void)? = nil, indexing: ((Int, Int) -> Void)? = nil,
                       problem: (Diagnostic) -> Void, found: (GrepResult) throws -> Void) rethrows {
        try searchWhile(diary, snapshot: given, newestFirst: newestFirst, filter: filter, index: policy, reading: reading,
                        indexing: indexing, problem: problem, found: { try found($0); return true })
    }

    /// `search`, stopped once `found` returns false.
    public func searchWhile(_ diary: Diary, snapshot given: EntrySnapshot? = nil, newestFirst: Bool = false,
                       filter: CompiledFilter, index policy: WordIndexPolicy = WordIndexPolicy(),
                       reading: ((Int, Int) -> Void)? = nil, indexing: ((Int, Int) -> Void)? = nil,
                       problem: (Diagnostic) -> Void, found: (GrepResult) throws -> Bool) rethrows {
        let runs = policy.enabled ? PatternLiterals.runs(source, fixed: options.fixed) : []
        // One walk serves both: the metadata pass and the word index check their files by it.
        let snapshot = given ?? diary.scanEntries(progress: reading)
        if given == nil { UntilExit.keep(snapshot) }
        snapshot.diagnostics.forEach(problem)
        // Files are named by their place in the walk (which is in path order); a String path is
        // made only for a file that is read. An entry is decoded only when a filter looks past
        // its date.
        var chosen = filter.positions(snapshot).map(snapshot.fileIndex).sorted()
        if !runs.isEmpty, chosen.count >= max(1, policy.minimumEntries) {
            let lookup = WordIndexLookup(diary, files: snapshot.files, walkedAt: snapshot.walkedAt)
            if lookup.needsBuild { lookup.rebuild(progress: indexing) }
            if let keep = lookup.candidates(runs: runs) { chosen = chosen.filter { keep[$0] } }
        }
        var passing = chosen.map { i in let path = snapshot.files.rel(i); return (id: Entry.id(ofPath: path), path: path) }
        if !zip(passing, passing.dropFirst()).allSatisfy({ $0.path < $1.path }) { passing.sort { $0.path < $1.path } }
        if newestFirst { passing.reverse() }
        let workers = [self] + (1..<max(1, ProcessInfo.processInfo.activeProcessorCount)).compactMap { _ in try? copy() }
        let root = diary.root.path
        let batch = 256
        var start = 0
        while start < passing.count {
            let items = passing[start..<min(start + batch, passing.count)]
            var results = [FileResult](repeating: FileResult(), count: items.count)
            results.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                    let grep = workers[w]
                    for k in stride(from: w, to: items.count, by: workers.count) {
                        slots[k] = grep.searchFile(items[start + k].path, root: root, in: diary)
                    }
                }
            }
            var more = true
            for (entry, result) in zip(items, results) {
                result.problems.forEach(problem)
                if more, result.count > 0 {
                    more = try found(GrepResult(id: entry.id, path: entry.path, lines: result.lines, matchingLines: result.count))
                }
            }
            if !more { return }
            start += items.count
        }
    }

    /// Files larger than this are matched line by line only (see `searchFile`).
    static let wholeFileLimit = 1 << 20

    /// One file's matching lines and the problems met reading it.
    func searchFile(_ rel: String, root: String, in diary: Diary) -> FileResult {
        guard let filePattern else { return searchText(rel, in: diary) }
        guard file.read(rel, in: root) else {
            return FileResult(problems: [Diagnostic(.io("cannot read the file", at: SourceLocation(path: diary.displayPath(rel))))])
        }
        return file.withBytes { bytes, starts -> FileResult? in
            if mayAnchorEnd, bytes.contains(UInt8(ascii: "\r")) { return nil }
            // A match attempt may run on over many lines (`\s*`, `[^x]*`): in a very large file
            // that could cost more than matching line by line.
            if !options.fixed, bytes.count > Grep.wholeFileLimit { return nil }
            // The lines where a match of the whole file starts: the others cannot match alone.
            var marked: [Int] = []
            var everyLine = false
            var line = 0
            var at = 0
            scan: while true {
                switch filePattern.firstMatch(in: bytes, from: at, checkUTF8: at == 0 && !FileBytes.isASCII(bytes)) {
                case .invalid: return nil
                case .failed: everyLine = true; break scan
                case .none: break scan
                case let .at(s):
                    while line + 1 < starts.count, starts[line + 1] <= s { line += 1 }
                    if marked.last != line { marked.append(line) }
                    guard line + 1 < starts.count else { break scan }
                    at = starts[line + 1]
                }
            }
            if marked.isEmpty && !everyLine && !mayAnchorStart { return FileResult() }
            guard let layout = FrontMatterLayout(bytes, starts) else { return nil }
            var title: (lines: Range<Int>, valueStart: Int)?
            if !options.frontMatter, everyLine || mayAnchorStart || options.before + options.after > 0 || marked.first.map({ $0 < layout.closing }) ?? false {
                title = layout.title(bytes, starts)
            }
            if mayAnchorStart, let first = title?.lines.lowerBound, !marked.contains(first) {
                marked.append(first)
                marked.sort()
            }
            let (lines, count) = search(bytes, starts: starts, closing: layout.closing, title: title,
                                        candidates: everyLine ? nil : marked, output: options.output)
            var result = FileResult(lines: lines, count: count)
            if let failure = pattern.takeFailure() {
                result.problems.append(Diagnostic(.warning, "the pattern gave up on a line (\(failure)): matches may be missing",
                                                  at: SourceLocation(path: diary.displayPath(rel))))
            }
            return result
        } ?? searchText(rel, in: diary)
    }

    /// One file searched line by line as text: for patterns that whole-file matching cannot
    /// narrow down, and for files that are not UTF-8 or have no front matter (to say so).
    func searchText(_ rel: String, in diary: Diary) -> FileResult {
        var result = FileResult()
        guard let data = FileManager.default.contents(atPath: diary.url(rel).path) else {
            return FileResult(problems: [Diagnostic(.io("cannot read the file", at: SourceLocation(path: diary.displayPath(rel))))])
        }
        guard let string = String(validatingUTF8Data: data) else {
            return FileResult(problems: [Diagnostic(EntryParser.utf8Error(data, path: diary.displayPath(rel)))])
        }
        guard let text = diary.entryText(string, rel, problem: { result.problems.append($0) }) else { return result }
        let lines = search(text)
        result.count = lines.reduce(0) { $0 + ($1.isMatch ? 1 : 0) }
        if options.output == .lines { result.lines = lines }
        if options.output == .exists { result.count = min(result.count, 1) }
        if let failure = pattern.takeFailure() {
            result.problems.append(Diagnostic(.warning, "the pattern gave up on a line (\(failure)): matches may be missing",
                                              at: SourceLocation(path: diary.displayPath(rel))))
        }
        return result
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

