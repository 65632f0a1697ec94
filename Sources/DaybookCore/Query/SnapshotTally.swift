// The tally of a whole snapshot for `stats` and `tag ls`, summed from the month folders' stored
// tallies (Index/FolderTallies.swift) where their files are unchanged.
import Foundation

extension EntrySnapshot {
    /// The tally of every entry of the snapshot, the same as `Statistics(diary:).tally` of all its
    /// entries (with `Statistics.summaryParts`), made from the stored tallies of the month folders
    /// whose files are unchanged (`FolderTallies`) and the entries of the others, on every core.
    /// The file is written again when a folder was tallied afresh or is gone.
    public func tally() -> Statistics.Tally { tallyReporting().tally }

    func tallyReporting() -> (tally: Statistics.Tally, report: FolderTallies.Report) {
        let statistics = Statistics(diary: diary)
        // The entries of each folder, in walk order.
        var position = [Int32](repeating: -1, count: files.count)
        for (k, item) in items.enumerated() { position[Int(item.file)] = Int32(k) }
        var byFolder = [[Int]](repeating: [], count: files.folders.count)
        for (i, k) in position.enumerated() where k >= 0 { byFolder[Int(files.files[i].folder)].append(Int(k)) }
        let folders = byFolder.indices.filter { !byFolder[$0].isEmpty }
        let names = folders.map { String(decoding: files.folders[$0], as: UTF8.self) }
        let keys = folders.map { key(of: byFolder[$0]) }
        let path = FolderTallies.file(diary).path
        let map = MappedFile(path)
        let bytes = map?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)
        let stored = FolderTallies.load(bytes, fingerprint: cache.fingerprint)
        var tallies = [Statistics.Tally?](repeating: nil, count: folders.count)
        var encoded = [[UInt8]?](repeating: nil, count: folders.count)
        var afresh: [Int] = []
        for j in folders.indices {
            if let key = keys[j], let s = stored[names[j]], s.key == key, let t = try? FolderTallies.decode(bytes, s.tally) {
                tallies[j] = t
                encoded[j] = Array(bytes[s.tally])
            } else {
                afresh.append(j)
            }
        }
        // The folders to tally from their entries, on every core.
        tallies.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out // each folder writes its own place
            DispatchQueue.concurrentPerform(iterations: afresh.count) { n in
                let j = afresh[n]
                out[j] = statistics.tally(byFolder[folders[j]].map { entry($0, parts: Statistics.summaryParts) })
            }
        }
        var all = Statistics.Tally()
        for t in tallies { all.add(t!) }
        // Written when a folder that can be kept was tallied afresh, or one kept is gone.
        let kept = folders.indices.filter { keys[$0] != nil }
        if afresh.contains(where: { keys[$0] != nil }) || Set(kept.map { names[$0] }) != Set(stored.keys) {
            let rows = kept.map { j in (folder: names[j], key: keys[j]!, tally: encoded[j] ?? FolderTallies.encode(tallies[j]!)) }
            let file = URL(fileURLWithPath: path)
            // A file that cannot be written costs time, never correctness.
            try? AtomicFile.makeDirectory(file.deletingLastPathComponent())
            try? AtomicFile.write(Data(FolderTallies.encode(rows, fingerprint: cache.fingerprint)), to: file, sync: false)
        }
        return (all, FolderTallies.Report(stored: folders.count - afresh.count, tallied: afresh.count))
    }

    /// The key of a folder's entries (positions, in walk order): nil when one of them is not in
    /// the cache, so its file's version is not pinned down by its stamps.
    private func key(of positions: [Int]) -> UInt64? {
        var c = Checksum64()
        var words: [UInt64] = []
        words.reserveCapacity(positions.count * 8)
        func flush() {
            words.withUnsafeBytes { raw in raw.withMemoryRebound(to: UInt8.self) { c.add($0) } }
            words.removeAll(keepingCapacity: true)
        }
        for k in positions {
            let item = items[k]
            guard item.slot >= 0 else { return nil }
            let f = files.files[Int(item.file)]
            for s in [f.stamp, f.ink ?? .unknown] {
                words += [UInt64(bitPattern: Int64(s.size)), UInt64(bitPattern: Int64(s.mtime)), UInt64(bitPattern: Int64(s.ctime)), s.inode]
            }
            if let d = cache.digest(Int(item.slot)) {
                flush()
                c.add(d)
            }
        }
        flush()
        return c.value
    }
}
