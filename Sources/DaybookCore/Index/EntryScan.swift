// Reading every entry of a diary: one walk of entries/, parsed metadata from the cache where the
// file is unchanged, a fresh parse where it is not.
import Foundation

/// What a thread makes for another (a chunk of parses, the sorted entries), handed over when
/// their group is waited for.
private final class Handed<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// The entry files of a diary from one walk of `entries/`, sorted by path (folders in order,
/// names bytewise within a folder), each with its stamp and its stroke file's stamp. Names stay
/// bytes: a path becomes a String only for a file that is parsed or an entry that is decoded.
struct EntryWalk {
    struct File {
        var folder: Int32
        /// Where the name starts in `names` (NUL-terminated there).
        var name: Int32
        var nameCount: Int32
        var stamp: FileStamp
        var ink: FileStamp?
    }

    /// `entries/YYYY/MM/`, with the slash.
    var folders: [[UInt8]] = []
    var names: [UInt8] = []
    var files: [File] = []

    var count: Int { files.count }

    /// The path of file i relative to the diary.
    func rel(_ i: Int) -> String {
        let f = files[i]
        let folder = folders[Int(f.folder)]
        return String(unsafeUninitializedCapacity: folder.count + Int(f.nameCount)) { buf in
            _ = buf.initialize(from: folder)
            _ = UnsafeMutableBufferPointer(rebasing: buf[folder.count...]).initialize(from: names[Int(f.name)..<Int(f.name + f.nameCount)])
            return folder.count + Int(f.nameCount)
        }
    }

    /// Whether file i's path is these bytes.
    func rel(_ i: Int, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let f = files[i]
        let folder = folders[Int(f.folder)]
        guard bytes.count == folder.count + Int(f.nameCount) else { return false }
        return folder.withUnsafeBufferPointer { fb in
            names.withUnsafeBufferPointer { nb in
                memcmp(bytes.baseAddress!, fb.baseAddress!, fb.count) == 0
                    && memcmp(bytes.baseAddress! + fb.count, nb.baseAddress! + Int(f.name), Int(f.nameCount)) == 0
            }
        }
    }

    /// Whether the paths of files `order` are all ASCII and strictly ascending bytewise: then
    /// they are in the order of their Strings (which compare ASCII bytewise) without making them.
    func isAscendingASCII(_ order: [Int]) -> Bool {
        var previous: (folder: Int, name: Range<Int>)?
        // Each folder is looked at once, and each name eight bytes at a time.
        let asciiFolders = folders.map { $0.withUnsafeBufferPointer(FileBytes.isASCII) }
        return names.withUnsafeBufferPointer { nb in
            for i in order {
                let f = files[i]
                let name = Int(f.name)..<Int(f.name + f.nameCount)
                guard asciiFolders[Int(f.folder)], FileBytes.isASCII(UnsafeBufferPointer(rebasing: nb[name])) else { return false }
                if let p = previous {
                    guard folderPathOrder(p.folder, Int(f.folder), nb[p.name], nb[name]) < 0 else { return false }
                }
                previous = (Int(f.folder), name)
            }
            return true
        }
    }

    /// The bytewise order of folder `a` + name `x` against folder `b` + name `y`.
    private func folderPathOrder(_ a: Int, _ b: Int, _ x: Slice<UnsafeBufferPointer<UInt8>>, _ y: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        if a == b {
            let c = memcmp(x.base.baseAddress! + x.startIndex, y.base.baseAddress! + y.startIndex, min(x.count, y.count))
            return c != 0 ? Int(c) : x.count - y.count
        }
        let left = folders[a] + Array(x), right = folders[b] + Array(y)
        return left.lexicographicallyPrecedes(right) ? -1 : left == right ? 0 : 1
    }

    /// One month folder's entry files, sorted by name, with their stamps. Without `stamps` (the
    /// cold parse, which opens every entry file anyway), an entry file's stamp is left `unknown`
    /// for the reader to take from the file it opens (`FileBytes`) instead of a stat by name here,
    /// and readdir's d_type tells which names are regular files; stroke files are stamped still.
    static func folder(_ folder: Directory, stamps: Bool = true) -> (names: [UInt8], files: [File]) {
        guard !stamps else { return self.folder({ body in folder.forEachName { body($0, nil) } }, stamp: { folder.stamp($0) }) }
        return self.folder({ body in folder.forEachFileName { body($0, nil) } }, stamp: { folder.stamp($0) }, stampEntries: false)
    }

    /// One month folder's entry files as a walk of the working folder saw them (`WorkTree`):
    /// the same files with the same stamps as `folder(_:)` would take them when that walk was made.
    /// Nil when the walk did not read this folder.
    static func folder(_ rel: String, in tree: WorkTree) -> (names: [UInt8], files: [File])? {
        guard tree.folders[rel] != nil else { return nil }
        return folder({ body in _ = tree.forEachFile(in: rel) { name, st in body(name, st) } }, stamp: { _ in nil })
    }

    /// One month folder's entry files from its names: `forEachName` gives each name with its
    /// lstat when it has one already; `stamp` stamps a name it gave without.
    private static func folder(_ forEachName: ((UnsafeBufferPointer<UInt8>, LStat?) -> Void) -> Void,
                               stamp stampOf: (UnsafePointer<CChar>) -> FileStamp?, stampEntries: Bool = true) -> (names: [UInt8], files: [File]) {
        var names: [UInt8] = [] // every entry name, NUL-terminated, one after the other
        var starts: [(start: Int, count: Int, stat: Int32)] = [] // stat: its place in `stats`, or -1
        var stats: [LStat] = []
        var strokes: [(name: [UInt8], stat: LStat?)] = [] // stroke files, names without `.strokes.json`
        let strokeSuffix = Array(".strokes.json".utf8)
        forEachName { name, st in
            if name.count > strokeSuffix.count, name.suffix(strokeSuffix.count).elementsEqual(strokeSuffix) {
                strokes.append((Array(name.prefix(name.count - strokeSuffix.count)), st))
            } else if Diary.isEntryFileName(name) {
                starts.append((names.count, name.count, st == nil ? -1 : Int32(stats.count)))
                if let st { stats.append(st) }
                names.append(contentsOf: name)
                names.append(0)
            }
        }
        /// A regular file's stamp (Directory.stamp's rule: a symbolic link is not followed).
        func stamp(_ name: UnsafePointer<CChar>, _ st: LStat?) -> FileStamp? {
            guard let st else { return stampOf(name) }
            return st.st_mode & S_IFMT == S_IFREG ? FileStamp(st) : nil
        }
        var files: [File] = []
        files.reserveCapacity(starts.count)
        names.withUnsafeBufferPointer { all in
            let base = all.baseAddress!
            starts.sort { a, b in
                let c = memcmp(base + a.start, base + b.start, min(a.count, b.count))
                return c != 0 ? c < 0 : a.count < b.count
            }
            for (s, count, st) in starts {
                guard let entryStamp = stampEntries ? stamp(UnsafeRawPointer(base + s).assumingMemoryBound(to: CChar.self), st < 0 ? nil : stats[Int(st)])
                    : FileStamp.unknown else { continue }
                let n = UnsafeBufferPointer(start: base + s, count: count)
                var ink: FileStamp?
                if !strokes.isEmpty, let stroke = strokes.first(where: { $0.name.elementsEqual(n.prefix(n.count - 3)) }) {
                    ink = stamp(String(decoding: n.prefix(n.count - 3), as: UTF8.self) + ".strokes.json", stroke.stat)
                }
                files.append(File(folder: 0, name: Int32(s), nameCount: Int32(n.count), stamp: entryStamp, ink: ink))
            }
        }
        return (names, files)
    }
}

extension Diary {
    /// Every entry file with its stamps, from one walk; month folders are read on every core.
    /// A month folder that `seen` (a walk of the working folder made in this process) read is
    /// taken from it, with the stamps it took, instead of being read and stat-ed again.
    /// Without `stamps`, entry files get no stamp (`EntryWalk.folder(_:stamps:)`).
    func walk(seen: WorkTree? = nil, stamps: Bool = true) -> EntryWalk {
        let dirs = monthFolders()
        var parts = [(names: [UInt8], files: [EntryWalk.File])](repeating: ([], []), count: dirs.count)
        let root = self.root.path + "/"
        parts.withUnsafeMutableBufferPointer { slots in
            let slots = slots
            let workers = min(dirs.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for k in stride(from: w, to: dirs.count, by: workers) {
                    if let seen, let part = EntryWalk.folder(dirs[k], in: seen) {
                        slots[k] = part
                    } else if let folder = Directory(root + dirs[k]) {
                        slots[k] = EntryWalk.folder(folder, stamps: stamps)
                    }
                }
            }
        }
        var walk = EntryWalk()
        walk.folders = dirs.map { Array(($0 + "/").utf8) }
        walk.files.reserveCapacity(parts.reduce(0) { $0 + $1.files.count })
        walk.names.reserveCapacity(parts.reduce(0) { $0 + $1.names.count })
        for (k, part) in parts.enumerated() {
            let shift = Int32(walk.names.count)
            walk.names += part.names
            for var f in part.files {
                f.folder = Int32(k)
                f.name += shift
                walk.files.append(f)
            }
        }
        return walk
    }

    /// A file parsed by `scanEntries` on a parsing thread: what the thread that writes the next
    /// cache needs of it. Its cache record is encoded where it was parsed, so the entry is made,
    /// encoded and dropped on one thread and never copied to another.
    struct Parsed {
        /// Its stamp as it was read (unknown when it could not be).
        var stamp: FileStamp
        /// The entry's date; nil when the file gave no entry.
        var date: LocalDateTime?
        /// Its problems: why there is no entry, or warnings beside one.
        var problems: [DaybookError]
        /// Its record (`EntryCache.encode`) in its part's bytes; nil when the cache does not keep it.
        var record: Range<Int>?
        /// The part of its chunk whose bytes hold the record.
        var part: Int
        /// The entry, without its body, when the cache does not keep it.
        var entry: Entry?
    }

    /// A chunk of parsed files, and the bytes of their records, one array per part of the chunk
    /// (each part parsed in order by one thread).
    struct ParsedChunk {
        var files: [Parsed?] = []
        var parts: [[UInt8]] = []
    }

    /// How many parts a chunk is parsed in, each by one thread in file order: enough that every
    /// core has parts to take until the chunk's end.
    static let parseParts = 16

    /// Files parsed a chunk at a time by `scanEntries`: 4,096. Each chunk's end is a wait for the
    /// next to be handed out; at 100,000 entries (cold, alternated runs) 512 took 1.30 s, 2,048
    /// 1.10 s, 4,096 1.03 s, 8,192 and 16,384 1.05 s, with peak memory 123 MB at 2,048 and 135 MB
    /// at 8,192. Tests make it small to cross many chunks.
    static let defaultParseChunk = 4096
    nonisolated(unsafe) static var parseChunk = defaultParseChunk

    /// The chunks `count` files are parsed in: `size` files each, then smaller and smaller (half
    /// of what is left, down to a sixteenth of `size`), so the last chunk, whose records are taken
    /// in while no other thread has files to parse, is short.
    static func parseChunks(_ count: Int, size: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        let smallest = max(1, size / 16)
        var start = 0
        while start < count {
            let rest = count - start
            let n = rest > 2 * size ? size : rest <= smallest ? rest : max(smallest, min(size, (rest + 1) / 2))
            chunks.append(start..<(start + n))
            start += n
        }
        return chunks
    }

    /// Every entry of the diary as of one walk, from the cache where files are unchanged; files
    /// the cache does not hold are parsed on every core and the cache is written again.
    /// `progress` hears (parsed, to parse) while many files are parsed afresh (a cold cache).
    /// With `seen`, the stamps of the entry files are those that walk of the working folder took
    /// (`walk(seen:)`), and the snapshot counts as walked when that walk began.
    public func scanEntries(progress: ((Int, Int) -> Void)? = nil) -> EntrySnapshot { scanEntries(progress: progress, seen: nil) }

    func scanEntries(progress: ((Int, Int) -> Void)? = nil, seen: WorkTree?) -> EntrySnapshot {
        // Both moments come before any stamp is taken: a stamp racy against them is checked by
        // the file's digest (EntryCache).
        let walkedAt = seen.map { min($0.startedAt, FileStamp.now) } ?? FileStamp.now
        let cache = EntryCache(diary: self, now: walkedAt)
        // On a cold cache (the first command after a clone) every entry file is opened anyway:
        // its stamp is taken from the opened file, not by a stat of its name in the walk.
        let files = walk(seen: seen, stamps: seen != nil || cache.count > 0)
        var stampsTaken: [(file: Int, stamp: FileStamp)] = []
        var slotOf = [Int32](repeating: -1, count: files.count)
        var misses: [Int] = []
        for i in 0..<files.count {
            if let s = cache.slot(files, i) { slotOf[i] = Int32(s) } else { misses.append(i) }
        }
        // The next cache is written as the files are gone through, so fresh parses (every entry,
        // on a cold cache) are encoded and dropped rather than all held in memory.
        // Records confirmed by their digest are written again without it once there are many,
        // and a long journal of mutations' records is written into the file.
        var writer = !misses.isEmpty || cache.count != files.count || cache.settledCount >= EntryCache.settleLimit
            || cache.journalCount >= EntryCache.journalLimit ? cache.writer(fresh: misses.count) : nil
        var diagnostics: [Diagnostic] = []
        var parsedEntries: [Int: Entry] = [:]
        var failures: [Int32: [DaybookError]] = [:]
        var items: [EntrySnapshot.Item] = []
        items.reserveCapacity(files.count)
        var next = 0
        func consume(upTo end: Int, parsed: (Int) -> (Parsed, [[UInt8]])?) {
            while next < end {
                let i = next
                next += 1
                if slotOf[i] >= 0 {
                    let s = Int(slotOf[i])
                    let slot = writer == nil ? s : cache.copy(s, into: &writer!)
                    if let date = cache.date(s) {
                        items.append(EntrySnapshot.Item(date: date, file: Int32(i), slot: Int32(slot)))
                    } else {
                        let problems = cache.problems(s, shown: displayPath(files.rel(i)))
                        failures[Int32(i)] = problems
                        diagnostics += problems.map { Diagnostic($0) }
                    }
                    continue
                }
                // (A file to parse means the cache is written: `writer` is there.)
                guard let (p, parts) = parsed(i) else { continue }
                if p.stamp != files.files[i].stamp { stampsTaken.append((i, p.stamp)) }
                if !p.problems.isEmpty {
                    diagnostics += p.problems.map { Diagnostic($0) }
                    if p.date == nil { failures[Int32(i)] = p.problems }
                }
                let slot = p.record.map { r in parts[p.part].withUnsafeBufferPointer { cache.add(record: UnsafeBufferPointer(rebasing: $0[r]), into: &writer!) } }
                if let date = p.date {
                    // An entry the cache does not take (racy without a digest, a problem in its
                    // stroke file) is kept as parsed.
                    if slot == nil, let e = p.entry { parsedEntries[i] = e }
                    items.append(EntrySnapshot.Item(date: date, file: Int32(i), slot: Int32(slot ?? -1)))
                }
            }
        }
        // Files the cache does not hold are parsed on every core, a chunk at a time. While one
        // chunk is taken in here (its records encoded for the cache), the next one is parsed on
        // the other threads, so no core waits for this one.
        let report = misses.count >= 1000 ? progress : nil
        let chunk = Diary.parseChunk
        let missing = misses
        // A read buffer and an open month folder per thread, handed on from chunk to chunk.
        let readers = ReusePool<FileBytes> { FileBytes() }
        /// File i parsed, its record encoded into `w` (part `part` of its chunk).
        @Sendable func parseFile(_ i: Int, reader: FileBytes, part: Int, into w: inout BinaryWriter) -> Parsed {
            let f = files.files[i]
            let rel = files.rel(i)
            // A racy file is cached with the digest of the bytes parsed, or not at all.
            var read = readEntry(rel, stamp: f.stamp, digest: { $0.isRacy(now: cache.now) || (f.ink?.isRacy(now: cache.now) ?? false) },
                                 ink: f.ink != nil, reader: reader)
            // A problem of another file (a broken stroke file) is not cached: it is told again;
            // nor is a file whose stamp could not be taken.
            let cacheable = read.stamp != .unknown && EntryCache.problemsAreItsOwn(read.outcome.problems, rel: rel, in: self)
            var fresh = EntryCache.Fresh(rel: rel, stamp: read.stamp, ink: f.ink, entry: read.outcome.entry.take(), problems: read.outcome.problems,
                                         digest: read.digest, cacheable: cacheable)
            var parsed = Parsed(stamp: read.stamp, date: fresh.entry?.date, problems: fresh.problems, record: nil, part: part, entry: nil)
            let start = w.bytes.count
            if EntryCache.encode(&fresh, now: cache.now, into: &w) {
                parsed.record = start..<w.bytes.count
            } else if var e = fresh.entry.take() {
                e.body = ""
                parsed.entry = e
            }
            return parsed
        }
        @Sendable func parse(_ taken: Range<Int>) -> ParsedChunk {
            let first = taken.lowerBound, count = taken.count
            let partCount = min(count, Diary.parseParts)
            var chunk = ParsedChunk(files: [Parsed?](repeating: nil, count: count), parts: [[UInt8]](repeating: [], count: partCount))
            chunk.files.withUnsafeMutableBufferPointer { slots in
                chunk.parts.withUnsafeMutableBufferPointer { partSlots in
                    // Each part writes its own files' slots and its own bytes.
                    nonisolated(unsafe) let slots = slots, partSlots = partSlots
                    DispatchQueue.concurrentPerform(iterations: partCount) { p in
                        let mine = (count * p / partCount)..<(count * (p + 1) / partCount)
                        var w = BinaryWriter()
                        w.bytes.reserveCapacity(mine.count * 320)
                        readers.with { reader in
                            for j in mine { slots[j] = parseFile(missing[first + j], reader: reader, part: p, into: &w) }
                        }
                        partSlots[p] = w.bytes
                    }
                }
            }
            return chunk
        }
        let chunks = Diary.parseChunks(missing.count, size: chunk)
        // Two chunks are parsed at a time, so the threads that finish their parts of one go on
        // with the next instead of waiting for the last part of the first.
        var inFlight: [(parsed: Handed<ParsedChunk>, done: DispatchGroup)] = []
        var handedOut = 0 // chunks taken out of `inFlight`
        func handOut() {
            let n = inFlight.count + handedOut
            guard n < chunks.count else { return }
            let parsed = Handed(ParsedChunk()), done = DispatchGroup()
            DispatchQueue.global().async(group: done) { parsed.value = parse(chunks[n]) }
            inFlight.append((parsed, done))
        }
        handOut()
        handOut()
        for taken in chunks {
            let (parsed, done) = inFlight.removeFirst()
            handedOut += 1
            done.wait()
            var current = parsed.value
            parsed.value = ParsedChunk() // `current` the only reference, so taking its items out copies nothing
            handOut()
            let first = taken.lowerBound
            let count = current.files.count
            var k = 0
            consume(upTo: missing[first + count - 1] + 1) { i in
                while k < count, missing[first + k] < i { k += 1 }
                // Moved out, not copied: each is taken in once.
                guard k < count, missing[first + k] == i, let p = current.files[k].take() else { return nil }
                return (p, current.parts)
            }
            report?(first + count, missing.count)
        }
        consume(upTo: files.count) { _ in nil }
        // Oldest first; entries of the same moment by id. Paths are in date order already for the
        // most part, which the sort is quick to see. Sorted on another thread while the cache is
        // written and read back here.
        let sorted = Handed(items)
        items = [] // the box holds the only reference, so the entries are sorted in place, not copied
        let sorting = DispatchGroup()
        DispatchQueue.global().async(group: sorting) {
            sorted.value.sort { a, b in
                if a.date != b.date { return a.date < b.date }
                return Entry.id(ofPath: files.rel(Int(a.file))) < Entry.id(ofPath: files.rel(Int(b.file)))
            }
        }
        var finished = true
        if var w = writer.take() { finished = cache.finish(&w) } // moved out: the only reference to its bytes
        sorting.wait()
        items = sorted.value
        if !finished {
            // The bytes just written do not read back (cannot happen short of a bug): every entry
            // is then read from its file when asked for.
            for k in items.indices where items[k].slot >= 0 { items[k].slot = -2 }
        }
        var stamped = files
        for (i, stamp) in stampsTaken { stamped.files[i].stamp = stamp }
        return EntrySnapshot(diary: self, cache: cache, files: stamped, walkedAt: walkedAt, items: items, parsed: parsedEntries,
                             diagnostics: diagnostics, failures: failures)
    }

    /// Every readable entry, oldest first; unreadable ones become diagnostics. Without `bodies`,
    /// entries come with an empty body, and unchanged files are not even opened.
    public func loadEntries(diagnostics: inout [Diagnostic], bodies: Bool = true,
                            progress: ((Int, Int) -> Void)? = nil) -> [Entry] {
        let snapshot = scanEntries(progress: progress)
        diagnostics += snapshot.diagnostics
        let all = snapshot.entries(0..<snapshot.count)
        return bodies ? withBodies(all, diagnostics: &diagnostics) : all
    }

    /// The entries with their bodies read; an entry whose file cannot be read is left out with a
    /// diagnostic.
    public func withBodies(_ entries: [Entry], diagnostics: inout [Diagnostic]) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(entries.count)
        for var e in entries {
            guard let body = readBody(e.path) else {
                diagnostics.append(Diagnostic(.io("cannot read the file", at: SourceLocation(path: displayPath(e.path)))))
                continue
            }
            e.body = body
            out.append(e)
        }
        return out
    }

    /// The body of an entry file, without parsing its front matter.
    public func readBody(_ rel: String) -> String? { try? entryBody(rel) }
}

/// Parts of an entry a command may do without: left out, they are not decoded from the cache.
/// The id, path, date, mood, word count, body line and ink flag always come.
public struct EntryParts: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let title = EntryParts(rawValue: 1)
    public static let tags = EntryParts(rawValue: 2)
    public static let template = EntryParts(rawValue: 4)
    public static let fields = EntryParts(rawValue: 8)
    /// The codings and their places in the body.
    public static let codings = EntryParts(rawValue: 16)
    public static let all: EntryParts = [.title, .tags, .template, .fields, .codings]
}

/// The diary's readable entries at one walk, in date order, decoded from the cache only when
/// asked for: the dates of every entry are at hand, the rest of an entry costs a decode.
public final class EntrySnapshot: @unchecked Sendable {
    struct Item {
        var date: LocalDateTime
        /// The file in walk order.
        var file: Int32
        /// The cache slot, -1 for a file parsed in this run and not cached, -2 for one to read again.
        var slot: Int32
    }

    let diary: Diary
    let cache: EntryCache
    let files: EntryWalk
    /// When the walk began (nanoseconds): a file changed after it may not show in its stamp.
    let walkedAt: Int
    let items: [Item]
    let parsed: [Int: Entry]
    /// The files that could not be read, each problem located.
    public let diagnostics: [Diagnostic]
    /// The problems of each file (by its place in the walk) that gave no entry.
    let failures: [Int32: [DaybookError]]
    /// How many files gave no entry (their problems are among `diagnostics`).
    public var unreadableCount: Int { failures.count }

    init(diary: Diary, cache: EntryCache, files: EntryWalk, walkedAt: Int, items: [Item], parsed: [Int: Entry], diagnostics: [Diagnostic],
         failures: [Int32: [DaybookError]]) {
        self.diary = diary
        self.cache = cache
        self.files = files
        self.walkedAt = walkedAt
        self.items = items
        self.parsed = parsed
        self.diagnostics = diagnostics
        self.failures = failures
    }

    public var count: Int { items.count }

    /// Every file of the walk in the order of `Diary.entryFiles` (by path; names are sorted as
    /// Strings, which is their bytes' order unless a name holds characters beyond ASCII), each with
    /// the position of its entry (oldest first), or nil when it gave none (`failures`).
    func filesByPath() -> [(file: Int, position: Int?)] {
        var position = [Int32](repeating: -1, count: files.count)
        for (k, item) in items.enumerated() { position[Int(item.file)] = Int32(k) }
        var order = Array(0..<files.count)
        var start = 0
        while start < files.count {
            let folder = files.files[start].folder
            var end = start, ascii = true
            while end < files.count, files.files[end].folder == folder {
                let f = files.files[end]
                if ascii, files.names[Int(f.name)..<Int(f.name + f.nameCount)].contains(where: { $0 >= 0x80 }) { ascii = false }
                end += 1
            }
            if !ascii {
                order[start..<end].sort { a, b in
                    let x = files.rel(a), y = files.rel(b)
                    return x != y ? x < y : Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
                }
            }
            start = end
        }
        return order.map { ($0, position[$0] < 0 ? nil : Int(position[$0])) }
    }

    /// Where the k-th entry's file is in the walk (`files`).
    func fileIndex(_ k: Int) -> Int { Int(items[k].file) }

    /// The path of the k-th entry (oldest first), relative to the diary.
    public func path(_ k: Int) -> String { files.rel(Int(items[k].file)) }

    /// The date of the k-th entry (oldest first).
    public func date(_ k: Int) -> LocalDateTime { items[k].date }

    /// The k-th entry (oldest first), without its body. The parts not asked for are left empty.
    public func entry(_ k: Int, parts: EntryParts = .all) -> Entry {
        let item = items[k]
        if item.slot == -1, let e = parsed[Int(item.file)] { return e }
        let rel = files.rel(Int(item.file))
        if item.slot >= 0, let e = cache.entry(Int(item.slot), rel: rel, parts: parts) { return e }
        // A payload that does not decode (the checksum makes this all but impossible): parse.
        var e = diary.readEntry(rel).entry ?? Entry(id: Entry.id(ofPath: rel), path: rel, date: item.date, title: "", frontTags: [],
                                                   inlineTags: [], mood: nil, template: nil, fields: [], codings: [], body: "",
                                                   bodyStartLine: 1, words: 0, hasInk: false)
        e.body = ""
        return e
    }

    /// Whether the k-th entry (oldest first) has a coding, told without decoding it when it is
    /// cached (`EntryCache.codingCount`).
    public func hasCodings(_ k: Int) -> Bool {
        let item = items[k]
        if item.slot >= 0, let n = cache.codingCount(Int(item.slot)) { return n > 0 }
        return !entry(k, parts: .codings).codings.isEmpty
    }

    /// The entries at these positions, in their order, decoded on every core.
    public func entries<C: Collection>(_ positions: C, parts: EntryParts = .all) -> [Entry] where C.Element == Int {
        let ks = Array(positions)
        if ks.count < 2048 { return ks.map { entry($0, parts: parts) } }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return [Entry](unsafeUninitializedCapacity: ks.count) { buf, initialized in
            let base = buf.baseAddress!
            let per = (ks.count + workers - 1) / workers
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for j in (w * per)..<min(ks.count, (w + 1) * per) { (base + j).initialize(to: entry(ks[j], parts: parts)) }
            }
            initialized = ks.count
        }
    }
}
