// The entry cache under .daybook/: parsed metadata of every entry, validated by each file's stamp,
// and for a file changed in the last moments by a digest of its bytes as well.
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What tells a file's version apart without reading it: size, modification and change times in
/// nanoseconds, and inode (a file replaced by another has a new inode and change time).
public struct FileStamp: Equatable, Sendable {
    var size: Int
    var mtime: Int
    var ctime: Int
    var inode: UInt64

    /// The stamp of a file not stamped yet, or that could not be read: equal to no file's stamp.
    static let unknown = FileStamp(size: -1, mtime: 0, ctime: 0, inode: 0)

    public static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    init(_ st: stat) { self.init(LStat(st)) }

    init(_ st: LStat) {
        self.init(size: Int(st.st_size), mtime: Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec),
                  ctime: Int(st.st_ctim.tv_sec) * 1_000_000_000 + Int(st.st_ctim.tv_nsec), inode: UInt64(st.st_ino))
    }

    init(size: Int, mtime: Int, ctime: Int, inode: UInt64) {
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
        self.inode = inode
    }

    /// Whether the file changed so recently that another change within the same clock tick would
    /// leave the stamp as it is (git's "racily clean" rule): the cache then keeps a digest of the
    /// file's bytes with its record and compares it too.
    func isRacy(now: Int) -> Bool { max(mtime, ctime) >= now - FileStamp.racyWindow }

    /// Nanoseconds; tests shorten it to see the cache at work without waiting.
    nonisolated(unsafe) static var racyWindow = 2_000_000_000

    /// The current time in nanoseconds, as stamps count it.
    static var now: Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int(ts.tv_sec) * 1_000_000_000 + Int(ts.tv_nsec)
    }

    func write(_ w: inout BinaryWriter) {
        w.int(size); w.int(mtime); w.int(ctime); w.uint(inode)
    }

    static func read(_ r: inout BinaryReader) throws -> FileStamp {
        FileStamp(size: try r.int(), mtime: try r.int(), ctime: try r.int(), inode: try r.uint())
    }
}

/// Never the source of truth: delete it and nothing is lost; a damaged or outdated file is
/// ignored and rebuilt.
///
/// The file holds one record per entry file, in the order of the entry walk: the path, the
/// stamps of the entry and its stroke file, a digest of their bytes for a racy record, the
/// entry's date, then the rest of the parsed entry (or its problems) as a payload that is decoded
/// only when the entry is asked for. Loading reads the record headers only, so a command that
/// needs the dates of 100,000 entries and the whole metadata of ten decodes ten payloads. A
/// checksum over the whole file makes a damaged file count as no file.
///
/// Racy records (issue 19). A file whose stamp is within `FileStamp.racyWindow` of the moment its
/// record is made could change again within the same clock tick and keep its stamp. Such a
/// record carries the SHA-256 of the bytes that were parsed (the entry file, then its stroke
/// file), and whoever finds its stamp unchanged reads the file(s) again and compares the digest
/// (git compares a racily clean file's content the same way). The stamp alone never validates a
/// record made while racy: a change in the record's tick could have happened after the parse and
/// before the window closed. Once a digest is confirmed at a moment the stamp is no longer racy,
/// no change can keep that stamp any more, and the record is written again without its digest
/// (by a mutation, into the journal, for the journal's records; by a reading command that writes
/// the cache anyway or finds many such records).
///
/// A mutation writes its records itself (`EntryCache.record`, called by `Change` once it has
/// written its files): it appends the records of the entry files it changed to the cache's
/// journal (`EntryCacheJournal.swift`), and loading the cache puts them in the place of the
/// file's, so the next reading command finds every record valid and writes nothing. A cache that
/// is missing or made under other settings is left alone: the next reading command builds it.
/// Records are right or wrong on their own (a stamp, a digest), so a reader that writes the cache
/// at the same time as a mutation can only make the other's work go to waste, never make a
/// record wrong.
final class EntryCache: @unchecked Sendable {
    /// A record's header, read when the cache is loaded; offsets are into the file.
    struct Slot {
        var rel: Int32
        var relCount: Int32
        var stamp: FileStamp
        /// Index into `inks`, or -1: few entries have a stroke file.
        var ink: Int32
        /// The entry's date as local wall seconds and offset; `hasDate` is false for a file that had problems.
        var wall: Int
        var offset: Int32
        var hasDate: Bool
        var payload: Int32
        /// Where the record's digest flag is (the digest's 32 bytes follow it when it is 1).
        var digest: Int32
        var hasDigest: Bool
        /// The whole record, copied as it is when the cache is written again.
        var record: Int32
        var recordEnd: Int32
        /// Whether the offsets are into the journal's bytes (`EntryCacheJournal.swift`), not the file's.
        var inJournal = false
    }

    /// A freshly parsed file, to be written into the next cache.
    struct Fresh {
        var rel: String
        var stamp: FileStamp
        var ink: FileStamp?
        var entry: Entry?
        var problems: [DaybookError]
        /// The digest of the bytes parsed (`EntryCache.digest`); a racy file is cached only with it.
        var digest: [UInt8]? = nil
        /// False when a problem lies outside the entry file (its stroke file): then the parse is
        /// not kept, so the warning comes again.
        var cacheable = true
    }

    static let magic = "daybook-entry-cache 8\n"
    let file: URL
    let fingerprint: String
    /// The cache file mapped read-only (the page cache's pages, not a copy), or the bytes this
    /// run wrote.
    private var map: CacheBytes?
    private var bytes: UnsafeBufferPointer<UInt8> { map?.bytes ?? UnsafeBufferPointer(start: nil, count: 0) }
    /// The journal mapped read-only, when one written against this file was read.
    var journalMap: CacheBytes?
    /// How many of the journal's blocks were taken in (0 without a journal).
    var journalCount = 0
    /// The checksum the file ends with: a journal names the file it was written against by it.
    private(set) var fileChecksum: UInt64 = 0
    /// The records' headers in walk order (set here and by `readJournal`).
    var slots: [Slot] = []
    var inks: [FileStamp] = []
    /// Taken before any file is stamped: a stamp racy against it is written with a digest.
    let now: Int
    /// Whether a cache file of these settings was read (it may hold no record).
    private(set) var loaded = false
    /// Slots whose digest was confirmed while their stamps were no longer racy: written again
    /// without it.
    private var settled = Set<Int>()
    /// How many settled records make a reading command write the cache that it would not write
    /// otherwise (each costs every reading command one file read until then).
    static let settleLimit = 256
    /// The slot expected next in walk order, and an index by path once the orders part.
    private var cursor = 0
    private var byPath: [String: Int]?

    /// The diary's folder with a slash: where records' paths start.
    let root: String

    /// `now` is the moment before the first stamp was taken, when that was before this cache.
    init(diary: Diary, now: Int? = nil) {
        self.now = min(now ?? FileStamp.now, FileStamp.now)
        root = diary.rootPrefix
        file = EntryCache.file(of: diary)
        fingerprint = EntryCache.fingerprint(diary)
        load()
    }

    var count: Int { slots.count }

    /// Where a diary's cache is: `.daybook/cache/entries.bin`.
    static func file(of diary: Diary) -> URL { diary.stateFolder.appendingPathComponent("cache/entries.bin") }

    /// What every cached parse depends on besides the entry file: the settings, the time zone,
    /// the diary's templates (they may set a mood scale).
    static func fingerprint(_ diary: Diary) -> String {
        var parts = ["tz=\(diary.config.timeZone.identifier)"]
        func stamp(_ s: FileStamp?) -> String { s.map { "\($0.size).\($0.mtime).\($0.ctime).\($0.inode)" } ?? "-" }
        func stamp(_ url: URL) -> String { stamp(FileStamp.of(url.path)) }
        // The settings' stamp from when the diary read them: a later edit must not adopt parses made under these.
        parts.append("config=" + (diary.configStamp.map { stamp($0) } ?? stamp(diary.configFile)))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: diary.templatesFolder.path))?.sorted() ?? []
        for n in names { parts.append("t:\(n)=" + stamp(diary.templatesFolder.appendingPathComponent(n))) }
        return parts.joined(separator: "|")
    }

    /// The slot of walked file i when its stamps still match. Asked in walk order, each answer
    /// is one comparison; when files came or went, an index by path takes over.
    func slot(_ walk: EntryWalk, _ i: Int) -> Int? {
        guard !slots.isEmpty else { return nil } // a cold cache: no path to make and look up
        var found: Int?
        if cursor < slots.count, walk.rel(i, equals: relBytes(slots[cursor])) {
            found = cursor
            cursor += 1
        } else {
            if byPath == nil {
                var index: [String: Int] = [:]
                index.reserveCapacity(slots.count)
                for (k, s) in slots.enumerated() { index[String(decoding: relBytes(s), as: UTF8.self)] = k }
                byPath = index
            }
            found = byPath?[walk.rel(i)]
            if let found { cursor = found + 1 }
        }
        guard let k = found else { return nil }
        let f = walk.files[i]
        return valid(k, stamp: f.stamp, ink: f.ink, rel: { walk.rel(i) }) ? k : nil
    }

    /// Whether slot k holds the file whose stamps are these now: the stamps match, and for a
    /// racy record its digest matches the file's bytes read again.
    func valid(_ k: Int, stamp: FileStamp, ink: FileStamp?, rel: () -> String) -> Bool {
        let s = slots[k]
        guard s.stamp == stamp, (s.ink < 0 ? nil : inks[Int(s.ink)]) == ink else { return false }
        guard let kept = digest(k) else { return true }
        guard let now = EntryCache.digest(ofEntry: root + rel()), now.elementsEqual(kept) else { return false }
        if !stamp.isRacy(now: self.now), !(ink?.isRacy(now: self.now) ?? false) { settled.insert(k) }
        return true
    }

    /// The digest a racy slot keeps, nil for a slot without one.
    func digest(_ k: Int) -> UnsafeBufferPointer<UInt8>? {
        let s = slots[k]
        guard s.hasDigest else { return nil }
        let at = Int(s.digest) + 1
        return UnsafeBufferPointer(rebasing: bytes(of: s)[at..<(at + EntryCache.digestSize)])
    }

    /// How many records were confirmed by their digest and can be written without it.
    var settledCount: Int { settled.count }

    func relBytes(_ s: Slot) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes(of: s)[Int(s.rel)..<Int(s.rel + s.relCount)])
    }

    /// The bytes a slot's offsets are into: the file's, or the journal's.
    func bytes(of s: Slot) -> UnsafeBufferPointer<UInt8> {
        s.inJournal ? journalMap?.bytes ?? UnsafeBufferPointer(start: nil, count: 0) : bytes
    }

    /// The date of a slot's entry; nil when its file had problems.
    func date(_ k: Int) -> LocalDateTime? {
        let s = slots[k]
        guard s.hasDate else { return nil }
        let day = s.wall >= 0 ? s.wall / 86400 : (s.wall - 86399) / 86400
        return LocalDateTime(day: LocalDay(ordinal: day), secondOfDay: s.wall - day * 86400, offset: Int(s.offset))
    }

    /// The entry of a slot without its body, with the parts asked for; nil when its payload
    /// does not decode.
    func entry(_ k: Int, rel: String, parts: EntryParts) -> Entry? {
        guard let date = date(k) else { return nil }
        var r = BinaryReader(bytes(of: slots[k]), offset: Int(slots[k].payload))
        return try? EntryCache.readEntry(&r, path: rel, date: date, parts: parts)
    }

    /// How many codings a slot's entry has, read from its record without decoding the entry (the
    /// count that opens the codings part of `writeEntry`); nil when the record does not read.
    func codingCount(_ k: Int) -> Int? {
        guard slots[k].hasDate else { return nil }
        let bytes = bytes(of: slots[k])
        var r = BinaryReader(bytes, offset: Int(slots[k].payload))
        do {
            for _ in 0..<3 { _ = try r.int() } // mood, words, body line
            _ = try r.bool() // ink
            for _ in 0..<4 { _ = try r.span() } // title, tags, template, fields
            let codings = try r.span()
            var p = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<codings.upperBound]), offset: codings.lowerBound)
            return Int(try p.uint())
        } catch { return nil }
    }

    /// The problems of a slot whose file had problems (paths left empty).
    func problems(_ k: Int) -> [DaybookError]? {
        var r = BinaryReader(bytes(of: slots[k]), offset: Int(slots[k].payload))
        return try? r.array { try EntryCache.readProblem(&$0) }
    }

    /// The problems of a slot whose file had problems, located in the file shown as `shown`
    /// (a record that does not read back says the file cannot be read).
    func problems(_ k: Int, shown: String) -> [DaybookError] {
        (problems(k) ?? [.input("cannot read the file", at: SourceLocation(path: shown))]).map { p in
            var p = p
            p.location?.path = shown
            return p
        }
    }

    private func load() {
        guard let m = MappedFile(file.path) else { return }
        loaded = adopt(m)
        if loaded { readJournal() }
    }

    /// Reads the record headers of a cache's bytes; any damage leaves the cache empty.
    @discardableResult
    /// Reads the slots of a cache's bytes; `checksum`: the checksum of bytes this run made, known
    /// already (a file's is worked out).
    private func adopt(_ m: CacheBytes, checksum known: UInt64? = nil) -> Bool {
        map = m
        slots = []
        inks = []
        settled = []
        journalMap = nil
        journalCount = 0
        cursor = 0
        byPath = nil
        do {
            guard bytes.count > 8, bytes.count < Int(Int32.max) else { throw BinaryReader.Damaged() }
            let body = bytes.count - 8
            let sum = known ?? EntryCache.checksum(UnsafeBufferPointer(rebasing: bytes[..<body]))
            var tail = BinaryReader(bytes, offset: body)
            guard try tail.fixed64() == sum else { throw BinaryReader.Damaged() }
            var r = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<body]))
            guard try r.string() == EntryCache.magic, try r.string() == fingerprint else { throw BinaryReader.Damaged() }
            let n = Int(clamping: try r.fixed64())
            guard n <= body else { throw BinaryReader.Damaged() }
            var out: [Slot] = []
            out.reserveCapacity(n)
            for _ in 0..<n { out.append(try EntryCache.readSlot(&r, inks: &inks)) }
            guard r.offset == body else { throw BinaryReader.Damaged() }
            slots = out
            fileChecksum = sum
            return true
        } catch {
            map = nil
            slots = []
            inks = []
            return false
        }
    }

    /// The header of the record at the reader's place (`writeRecord`), read up to its end; `r`
    /// ends where the record may end, its offsets are the slot's. A stroke file's stamp is added
    /// to `inks`.
    static func readSlot(_ r: inout BinaryReader, inks: inout [FileStamp], inJournal: Bool = false) throws -> Slot {
        let start = r.offset
        let rel = try r.span()
        let stamp = try FileStamp.read(&r)
        var ink: Int32 = -1
        if let s = try r.optional({ try FileStamp.read(&$0) }) {
            ink = Int32(inks.count)
            inks.append(s)
        }
        let digest = r.offset
        let hasDigest = try r.byte() == 1
        if hasDigest {
            guard r.offset + EntryCache.digestSize <= r.bytes.count else { throw BinaryReader.Damaged() }
            r.offset += EntryCache.digestSize
        }
        var wall = 0, offset = 0
        let hasDate = try r.byte() == 1
        if hasDate { wall = try r.int(); offset = try r.int() }
        let payload = try r.span()
        return Slot(rel: Int32(rel.lowerBound), relCount: Int32(rel.count), stamp: stamp, ink: ink, wall: wall,
                    offset: Int32(clamping: offset), hasDate: hasDate, payload: Int32(payload.lowerBound),
                    digest: Int32(digest), hasDigest: hasDigest, record: Int32(start), recordEnd: Int32(r.offset), inJournal: inJournal)
    }

    /// The next cache, written record by record in walk order while the files are gone through:
    /// a slot still valid is copied as it is, a fresh parse is encoded and can then be dropped.
    struct Writer {
        fileprivate var w = BinaryWriter()
        fileprivate var countAt = 0
        fileprivate(set) var count = 0
        let now: Int
    }

    /// `fresh`: about how many records will be parsed afresh (room is made for them at once, not
    /// by doubling and copying as they come).
    func writer(fresh: Int = 0) -> Writer {
        var out = Writer(now: now)
        out.w.bytes.reserveCapacity(bytes.count + 4096 + fresh * 256)
        out.w.string(EntryCache.magic)
        out.w.string(fingerprint)
        out.countAt = out.w.bytes.count
        out.w.fixed64(0) // the number of records, filled in by `finish`
        return out
    }

    /// Copies slot k into the next cache, without its digest once that is settled; returns its
    /// slot there.
    func copy(_ k: Int, into out: inout Writer) -> Int {
        EntryCache.append(slots[k], of: bytes(of: slots[k]), settled: settled.contains(k), to: &out.w.bytes)
        out.count += 1
        return out.count - 1
    }

    /// Appends the record of slot `s` in `bytes` as it is, or without its digest when `settled`.
    static func append(_ s: Slot, of bytes: UnsafeBufferPointer<UInt8>, settled: Bool, to out: inout [UInt8]) {
        if s.hasDigest, settled {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[Int(s.record)..<Int(s.digest)]))
            out.append(0)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(Int(s.digest) + 1 + EntryCache.digestSize)..<Int(s.recordEnd)]))
        } else {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[Int(s.record)..<Int(s.recordEnd)]))
        }
    }

    /// Adds a fresh parse to the next cache and returns its slot there, or nil for a parse that is
    /// not kept: a racily clean file (changed in the last moments) without the digest of what was
    /// parsed, and warnings about other files.
    func add(_ f: Fresh, into out: inout Writer) -> Int? {
        var f = f
        guard EntryCache.encode(&f, now: out.now, into: &out.w) else { return nil }
        out.count += 1
        return out.count - 1
    }

    /// Appends a fresh parse's record to `w` (on any thread, for `add(record:into:)`), unless
    /// the cache does not keep it (`keeps`): then false, and nothing is written.
    static func encode(_ f: inout Fresh, now: Int, into w: inout BinaryWriter) -> Bool {
        guard keeps(&f, now: now) else { return false }
        writeRecord(&w, f)
        return true
    }

    /// Adds a record `encode` made (with this cache's `now`) to the next cache and returns its slot there.
    func add(record: UnsafeBufferPointer<UInt8>, into out: inout Writer) -> Int {
        out.w.bytes.append(contentsOf: record)
        out.count += 1
        return out.count - 1
    }

    /// Whether every problem of the entry file at `rel` lies in that file: a problem of another
    /// file (a broken stroke file) is not cached, so it is told again.
    static func problemsAreItsOwn(_ problems: [DaybookError], rel: String, in diary: Diary) -> Bool {
        guard !problems.isEmpty else { return true }
        let shown = diary.displayPath(rel)
        return problems.allSatisfy { $0.location?.path == shown }
    }

    /// Whether a fresh parse is kept in the cache (its digest dropped when its stamps are no
    /// longer racy): not a racily clean file without the digest of what was parsed, nor
    /// warnings about other files.
    static func keeps(_ f: inout Fresh, now: Int) -> Bool {
        if !f.stamp.isRacy(now: now), !(f.ink?.isRacy(now: now) ?? false) { f.digest = nil }
        else if f.digest == nil { return false }
        return f.cacheable
    }

    /// Writes the next cache (atomically: a concurrent reader sees the old or the new file; not
    /// flushed, since a damaged cache is only rebuilt) and, unless told not to, reads on from it;
    /// the slots `copy` and `add` returned are this cache's slots from now on. False when the
    /// bytes do not read back.
    /// `out` is taken as it is (the 17 MB of 100,000 records are not copied to put the count in).
    @discardableResult
    func finish(_ out: inout Writer, readBack: Bool = true) -> Bool {
        let n = UInt64(out.count)
        for k in 0..<8 { out.w.bytes[out.countAt + k] = UInt8(truncatingIfNeeded: n >> (8 * UInt64(k))) }
        let sum = out.w.bytes.withUnsafeBufferPointer { EntryCache.checksum($0) }
        out.w.fixed64(sum)
        // The file is written on another thread while this one reads on from the same bytes
        // (17 MB at 100,000 entries: each took a few hundredths of a second after the parse).
        let bytes = out.w.bytes, file = file
        let written = DispatchGroup()
        DispatchQueue.global().async(group: written) {
            do {
                try AtomicFile.makeDirectory(file.deletingLastPathComponent())
                AtomicFile.removeLeftovers(in: file.deletingLastPathComponent(), of: file.lastPathComponent)
                try bytes.withUnsafeBytes { raw in
                    try AtomicFile.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count, deallocator: .none),
                                         to: file, sync: false)
                }
                // The records of a journal are in the file now (or, written since it was read,
                // stale: the next read parses their files).
                unlink(EntryCache.journalFile(beside: file).path)
            } catch {
                // A cache that cannot be written costs time, never correctness.
            }
        }
        let adopted = readBack ? adopt(OwnedBytes(bytes), checksum: sum) : true
        written.wait()
        return adopted
    }

    static let digestSize = 32

    /// The digest a racy record keeps: SHA-256 (swift-crypto) of the entry file's bytes as
    /// `StrokeFile.read` gives them, then a flag and the stroke file's, when there is one.
    static func digest(entry: [UInt8], ink: [UInt8]?) -> [UInt8] {
        entry.withUnsafeBufferPointer { digest(entry: UnsafeBufferPointer(rebasing: $0.dropLast()), ink: ink) }
    }

    /// The same from an entry file's bytes without the NUL `StrokeFile.read` ends them with (it is
    /// hashed here all the same, so both give one digest).
    static func digest(entry: UnsafeBufferPointer<UInt8>, ink: [UInt8]?) -> [UInt8] {
        var h = SHA256()
        h.update(bufferPointer: UnsafeRawBufferPointer(entry))
        h.update(data: [0, ink == nil ? 0 : 1])
        if let ink { h.update(data: ink) }
        return Array(h.finalize())
    }

    /// The digest of the entry file at `path` (absolute) and its stroke file as they are now; nil
    /// when the entry file cannot be read.
    static func digest(ofEntry path: String) -> [UInt8]? {
        guard let entry = StrokeFile.read(path: path) else { return nil }
        return digest(entry: entry, ink: StrokeFile.read(path: String(path.dropLast(3)) + ".strokes.json"))
    }

    /// The checksum the file ends with, over everything before it.
    static func checksum(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var c = WideChecksum64()
        c.add(b)
        return c.value
    }

    // MARK: Records as bytes

    static func writeRecord(_ w: inout BinaryWriter, _ f: Fresh) {
        w.string(f.rel)
        f.stamp.write(&w)
        w.optional(f.ink) { $1.write(&$0) }
        w.optional(f.digest) { w, d in w.bytes.append(contentsOf: d) }
        w.optional(f.entry?.date) { w, d in w.int(d.wallSeconds); w.int(d.offset) }
        w.lengthPrefixed { w in
            if let e = f.entry { writeEntry(&w, e) } else { w.array(f.problems) { writeProblem(&$0, $1) } }
        }
    }

    /// The payload of an entry: the numbers first, then each part length-prefixed, so a part not
    /// asked for is skipped without decoding it.
    static func writeEntry(_ w: inout BinaryWriter, _ e: Entry) {
        w.int(e.mood.map { $0 + 1 } ?? 0)
        w.int(e.words)
        w.int(e.bodyStartLine)
        w.bool(e.hasInk)
        func part(_ fill: (inout BinaryWriter) -> Void) { w.lengthPrefixed(fill) }
        part { $0.string(e.title) }
        part { w in w.array(e.frontTags) { $0.string($1) }; w.array(e.inlineTags) { $0.string($1) } }
        part { w in w.optional(e.template) { $0.string($1) } }
        part { w in w.array(e.fields) { $0.string($1.0); $0.json($1.1) } }
        part { w in
            w.array(e.codings) { w, c in
                w.string(c.code)
                w.optional(c.quote) { $0.string($1) }
                w.optional(c.occurrence) { $0.int($1) }
                w.optional(c.memo) { $0.string($1) }
                w.optional(c.coder) { $0.string($1) }
                w.optional(c.coded) { w, t in w.int(t.day.ordinal); w.int(t.secondOfDay); w.int(t.offset) }
                switch c.source {
                case .frontMatter: w.int(-1)
                case let .ink(stroke): w.int(stroke)
                }
            }
            w.optional(e.anchors) { w, anchors in
                w.array(anchors) { w, a in w.optional(a) { $0.int($1.start); $0.int($1.end) } }
            }
        }
    }

    static func readEntry(_ r: inout BinaryReader, path: String, date: LocalDateTime, parts: EntryParts) throws -> Entry {
        let moodCode = try r.int()
        let words = try r.int(), bodyStartLine = try r.int(), hasInk = try r.bool()
        var e = Entry(id: Entry.id(ofPath: path), path: path, date: date, title: "", frontTags: [], inlineTags: [],
                      mood: moodCode == 0 ? nil : moodCode - 1, template: nil, fields: [], codings: [], body: "",
                      bodyStartLine: bodyStartLine, words: words, hasInk: hasInk)
        func part(_ wanted: EntryParts, _ read: (inout BinaryReader) throws -> Void) throws {
            let span = try r.span()
            guard parts.contains(wanted) else { return }
            var p = BinaryReader(UnsafeBufferPointer(rebasing: r.bytes[..<span.upperBound]), offset: span.lowerBound)
            try read(&p)
            guard p.offset == span.upperBound else { throw BinaryReader.Damaged() }
        }
        try part(.title) { e.title = try $0.string() }
        try part(.tags) { r in
            e.frontTags = try r.array { try $0.string() }
            e.inlineTags = try r.array { try $0.string() }
        }
        try part(.template) { e.template = try $0.optional { try $0.string() } }
        try part(.fields) { e.fields = try $0.array { (try $0.string(), try $0.json()) } }
        try part(.codings) { r in
            e.codings = try r.array { r -> Coding in
                var c = Coding(code: try r.string())
                c.quote = try r.optional { try $0.string() }
                c.occurrence = try r.optional { try $0.int() }
                c.memo = try r.optional { try $0.string() }
                c.coder = try r.optional { try $0.string() }
                c.coded = try r.optional { LocalDateTime(day: LocalDay(ordinal: try $0.int()), secondOfDay: try $0.int(), offset: try $0.int()) }
                let s = try r.int()
                c.source = s < 0 ? .frontMatter : .ink(stroke: s)
                return c
            }
            e.anchors = try r.optional { r in try r.array { r in try r.optional { QuoteAnchor(start: try $0.int(), end: try $0.int()) } } }
        }
        return e
    }

    static func writeProblem(_ w: inout BinaryWriter, _ e: DaybookError) {
        w.string(e.message)
        w.int(e.kind == .io ? 1 : 0)
        w.int(e.location?.line ?? 0)
        w.int(e.location?.column ?? 0)
    }

    static func readProblem(_ r: inout BinaryReader) throws -> DaybookError {
        let message = try r.string()
        let kind: DaybookError.Kind = try r.int() == 1 ? .io : .input
        let line = try r.int(), column = try r.int()
        return DaybookError(kind, message, at: SourceLocation(path: "", line: line == 0 ? nil : line, column: column == 0 ? nil : column))
    }
}

/// Bytes a cache reads from, kept alive while it reads.
class CacheBytes: @unchecked Sendable {
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }
}

/// Bytes held in memory (a cache this run wrote): the written array itself, not a copy. At
/// 100,000 entries that is 17 MB, and copying it cost a cold parse about 20 ms at its end, most
/// of it in faults of fresh pages. An array's storage stays where it is while the array lives
/// and is not changed, which holding it in a `let` of this object ensures (on Linux every array
/// is a native one, whose buffer pointer is its storage, not a temporary copy).
final class OwnedBytes: CacheBytes, @unchecked Sendable {
    private let array: [UInt8]
    private let start: UnsafePointer<UInt8>?

    init(_ array: [UInt8]) {
        self.array = array
        start = array.withUnsafeBufferPointer { $0.baseAddress }
    }

    override var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: array.count) }
}

/// A file mapped read-only into memory, unmapped when the last reference goes.
final class MappedFile: CacheBytes, @unchecked Sendable {
    private let mapped: UnsafeBufferPointer<UInt8>
    override var bytes: UnsafeBufferPointer<UInt8> { mapped }

    init?(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return nil }
        let size = Int(st.st_size)
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), p != MAP_FAILED else { return nil }
        mapped = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: mapped.baseAddress), mapped.count) }
}
