// The names of the entry files in every month folder, kept under .daybook/cache/names.bin with
// each folder's stamp: an ENTRY given by an id prefix lists only the folders that changed.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Never the source of truth: delete it and nothing is lost; a damaged file counts as none.
///
/// A folder's modification and change times (and its inode) move whenever a name in it is added,
/// removed or renamed, so a folder whose stamp is the one recorded still holds the names recorded
/// (issue 19: at 100,000 entries, listing 300–700 month folders was most of an id-prefix lookup).
/// The change time cannot be set back (`touch -d`, `rsync -t` set the modification time only).
/// A folder changed within `FileStamp.racyWindow` of the moment it was stamped could change again
/// within the same clock tick and keep its stamp, so such a folder is listed and not recorded
/// (git's "racily clean" rule, as the entry cache keeps it); it is recorded by a later lookup.
/// Records are right or wrong on their own, so two processes writing the file at once can only
/// waste each other's work.
///
/// The file: a magic line, then per month folder (in the order of `Diary.monthFolderStamps`) its
/// path, stamp, the number of its entry file names (`Diary.isEntryFileName`) and their bytes
/// (length-prefixed, behind their total length, so a folder's names are skipped unread), and a
/// checksum over all of it.
struct EntryNames {
    static let magic = "daybook-entry-names 2\n"

    static func file(of diary: Diary) -> URL { diary.stateFolder.appendingPathComponent("cache/names.bin") }

    /// A folder's record in the file read: its stamp, its names and the record's bytes.
    private struct Record {
        var stamp: FileStamp
        var count: Int
        var names: Range<Int>
        var record: Range<Int>
    }

    /// The paths (relative to the diary) of the entry files whose names `wanted` accepts, folder by
    /// folder: recorded names where a folder's stamp is the recorded one, a listing where it is not;
    /// the file is written again when a folder listed can be recorded or a recorded one is gone.
    static func paths(in diary: Diary, where wanted: (UnsafeBufferPointer<UInt8>) -> Bool) -> [String] {
        let now = FileStamp.now // before any folder is stamped
        let folders = diary.monthFolderStamps()
        let map = MappedFile(file(of: diary).path)
        let bytes = map?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)
        let records = read(bytes)
        var out: [String] = []
        var fresh: [Int: [UInt8]] = [:] // folder index -> its record, for folders listed and not racy
        for (k, folder) in folders.enumerated() {
            func found(_ name: UnsafeBufferPointer<UInt8>) {
                if wanted(name) { out.append(folder.dir + "/" + String(decoding: name, as: UTF8.self)) }
            }
            if let r = records[folder.dir], r.stamp == folder.stamp {
                var reader = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<r.names.upperBound]), offset: r.names.lowerBound)
                for _ in 0..<r.count {
                    guard let span = try? reader.span() else { break } // the checksum held: cannot happen
                    found(UnsafeBufferPointer(rebasing: bytes[span]))
                }
                continue
            }
            guard let listing = Directory(diary.rootPrefix + folder.dir) else { continue }
            var w = BinaryWriter()
            var count = 0
            listing.forEachName { name in
                guard Diary.isEntryFileName(name) else { return }
                found(name)
                w.uint(UInt64(name.count))
                w.bytes.append(contentsOf: name)
                count += 1
            }
            if !folder.stamp.isRacy(now: now) {
                var record = BinaryWriter()
                record.string(folder.dir)
                folder.stamp.write(&record)
                record.uint(UInt64(count))
                record.uint(UInt64(w.bytes.count))
                record.bytes += w.bytes
                fresh[k] = record.bytes
            }
        }
        let present = Set(folders.map(\.dir))
        let gone = records.keys.contains { !present.contains($0) }
        if !fresh.isEmpty || gone {
            var w = BinaryWriter()
            w.bytes.reserveCapacity(bytes.count + 4096)
            w.string(magic)
            for (k, folder) in folders.enumerated() {
                if let record = fresh[k] {
                    w.bytes += record
                } else if let r = records[folder.dir], r.stamp == folder.stamp {
                    w.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[r.record]))
                }
            }
            w.fixed64(w.bytes.withUnsafeBufferPointer { EntryCache.checksum($0) })
            write(w.bytes, to: file(of: diary))
        }
        withExtendedLifetime(map) {}
        return out
    }

    /// The records of a file's bytes by folder; none when the file is missing or damaged.
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: Record] {
        guard bytes.count > 8 else { return [:] }
        let body = bytes.count - 8
        var tail = BinaryReader(bytes, offset: body)
        guard (try? tail.fixed64()) == EntryCache.checksum(UnsafeBufferPointer(rebasing: bytes[..<body])) else { return [:] }
        var r = BinaryReader(UnsafeBufferPointer(rebasing: bytes[..<body]))
        var out: [String: Record] = [:]
        do {
            guard try r.string() == magic else { return [:] }
            while !r.atEnd {
                let start = r.offset
                let dir = try r.string()
                let stamp = try FileStamp.read(&r)
                let count = Int(clamping: try r.uint())
                let names = try r.span() // each name is read when the folder's stamp holds
                out[dir] = Record(stamp: stamp, count: count, names: names, record: start..<r.offset)
            }
        } catch {
            return [:]
        }
        return out
    }

    /// Writes the file atomically, unflushed (a damaged file is only rebuilt); a diary that cannot
    /// be written to costs time, never correctness.
    private static func write(_ bytes: [UInt8], to file: URL) {
        let folder = file.deletingLastPathComponent()
        try? AtomicFile.makeDirectory(folder)
        AtomicFile.removeLeftovers(in: folder, of: file.lastPathComponent)
        try? AtomicFile.write(Data(bytes), to: file, sync: false)
    }
}
