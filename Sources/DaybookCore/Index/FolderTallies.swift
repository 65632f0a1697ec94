// The statistics' tallies per month folder, kept beside the entry cache: a folder
// whose files are as they were is summed up from its stored tally, not from its entries.
import Foundation

/// `.daybook/cache/tallies.bin`: for each month folder, the `Statistics.Tally` of its entries and
/// the key of the files it was made from. Like the entry cache, never the source of truth: a
/// missing, damaged or outdated file is ignored and made again.
///
/// A folder's key is a checksum of what tells its entry files' versions apart, file by file in
/// walk order: the stamps of the entry and its stroke file, and the digest of a racy record (see
/// EntryCache). A file added, removed or changed changes the key, so the stored tally is not
/// used; a file that gives no entry (it has problems) adds nothing to the tally, and its fix
/// adds a file to the key. The tally depends on the entries' contents only, not on today or the
/// week's first day (`Statistics.Tally`), and the file is made under the entry cache's
/// fingerprint (time zone, settings, templates), so a change of these makes every folder's
/// tally again.
///
/// A folder holding an entry that the cache did not take (a file changed in the last moments
/// without its digest, a broken stroke file) is tallied from its entries every time.
enum FolderTallies {
    static let magic = "daybook-folder-tallies 2\n"

    /// What a run found and did, for tests: folders summed from the file, folders tallied from
    /// their entries.
    struct Report: Equatable {
        var stored = 0
        var tallied = 0
    }

    /// A folder's tally as the file holds it, decoded only when its key matches.
    struct Stored {
        var key: UInt64
        var tally: Range<Int>
    }

    static func file(_ diary: Diary) -> URL { diary.stateFolder.appendingPathComponent("cache/tallies.bin") }

    /// The folders of a file made under `fingerprint`, by their path (`entries/2026/11/`); none
    /// when it is missing, damaged or made under other settings.
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, fingerprint: String) -> [String: Stored] {
        guard bytes.count > 8 else { return [:] }
        let body = bytes.count - 8
        var tail = BinaryReader(bytes, offset: body)
        var r = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<body]))
        guard let sum = try? tail.fixed64(), sum == EntryCache.checksum(UnsafeBufferPointer(rebasing: bytes[..<body])),
              (try? r.string()) == magic, (try? r.string()) == fingerprint else { return [:] }
        var out: [String: Stored] = [:]
        do {
            let n = try r.int()
            guard n >= 0, n <= body else { return [:] }
            for _ in 0..<n {
                let folder = try r.string()
                let key = try r.fixed64()
                out[folder] = Stored(key: key, tally: try r.span())
            }
            guard r.offset == body else { return [:] }
        } catch { return [:] }
        return out
    }

    /// The file's bytes for these folders' tallies (encoded already), in this order.
    static func encode(_ folders: [(folder: String, key: UInt64, tally: [UInt8])], fingerprint: String) -> [UInt8] {
        var w = BinaryWriter()
        w.string(magic)
        w.string(fingerprint)
        w.int(folders.count)
        for f in folders {
            w.string(f.folder)
            w.fixed64(f.key)
            w.lengthPrefixed { $0.bytes.append(contentsOf: f.tally) }
        }
        let sum = w.bytes.withUnsafeBufferPointer { EntryCache.checksum($0) }
        w.fixed64(sum)
        return w.bytes
    }

    // MARK: A tally as bytes

    static func encode(_ t: Statistics.Tally) -> [UInt8] {
        var w = BinaryWriter()
        func date(_ w: inout BinaryWriter, _ d: LocalDateTime) { w.int(d.day.ordinal); w.int(d.secondOfDay); w.int(d.offset) }
        func mean(_ w: inout BinaryWriter, _ m: Mean) {
            w.int(m.count); w.double(m.sum)
            w.optional(m.min) { $0.double($1) }
            w.optional(m.max) { $0.double($1) }
        }
        func counts(_ c: [String: Int]) {
            w.array(c.sorted { $0.key < $1.key }) { $0.string($1.key); $0.int($1.value) }
        }
        w.int(t.entries)
        w.int(t.words)
        w.optional(t.first, date)
        w.optional(t.last, date)
        counts(t.tagCounts)
        counts(t.codeCounts)
        w.array(t.days.sorted { $0.key < $1.key }) { w, day in
            w.int(day.key)
            w.int(day.value.entries)
            w.array(day.value.moods) { w, m in w.int(m.scale.lowerBound); w.int(m.scale.upperBound); mean(&w, m.mean) }
        }
        return w.bytes
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>) throws -> Statistics.Tally {
        var r = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<span.upperBound]), offset: span.lowerBound)
        func date(_ r: inout BinaryReader) throws -> LocalDateTime {
            LocalDateTime(day: LocalDay(ordinal: try r.int()), secondOfDay: try r.int(), offset: try r.int())
        }
        func mean(_ r: inout BinaryReader) throws -> Mean {
            Mean(count: try r.int(), sum: try r.double(), min: try r.optional { try $0.double() }, max: try r.optional { try $0.double() })
        }
        func counts(_ r: inout BinaryReader) throws -> [String: Int] {
            var c: [String: Int] = [:]
            for (k, v) in try r.array({ (try $0.string(), try $0.int()) }) { c[k] = v }
            return c
        }
        var t = Statistics.Tally()
        t.entries = try r.int()
        t.words = try r.int()
        t.first = try r.optional(date)
        t.last = try r.optional(date)
        t.tagCounts = try counts(&r)
        t.codeCounts = try counts(&r)
        for (ordinal, day) in try r.array({ r -> (Int, Statistics.Tally.Day) in
            let ordinal = try r.int()
            var day = Statistics.Tally.Day()
            day.entries = try r.int()
            day.moods = try r.array { r in
                let lo = try r.int(), hi = try r.int()
                guard lo <= hi else { throw BinaryReader.Damaged() }
                return Statistics.Tally.ScaledMoods(scale: lo...hi, mean: try mean(&r))
            }
            return (ordinal, day)
        }) { t.days[ordinal] = day }
        guard r.offset == span.upperBound else { throw BinaryReader.Damaged() }
        return t
    }
}
