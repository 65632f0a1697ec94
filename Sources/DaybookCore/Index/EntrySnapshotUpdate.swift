// A kept snapshot brought up to date by reading again only the files that changed (for the processes that run for long).
import Foundation

extension EntrySnapshot {
    /// How many changed files are read one by one; past this, a walk is as quick.
    public static let updateLimit = 256

    /// This snapshot with the files at `paths` (relative to the diary) read again: an entry file
    /// changed, made or removed, or a stroke file changed (its entry's ink flag), as a watcher
    /// reports them. The other entries are kept as they are, so a server that saw one file change
    /// among 100,000 reads one file, not 100,000 stamps and the cache. Paths that are no entry or
    /// stroke file (attachments, temporary files) change nothing. Nil when this cannot be done
    /// (a file in a month folder the walk did not have, too many files): walk again.
    public func updating(_ paths: Set<String>) -> EntrySnapshot? {
        let ink = ".strokes.json"
        // A stroke file's change is its entry's (the ink flag).
        let changed = Set(paths.map { $0.hasSuffix(ink) ? String($0.dropLast(ink.count)) + ".md" : $0 }.filter(Diary.isEntryPath))
        if changed.isEmpty { return self }
        if changed.count > EntrySnapshot.updateLimit { return nil }

        // Each changed file as it is now: its folder in the walk and its stamps (nil: gone).
        struct Now { var folder: Int; var name: [UInt8]; var rel: String; var stamp: FileStamp?; var ink: FileStamp? }
        var now: [Now] = []
        let folderIndex = Dictionary(files.folders.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for rel in changed {
            guard let slash = rel.lastIndex(of: "/") else { return nil }
            guard let f = folderIndex[Array(rel[...slash].utf8)] else { return nil }
            guard let folder = Directory(diary.root.path + "/" + rel[..<slash]) else { return nil }
            let name = String(rel[rel.index(after: slash)...])
            let stamp = folder.stamp(name)
            now.append(Now(folder: f, name: Array(name.utf8), rel: rel, stamp: stamp,
                           ink: stamp == nil ? nil : folder.stamp(String(name.dropLast(3)) + ink)))
        }
        now.sort { a, b in a.folder != b.folder ? a.folder < b.folder : EntrySnapshot.before(a.name, b.name) }

        // The new walk: the old files in order less the changed ones, the changed ones still there
        // put in their places (folders in order, names bytewise), and where each old file went.
        var walk = EntryWalk()
        walk.folders = files.folders
        walk.names = files.names
        walk.files.reserveCapacity(files.count + now.count)
        var moved = [Int32](repeating: -1, count: files.count)
        var newIndex: [String: Int32] = [:]
        var next = 0
        func name(_ f: EntryWalk.File) -> ArraySlice<UInt8> { files.names[Int(f.name)..<Int(f.name + f.nameCount)] }
        func putChanged(before file: EntryWalk.File?) {
            while next < now.count, file.map({ f in
                now[next].folder < Int(f.folder) || (now[next].folder == Int(f.folder) && EntrySnapshot.before(now[next].name, Array(name(f))))
            }) ?? true {
                let c = now[next]
                next += 1
                guard let stamp = c.stamp else { continue }
                let start = Int32(walk.names.count)
                walk.names += c.name
                walk.names.append(0)
                newIndex[c.rel] = Int32(walk.files.count)
                walk.files.append(EntryWalk.File(folder: Int32(c.folder), name: start, nameCount: Int32(c.name.count), stamp: stamp, ink: c.ink))
            }
        }
        let changedFolders = Set(now.map(\.folder))
        for (i, f) in files.files.enumerated() {
            putChanged(before: f)
            if changedFolders.contains(Int(f.folder)), changed.contains(files.rel(i)) { continue }
            moved[i] = Int32(walk.files.count)
            walk.files.append(f)
        }
        putChanged(before: nil)

        // The entries: the kept ones moved to their new files, the changed ones parsed afresh.
        let shown = Set(changed.map(diary.displayPath))
        var diagnostics = self.diagnostics.filter { d in !(d.location.map { shown.contains($0.path) } ?? false) }
        var parsed: [Int: Entry] = [:]
        for (file, e) in self.parsed where moved[file] >= 0 { parsed[Int(moved[file])] = e }
        var failures: [Int32: [DaybookError]] = [:]
        for (file, problems) in self.failures where moved[Int(file)] >= 0 { failures[moved[Int(file)]] = problems }
        var items = self.items.compactMap { item -> Item? in
            let to = moved[Int(item.file)]
            return to < 0 ? nil : Item(date: item.date, file: to, slot: item.slot)
        }
        for c in now {
            guard let file = newIndex[c.rel] else { continue }
            var outcome = diary.readEntry(c.rel)
            diagnostics += outcome.problems.map { Diagnostic($0) }
            guard outcome.entry != nil else { failures[file] = outcome.problems; continue }
            outcome.entry?.body = ""
            guard let entry = outcome.entry else { continue }
            parsed[Int(file)] = entry
            let id = entry.id
            // Oldest first, the same moment by id, as the walk sorts them.
            var lo = 0, hi = items.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let m = items[mid]
                let earlier = m.date != entry.date ? m.date < entry.date : Entry.id(ofPath: walk.rel(Int(m.file))) < id
                if earlier { lo = mid + 1 } else { hi = mid }
            }
            items.insert(Item(date: entry.date, file: file, slot: -1), at: lo)
        }
        return EntrySnapshot(diary: diary, cache: cache, files: walk, walkedAt: walkedAt, items: items, parsed: parsed,
                             diagnostics: diagnostics, failures: failures)
    }

    /// The entries whose files are at `paths` (relative to the diary), in date order.
    public func entries(at paths: Set<String>, parts: EntryParts = .all) -> [Entry] {
        let prefixes = Set(paths.compactMap { p in p.lastIndex(of: "/").map { Array(p[...$0].utf8) } })
        let folders = Set(files.folders.indices.filter { prefixes.contains(files.folders[$0]) }.map(Int32.init))
        var wanted = Set<Int32>()
        for (i, f) in files.files.enumerated() where folders.contains(f.folder) && paths.contains(files.rel(i)) {
            wanted.insert(Int32(i))
        }
        return items.indices.filter { wanted.contains(items[$0].file) }.map { entry($0, parts: parts) }
    }

    /// The walk's order of names within a folder: bytewise, a prefix first.
    static func before(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x < y }
        return a.count < b.count
    }
}
