// A mutation writes the records of the entry files it changed into the entry cache's journal, so
// the next reading command finds every record valid and writes nothing (issue 19).
import Foundation

extension EntryCache {
    /// How many changed entry files a mutation parses itself; past this (an import, a sync), the
    /// next reading command parses them on every core.
    static let recordLimit = 2048

    /// Brings the diary's entry cache up to date with the files at `paths` (relative to the
    /// diary) that a mutation has just written or removed, holding the diary lock. A stroke file
    /// stands for its entry; paths that are no entry file change nothing. Each changed file is
    /// parsed as it is now and its record (or its absence) appended to the cache's journal
    /// (`EntryCacheJournal.swift`): the cache file itself is not read or written. When there is
    /// no cache file of these settings, nothing is written: the next reading command builds it.
    static func record(_ paths: [String], in diary: Diary) {
        let ink = ".strokes.json"
        let changed = Set(paths.map { $0.hasSuffix(ink) ? String($0.dropLast(ink.count)) + ".md" : $0 }.filter(Diary.isEntryPath))
        guard !changed.isEmpty, changed.count <= recordLimit else { return }
        guard let journal = JournalState(cache: EntryCache.file(of: diary),
                                         fingerprint: EntryCache.fingerprint(diary)) else { return }
        let now = FileStamp.now
        let blocks = changed.sorted().map { rel -> [UInt8] in
            guard let (stamp, ink) = EntryCache.stamps(of: rel, in: diary) else { return journalBlock(rel: rel, fresh: nil, now: now) }
            let racy = stamp.isRacy(now: now) || (ink?.isRacy(now: now) ?? false)
            var (outcome, digest) = diary.readEntry(rel, digest: racy)
            outcome.entry?.body = ""
            return journalBlock(rel: rel, fresh: Fresh(rel: rel, stamp: stamp, ink: ink, entry: outcome.entry, problems: outcome.problems, digest: digest,
                                                      cacheable: problemsAreItsOwn(outcome.problems, rel: rel, in: diary)), now: now)
        }
        appendToJournal(blocks + settledBlocks(journal, excluding: changed, in: diary, now: now), journal)
    }

    /// The stamps of an entry file and its stroke file as the walk takes them; nil when the walk
    /// would not list the file (gone, not a regular file, in a folder reached by a link).
    static func stamps(of rel: String, in diary: Diary) -> (entry: FileStamp, ink: FileStamp?)? {
        guard let slash = rel.lastIndex(of: "/") else { return nil }
        let folderRel = String(rel[..<slash]), name = String(rel[rel.index(after: slash)...])
        guard diary.isRealFolder(folderRel), let folder = Directory(diary.rootPrefix + folderRel),
              let stamp = folder.stamp(name) else { return nil }
        return (stamp, folder.stamp(String(name.dropLast(3)) + ".strokes.json"))
    }

    /// The order of the entry walk between two paths: folder by folder, then by name, bytewise,
    /// a prefix first (-1: `a` first, 0: the same, 1: `b` first). Where it erred, a record would
    /// only be found through the index by path, never taken for another file's.
    static func walkOrder<A: Collection, B: Collection>(_ a: A, _ b: B) -> Int where A.Element == UInt8, B.Element == UInt8 {
        let slash = UInt8(ascii: "/")
        var i = a.makeIterator(), j = b.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (x?, y?) where x != y:
                // A folder or name that ends first comes first.
                if x == slash { return -1 }
                if y == slash { return 1 }
                return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
