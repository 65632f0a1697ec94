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
    /// The stamp of the file the bytes were read from, when asked for and it could be read.
    var stamp: FileStamp?
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
    /// search (search as you type wants the newest few, not all; the batch at hand was read).
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
                       problem said: (Diagnostic) -> Void, found: (GrepResult) throws -> Bool) rethrows {
        // A file that does not parse is searched all the same: its problem, met by the parse and
        // by the search, is said once.
        var told = Set<String>()
        func problem(_ d: Diagnostic) { if told.insert(d.description).inserted { said(d) } }
        let runs = policy.enabled ? PatternLiterals.runs(source, fixed: options.fixed) : []
        if given == nil, !newestFirst, readsEveryFile(diary, runs: runs, filter: filter, policy: policy),
           try searchEveryFile(diary, problem: problem, found: found) {
            return
        }
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
        // An entry whose front matter does not parse is searched as the text it is (no filter
        // can tell whether it would pass, so only a search of the whole diary reads it).
        if filter.passesEverything { chosen += snapshot.unparsedFiles }
        let files = snapshot.files
        var order = Grep.pathOrder(chosen, files)
        if newestFirst { order.reverse() }
        try searchFiles(order, of: files, in: diary, stamping: false) { _, path, result in
            result.problems.forEach(problem)
            guard result.count > 0 else { return true }
            return try found(GrepResult(id: Entry.id(ofPath: path), path: path, lines: result.lines, matchingLines: result.count))
        }
    }

    /// Files `chosen` of a walk (by their place in it) in path order. Paths become Strings on the
    /// threads that read the files, unless the walk's bytes cannot tell the order.
    static func pathOrder(_ chosen: [Int], _ files: EntryWalk) -> [Int] {
        guard !files.isAscendingASCII(chosen) else { return chosen }
        return chosen.map { (i: $0, path: files.rel($0)) }.sorted { $0.path < $1.path }.map(\.i)
    }

    /// Reads and searches files `order` of a walk a batch at a time on every core, and hands each
    /// file's place, path and result to `take` in that order; `take` returning false stops the
    /// search there. With `stamping`, each result has the stamp of the file its bytes were read
    /// from.
    private func searchFiles(_ order: [Int], of files: EntryWalk, in diary: Diary, stamping: Bool,
                             take: (Int, String, FileResult) throws -> Bool) rethrows {
        // Copies of the search, one per thread at a time: a Pattern serves one thread at a time.
        let pool = ReusePool(self) { try? self.copy() }
        let root = diary.root.path
        // Batches grow from 256 files: a search that stops early (search as you type) reads
        // little, a whole search waits for its threads less often.
        var batch = 256
        var start = 0
        while start < order.count {
            let items = order[start..<min(start + batch, order.count)]
            var results = [(path: String, result: FileResult)](repeating: ("", FileResult()), count: items.count)
            let chunk = 16
            results.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                // Chunks go to whichever thread is free, so a thread held up elsewhere delays no one.
                DispatchQueue.concurrentPerform(iterations: (items.count + chunk - 1) / chunk) { c in
                    pool.with { grep in
                        for k in (c * chunk)..<min(c * chunk + chunk, items.count) {
                            let i = items[start + k]
                            let path = files.rel(i)
                            let size = stamping ? nil : files.files[i].stamp.size
                            slots[k] = (path, grep.searchFile(path, size: size, root: root, in: diary, stamping: stamping))
                        }
                    }
                }
            }
            for (k, (path, result)) in results.enumerated() {
                guard try take(items[start + k], path, result) else { return }
            }
            start += items.count
            batch = min(batch * 2, 4096)
        }
    }

    /// Below this share of the diary's files, the word index's choice is worth the walk that
    /// stats every file before it (see `readsEveryFile`).
    static let everyFileShare = 0.7

    /// Whether a search of the whole diary (no filter) is quicker reading every entry file,
    /// each stamped from the file it opened (as a cold parse does), than walking and stat-ing
    /// them all first to check the cache and the word index: when the pattern gives the index no
    /// word to look up, or the index leaves in at least `everyFileShare` of its files. On
    /// 100,000 entries, the stat walk costs about half of what reading every file does. Without
    /// an index, the walk is taken (it builds one). The choice reads only the index's word list
    /// and the postings it needs (`WordIndex.narrowing`): opening the whole index for it was
    /// 12 ms of a 0.35 s search that then did not use it.
    func readsEveryFile(_ diary: Diary, runs: [String], filter: CompiledFilter, policy: WordIndexPolicy) -> Bool {
        guard filePattern != nil, filter.passesEverything else { return false }
        if let everyFile = policy.everyFile { return everyFile }
        if runs.isEmpty { return true }
        guard let (matching, all) = WordIndex.narrowing(WordIndex.file(of: diary), runs: runs),
              all >= max(1, policy.minimumEntries) else { return false }
        return Double(matching) >= Grep.everyFileShare * Double(all)
    }

    /// Files the cache did not hold as they are, past which `searchEveryFile` writes the cache
    /// again once it is done (so the next search need not parse them again). Tests lower it.
    nonisolated(unsafe) static var rescanAfter = 1000

    /// The search of every entry file with no walk that stats them: the folders are listed, each
    /// file is read and stamped from the descriptor it was read by, and that stamp is checked
    /// against the entry cache. An entry the cache holds as readable is reported; one it holds
    /// as unreadable gives its problems instead; a file it does not hold as it is now is parsed
    /// to tell. Problems come in path order among the results. The cache is left for the next
    /// command to bring up to date, unless more than `rescanAfter` files were parsed (one at a
    /// time, here: a diary whose files nearly all changed pays that once). False (nothing done)
    /// on a cold cache, which the general search fills.
    private func searchEveryFile(_ diary: Diary, problem: (Diagnostic) -> Void,
                                 found: (GrepResult) throws -> Bool) rethrows -> Bool {
        let cache = EntryCache(diary: diary, now: FileStamp.now)
        guard cache.count > 0 else { return false }
        var files = diary.walk(stamps: false)
        var parsed = 0
        try searchFiles(Grep.pathOrder(Array(0..<files.count), files), of: files, in: diary, stamping: true) { i, path, result in
            if let stamp = result.stamp {
                files.files[i].stamp = stamp
                // An entry that does not parse is said so, and its text searched all the same.
                if let s = cache.slot(files, i) {
                    if cache.date(s) == nil { cache.problems(s, shown: diary.displayPath(path)).forEach { problem(Diagnostic($0)) } }
                } else {
                    parsed += 1
                    diary.readEntry(path).problems.forEach { problem(Diagnostic($0)) }
                }
            }
            result.problems.forEach(problem)
            guard result.count > 0 else { return true }
            return try found(GrepResult(id: Entry.id(ofPath: path), path: path, lines: result.lines, matchingLines: result.count))
        }
        if parsed > Grep.rescanAfter { _ = diary.scanEntries() }
        return true
    }

    /// Files larger than this are matched line by line only (see `searchFile`).
    static let wholeFileLimit = 1 << 20

    /// One file's matching lines and the problems met reading it. `size`: the file's size as the
    /// walk saw it, to read it with one read.
    /// With `stamping`, the file is stamped from the descriptor it is read by (`FileResult.stamp`),
    /// and only a regular file is read (`FileBytes.read`); the pattern must then have a
    /// `filePattern`.
    func searchFile(_ rel: String, size: Int? = nil, root: String, in diary: Diary, stamping: Bool = false) -> FileResult {
        // Without a filePattern the file is read as text, not through `file`, which would then
        // hold the stamp of another file.
        assert(!stamping || filePattern != nil, "a stamping search reads the file through `file`")
        var result = searchBytes(rel, size: size, root: root, in: diary, stamping: stamping)
        if stamping { result.stamp = file.stamp }
        return result
    }

    private func searchBytes(_ rel: String, size: Int?, root: String, in diary: Diary, stamping: Bool) -> FileResult {
        guard let filePattern else { return searchText(rel, in: diary) }
        guard file.read(rel, in: root, size: size, stamping: stamping) else {
            return FileResult(problems: [Diagnostic(.io("cannot read the file", at: SourceLocation(path: diary.displayPath(rel))))])
        }
        let bytes = file.bytes
        if mayAnchorEnd, let base = bytes.baseAddress, memchr(base, 0x0D, bytes.count) != nil { return searchText(rel, in: diary) }
        // A match attempt may run on over many lines (`\s*`, `[^x]*`): in a very large file
        // that could cost more than matching line by line.
        if !options.fixed, bytes.count > Grep.wholeFileLimit { return searchText(rel, in: diary) }
        // The first match in the whole file, before the lines are looked for: most files have none.
        let first = filePattern.firstMatch(in: bytes, from: 0, checkUTF8: !FileBytes.isASCII(bytes))
        if first == .invalid { return searchText(rel, in: diary) }
        if first == .none && !mayAnchorStart { return FileResult() }
        let starts = file.lineStarts
        // The lines where a match of the whole file starts: the others cannot match alone.
        var marked: [Int] = []
        var everyLine = false
        var line = 0
        var found = first
        scan: while true {
            switch found {
            case .invalid: return searchText(rel, in: diary)
            case .failed: everyLine = true; break scan
            case .none: break scan
            case let .at(s):
                while line + 1 < starts.count, starts[line + 1] <= s { line += 1 }
                if marked.last != line { marked.append(line) }
                guard line + 1 < starts.count else { break scan }
                found = filePattern.firstMatch(in: bytes, from: starts[line + 1], checkUTF8: false)
            }
        }
        if marked.isEmpty && !everyLine && !mayAnchorStart { return FileResult() }
        guard let layout = FrontMatterLayout(bytes, starts) else { return searchText(rel, in: diary) }
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
        // Without front matter to tell the title and body apart, every line is searched (the
        // problem is said as well): the words are there all the same.
        let lines = diary.entryText(string, rel, problem: { result.problems.append($0) }).map(search) ?? searchLines(string)
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

