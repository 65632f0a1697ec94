// The entry cache's journal: a mutation appends the records of the entry files it changed to
// `.daybook/cache/entries.journal` instead of writing the whole cache again (issue 19).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `entries.journal` names the cache file it was written against (the checksum that file ends
/// with) and the settings (the fingerprint), then holds blocks, one per changed entry file, in the
/// order they were written. A block is its length, the record as the cache file holds it (kind 1)
/// or the path of a file that is gone (kind 0), and a checksum of both. Loading the cache reads
/// the journal and puts each path's last block in the place of its record, in walk order; a block
/// that does not read, and every block after it, is left out.
///
/// Each record is right or wrong on its own (its stamps, a digest), so any part of a journal is
/// safe to take: a block lost to a crash, a journal unlinked by a reader while a mutation appended
/// to it, or one written against an older cache file (then it is ignored) only make files be
/// parsed again. A reading command that writes the cache file (it found files the cache does not
/// hold, or the journal has `journalLimit` blocks) writes the journal's records into it and
/// unlinks the journal.
extension EntryCache {
    static let journalMagic = "daybook-entry-journal 2\n"

    /// How many blocks make the next reading command write the cache file with them (at 100,000
    /// entries that write takes about a twentieth of a second; a block costs each reading command
    /// well under a microsecond to take in).
    static let defaultJournalLimit = 1024
    /// `defaultJournalLimit`; tests make it small.
    nonisolated(unsafe) static var journalLimit = defaultJournalLimit

    static func journalFile(beside file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent("entries.journal")
    }

    /// Takes in the journal written against this cache file: each path's last block replaces its
    /// record, or adds one, in walk order.
    func readJournal() {
        guard let m = MappedFile(EntryCache.journalFile(beside: file).path) else { return }
        let blocks = EntryCache.journalBlocks(m.bytes, fingerprint: fingerprint, against: fileChecksum)
        guard !blocks.isEmpty else { return }
        // A block whose checksum holds but whose record does not read (written by a bug, or by
        // another version) makes the journal count as absent.
        guard var changes = try? EntryCache.lastChanges(m.bytes, blocks, inks: &inks) else { return }
        journalMap = m
        journalCount = blocks.count
        changes.sort { EntryCache.walkOrder($0.rel, $1.rel) < 0 }
        // Each change's place among the records, found by halving (the records are in walk
        // order): a path already there is replaced (or removed), another is inserted there.
        var places: [(at: Int, found: Bool)] = []
        var low = 0
        for c in changes {
            var high = slots.count
            while low < high {
                let mid = (low + high) / 2
                if EntryCache.walkOrder(relBytes(slots[mid]), c.rel) < 0 { low = mid + 1 } else { high = mid }
            }
            places.append((low, low < slots.count && EntryCache.walkOrder(relBytes(slots[low]), c.rel) == 0))
        }
        if zip(changes, places).allSatisfy({ $0.slot != nil && $1.found }) {
            // Only records replaced (a mutation of entries the cache holds): in place.
            for (c, p) in zip(changes, places) { slots[p.at] = c.slot! }
            return
        }
        var merged: [Slot] = []
        merged.reserveCapacity(slots.count + changes.count)
        var next = 0
        for (c, p) in zip(changes, places) {
            merged += slots[next..<p.at]
            if let j = c.slot { merged.append(j) }
            next = p.found ? p.at + 1 : p.at
        }
        merged += slots[next...]
        slots = merged
    }

    /// Each path's last change in the journal's `blocks`, in the order the paths first come: its
    /// record's header (offsets into `m`), or nil for a file gone. Throws when a block does not
    /// read as a change.
    static func lastChanges(_ m: UnsafeBufferPointer<UInt8>, _ blocks: [Range<Int>], inks: inout [FileStamp]) throws
        -> [(rel: UnsafeBufferPointer<UInt8>, slot: Slot?)] {
        var changes: [(rel: UnsafeBufferPointer<UInt8>, slot: Slot?)] = []
        var seen: [String: Int] = [:]
        for block in blocks {
            var r = BinaryReader(UnsafeBufferPointer(rebasing: m[..<block.upperBound]), offset: block.lowerBound)
            let change: (rel: UnsafeBufferPointer<UInt8>, slot: Slot?)
            if try r.byte() == 1 {
                let slot = try readSlot(&r, inks: &inks, inJournal: true)
                change = (UnsafeBufferPointer(rebasing: m[Int(slot.rel)..<Int(slot.rel + slot.relCount)]), slot)
            } else {
                change = (UnsafeBufferPointer(rebasing: m[try r.span()]), nil)
            }
            guard r.offset == block.upperBound else { throw BinaryReader.Damaged() }
            let key = String(decoding: change.rel, as: UTF8.self)
            if let k = seen[key] { changes[k] = change } else { seen[key] = changes.count; changes.append(change) }
        }
        return changes
    }

    /// The payload ranges of a journal's blocks that read, in order, when it was written against
    /// the cache file ending with checksum `base` under these settings; empty otherwise.
    static func journalBlocks(_ b: UnsafeBufferPointer<UInt8>, fingerprint: String, against base: UInt64) -> [Range<Int>] {
        var r = BinaryReader(b)
        guard (try? r.string()) == journalMagic, (try? r.string()) == fingerprint, (try? r.fixed64()) == base else { return [] }
        var blocks: [Range<Int>] = []
        while !r.atEnd {
            guard let n = try? r.fixed64(), n <= UInt64(b.count - r.offset) else { break }
            let payload = r.offset..<(r.offset + Int(n))
            r.offset = payload.upperBound
            guard let sum = try? r.fixed64(), sum == checksum(UnsafeBufferPointer(rebasing: b[payload])) else { break }
            blocks.append(payload)
        }
        return blocks
    }

    /// The bytes of one block: the record of a fresh parse the cache keeps, or else the path as
    /// gone (a parse the cache does not keep must not leave an older record in its place).
    static func journalBlock(rel: String, fresh: Fresh?, now: Int) -> [UInt8] {
        var w = BinaryWriter(bytes: [1])
        if var f = fresh, encode(&f, now: now, into: &w) { return journalBlock(w.bytes) }
        w.bytes = [0]
        w.string(rel)
        return journalBlock(w.bytes)
    }

    /// A block of the journal holding `payload`: its length, the payload, their checksum.
    static func journalBlock(_ payload: [UInt8]) -> [UInt8] {
        var block = BinaryWriter()
        block.fixed64(UInt64(payload.count))
        block.bytes += payload
        block.fixed64(payload.withUnsafeBufferPointer { checksum($0) })
        return block.bytes
    }

    /// A diary's journal as a mutation finds it: the cache file it must name, the journal's
    /// bytes (nil when there is none) and those of its blocks that read against that file.
    struct JournalState {
        let file: URL
        let header: [UInt8]
        let map: MappedFile?
        let blocks: [Range<Int>]

        /// Nil when there is no cache file of these settings to write a journal for.
        init?(cache: URL, fingerprint: String) {
            guard let base = EntryCache.cacheFileIdentity(cache, fingerprint: fingerprint) else { return nil }
            file = EntryCache.journalFile(beside: cache)
            var w = BinaryWriter()
            w.string(EntryCache.journalMagic)
            w.string(fingerprint)
            w.fixed64(base)
            header = w.bytes
            map = MappedFile(file.path)
            blocks = map.map { EntryCache.journalBlocks($0.bytes, fingerprint: fingerprint, against: base) } ?? []
        }
    }

    /// Blocks that write the journal's racy records again without their digest: those of files
    /// not in `changed` whose stamps are unchanged and no longer racy, and whose bytes still give
    /// the digest (as a reading command that writes the cache file drops such digests).
    static func settledBlocks(_ journal: JournalState, excluding changed: Set<String>, in diary: Diary, now: Int) -> [[UInt8]] {
        var inks: [FileStamp] = []
        guard let m = journal.map?.bytes, let changes = try? lastChanges(m, journal.blocks, inks: &inks) else { return [] }
        var out: [[UInt8]] = []
        for (rel, slot) in changes.map({ (String(decoding: $0.rel, as: UTF8.self), $0.slot) }).sorted(by: { $0.0 < $1.0 }) {
            guard let slot, slot.hasDigest, !changed.contains(rel),
                  let stamps = stamps(of: rel, in: diary), stamps.entry == slot.stamp, stamps.ink == (slot.ink < 0 ? nil : inks[Int(slot.ink)]),
                  !stamps.entry.isRacy(now: now), !(stamps.ink?.isRacy(now: now) ?? false),
                  let bytes = digest(ofEntry: diary.rootPrefix + rel),
                  bytes.elementsEqual(m[(Int(slot.digest) + 1)..<(Int(slot.digest) + 1 + digestSize)]) else { continue }
            var payload: [UInt8] = [1]
            append(slot, of: m, settled: true, to: &payload)
            out.append(journalBlock(payload))
        }
        return out
    }

    /// Appends blocks to the journal, holding the diary lock. A journal written against another
    /// cache file, or that ends in a block that does not read, is replaced (atomically) by one
    /// that holds its blocks that read and these.
    static func appendToJournal(_ blocks: [[UInt8]], _ journal: JournalState) {
        let new = Array(blocks.joined())
        var whole = journal.header
        if let m = journal.map?.bytes, m.starts(with: journal.header) {
            let end = journal.blocks.last.map { $0.upperBound + 8 } ?? journal.header.count
            if end == m.count {
                let fd = open(journal.file.path, O_WRONLY | O_APPEND | O_CLOEXEC)
                if fd >= 0 {
                    let written = new.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                    if written == new.count { return }
                    // A short write leaves a block that does not read: the journal is replaced.
                }
            }
            whole += m[journal.header.count..<end]
        }
        whole += new
        try? AtomicFile.write(Data(whole), to: journal.file, sync: false)
    }

    /// The checksum the cache file at `file` ends with, when it is of these settings; read from
    /// its first and last bytes, without reading it whole (a damaged file is found by whoever
    /// loads it, and its journal goes with it).
    static func cacheFileIdentity(_ file: URL, fingerprint: String) -> UInt64? {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 8 else { return nil }
        var head = BinaryWriter()
        head.string(magic)
        head.string(fingerprint)
        let want = head.bytes
        var got = [UInt8](repeating: 0, count: want.count + 8)
        guard Int(st.st_size) >= got.count,
              got.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, want.count, 0) }) == want.count,
              got.prefix(want.count).elementsEqual(want),
              got.withUnsafeMutableBytes({ pread(fd, $0.baseAddress! + want.count, 8, off_t(st.st_size) - 8) }) == 8 else { return nil }
        return got.withUnsafeBufferPointer { b in
            var r = BinaryReader(b, offset: want.count)
            return try? r.fixed64()
        }
    }
}
