// The entry cache under .daybook/: parsed metadata of every entry, validated by each file's stamp.
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

    static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    init(_ st: stat) {
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
    /// leave the stamp as it is: such files are not cached (git's "racily clean" rule).
    func isRacy(now: Int) -> Bool { max(mtime, ctime) >= now - FileStamp.racyWindow }

    /// Nanoseconds; tests shorten it to see the cache at work without waiting.
    nonisolated(unsafe) static var racyWindow = 2_000_000_000

    func write(_ w: inout BinaryWriter) {
        w.int(size); w.int(mtime); w.int(ctime); w.uint(inode)
    }

    static func read(_ r: inout BinaryReader) throws -> FileStamp {
        FileStamp(size: try r.int(), mtime: try r.int(), ctime: try r.int(), inode: try r.uint())
    }
}

/// Never the source of truth: delete it and nothing is lost; a damaged or outdated file is
/// ignored and rebuilt.
final class EntryCache {
    struct Record {
        var stamp: FileStamp
        var ink: FileStamp?
        /// The entry without its body, or nil when the file had problems.
        var entry: Entry?
        /// Problems, all located in the entry file itself (the path is filled in when read).
        var problems: [DaybookError]
    }

    static let magic = "daybook-entry-cache 2\n"
    let file: URL
    let fingerprint: String
    private(set) var records: [String: Record] = [:]
    private var changed = false
    private let now = Int(Date().timeIntervalSince1970 * 1e9)

    init(diary: Diary) {
        file = diary.stateFolder.appendingPathComponent("cache/entries.bin")
        fingerprint = EntryCache.fingerprint(diary)
        load()
    }

    /// What every cached parse depends on besides the entry file: the settings, the time zone,
    /// the diary's templates (they may set a mood scale).
    static func fingerprint(_ diary: Diary) -> String {
        var parts = ["tz=\(diary.config.timeZone.identifier)"]
        func stamp(_ url: URL) -> String {
            guard let s = FileStamp.of(url.path) else { return "-" }
            return "\(s.size).\(s.mtime).\(s.ctime).\(s.inode)"
        }
        parts.append("config=" + stamp(diary.configFile))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: diary.templatesFolder.path))?.sorted() ?? []
        for n in names { parts.append("t:\(n)=" + stamp(diary.templatesFolder.appendingPathComponent(n))) }
        return parts.joined(separator: "|")
    }

    func record(_ rel: String, stamp: FileStamp, ink: FileStamp?) -> Record? {
        guard let r = records[rel], r.stamp == stamp, r.ink == ink else { return nil }
        return r
    }

    func store(_ rel: String, _ record: Record) {
        guard !record.stamp.isRacy(now: now), !(record.ink?.isRacy(now: now) ?? false) else {
            if records.removeValue(forKey: rel) != nil { changed = true }
            return
        }
        var r = record
        r.entry?.body = ""
        records[rel] = r
        changed = true
    }

    /// Forgets files that are gone.
    func keep(only present: Set<String>) {
        for key in records.keys where !present.contains(key) {
            records.removeValue(forKey: key)
            changed = true
        }
    }

    private func load() {
        guard let data = FileManager.default.contents(atPath: file.path) else { return }
        var r = BinaryReader([UInt8](data))
        do {
            guard try r.string() == EntryCache.magic, try r.string() == fingerprint else { return }
            let n = Int(try r.uint())
            var out: [String: Record] = [:]
            out.reserveCapacity(n)
            for _ in 0..<n {
                let rel = try r.string()
                let stamp = try FileStamp.read(&r)
                let ink = try r.optional { try FileStamp.read(&$0) }
                let entry = try r.optional { try EntryCache.readEntry(&$0, path: rel) }
                let problems = try r.array { try EntryCache.readProblem(&$0) }
                out[rel] = Record(stamp: stamp, ink: ink, entry: entry, problems: problems)
            }
            records = out
        } catch {
            records = [:]
        }
    }

    /// Writes the cache when it changed (atomically; a concurrent reader sees the old or the new).
    func save() {
        guard changed else { return }
        var w = BinaryWriter()
        w.string(EntryCache.magic)
        w.string(fingerprint)
        w.uint(UInt64(records.count))
        for (rel, rec) in records {
            w.string(rel)
            rec.stamp.write(&w)
            w.optional(rec.ink) { $1.write(&$0) }
            w.optional(rec.entry) { EntryCache.writeEntry(&$0, $1) }
            w.array(rec.problems) { EntryCache.writeProblem(&$0, $1) }
        }
        do {
            try AtomicFile.makeDirectory(file.deletingLastPathComponent())
            try AtomicFile.write(Data(w.bytes), to: file)
            changed = false
        } catch {
            // A cache that cannot be written costs time, never correctness.
        }
    }

    // MARK: Entries and problems as bytes

    static func writeEntry(_ w: inout BinaryWriter, _ e: Entry) {
        w.string(e.id)
        w.int(e.date.day.ordinal); w.int(e.date.secondOfDay); w.int(e.date.offset)
        w.string(e.title)
        w.array(e.frontTags) { $0.string($1) }
        w.array(e.inlineTags) { $0.string($1) }
        w.optional(e.mood) { $0.int($1) }
        w.optional(e.template) { $0.string($1) }
        w.array(e.fields) { $0.string($1.0); $0.json($1.1) }
        w.array(e.codings) { w, c in
            w.string(c.code)
            w.optional(c.quote) { $0.string($1) }
            w.optional(c.occurrence) { $0.int($1) }
            w.optional(c.memo) { $0.string($1) }
            w.optional(c.coder) { $0.string($1) }
            switch c.source {
            case .frontMatter: w.int(-1)
            case let .ink(stroke): w.int(stroke)
            }
        }
        w.int(e.bodyStartLine)
        w.int(e.words)
        w.bool(e.hasInk)
    }

    static func readEntry(_ r: inout BinaryReader, path: String) throws -> Entry {
        let id = try r.string()
        let date = LocalDateTime(day: LocalDay(ordinal: try r.int()), secondOfDay: try r.int(), offset: try r.int())
        let title = try r.string()
        let frontTags = try r.array { try $0.string() }
        let inlineTags = try r.array { try $0.string() }
        let mood = try r.optional { try $0.int() }
        let template = try r.optional { try $0.string() }
        let fields = try r.array { (try $0.string(), try $0.json()) }
        let codings = try r.array { r -> Coding in
            var c = Coding(code: try r.string())
            c.quote = try r.optional { try $0.string() }
            c.occurrence = try r.optional { try $0.int() }
            c.memo = try r.optional { try $0.string() }
            c.coder = try r.optional { try $0.string() }
            let s = try r.int()
            c.source = s < 0 ? .frontMatter : .ink(stroke: s)
            return c
        }
        return Entry(id: id, path: path, date: date, title: title, frontTags: frontTags, inlineTags: inlineTags, mood: mood,
                     template: template, fields: fields, codings: codings, body: "", bodyStartLine: try r.int(),
                     words: try r.int(), hasInk: try r.bool())
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
