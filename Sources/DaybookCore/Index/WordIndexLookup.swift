// Matching the entry files with the word index, so that a search reads only the files it needs.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The entry files on disk matched against the word index: which are indexed as they are now.
final class WordIndexLookup {
    let diary: Diary
    /// Every entry file, sorted as the walk sorts them.
    let files: EntryWalk
    /// When the walk began (ns): an index built from it claims no later time.
    let walkedAt: Int
    private(set) var index: WordIndex?
    /// For each of `files`, the number of its record in the index when that record holds its
    /// current words, else -1 (new, changed, or changed too close to the index's build time).
    private(set) var indexed: [Int32] = []
    /// Files new, changed or gone since the build, and racy ones that a rebuild now would settle.
    private(set) var stale = 0

    /// Matches `files`, a walk of the entry files begun at `walkedAt`, with the index.
    init(_ diary: Diary, files: EntryWalk, walkedAt: Int) {
        self.diary = diary
        self.files = files
        self.walkedAt = walkedAt
        index = WordIndex.open(WordIndex.file(of: diary))
        match()
    }

    /// Walks the entry files and matches them with the index.
    convenience init(_ diary: Diary) {
        let walkedAt = FileStamp.now
        self.init(diary, files: diary.walk(), walkedAt: walkedAt)
    }

    /// Whether the index is missing or too far behind the files to be worth using as it is.
    var needsBuild: Bool {
        guard let index else { return true }
        return stale > max(500, index.docCount / 50)
    }

    /// Rebuilds the index from the files of the walk and replaces the file. Leaves
    /// `index` nil when it cannot be written (a read-only diary): then every file is read.
    func rebuild(progress: ((Int, Int) -> Void)?) {
        index = nil
        indexed = Array(repeating: -1, count: files.count)
        let url = WordIndex.file(of: diary)
        let folder = url.deletingLastPathComponent()
        guard (try? AtomicFile.makeDirectory(folder)) != nil, access(folder.path, W_OK) == 0 else { return }
        AtomicFile.removeLeftovers(in: folder, of: url.lastPathComponent)
        do {
            let all = (0..<files.count).map { (rel: files.rel($0), stamp: files.files[$0].stamp) }
            try WordIndex.build(diary, files: all, builtAt: walkedAt, to: url, progress: progress)
        } catch {
            return // an index that cannot be written costs time, never correctness
        }
        index = WordIndex.open(url)
        match()
    }

    /// Joins the walk with the index's file records, both in walk order, on equal paths.
    private func match() {
        indexed = Array(repeating: -1, count: files.count)
        stale = 0
        guard let index else { return }
        let now = FileStamp.now
        var next = 0, matched = 0
        for k in 0..<files.count {
            // Records before this file in the walk's order are of files that are gone.
            func same(_ doc: Int) -> Bool { index.path(doc) { files.rel(k, equals: $0) } }
            while next < index.docCount, !same(next), WordIndexLookup.walkOrder(index.path(next), files.rel(k)) {
                next += 1
            }
            guard next < index.docCount, same(next) else { stale += 1; continue }
            let doc = next
            next += 1
            matched += 1
            let recorded = index.stamp(doc)
            if recorded != files.files[k].stamp {
                stale += 1
            } else if recorded.isRacy(now: index.builtAt) {
                // Changed so close to the build that a later change could keep this stamp: read
                // the file itself, and count it once a rebuild would settle it.
                if !recorded.isRacy(now: now) { stale += 1 }
            } else {
                indexed[k] = Int32(doc)
            }
        }
        stale += index.docCount - matched
    }

    /// Whether path `a` comes before `b` in the walk (`entries/Y/M/name`: year, then month, then
    /// name). Only used to step over records of files that are gone: where it errs, a file is
    /// taken for new and read, never taken for indexed.
    static func walkOrder(_ a: String, _ b: String) -> Bool {
        EntryCache.walkOrder(a.utf8, b.utf8) < 0
    }

    /// For each of `files`, whether it may hold a match: every file the index does not hold as
    /// it is, and the indexed files that have, for each run, a word containing it. nil when
    /// the index cannot tell (none, or a damaged postings list).
    func candidates(runs: [String]) -> [Bool]? {
        guard let index, let set = WordIndexLookup.docs(index, runs: runs) else { return nil }
        return indexed.map { $0 < 0 || set.contains(Int($0)) }
    }

    /// The index's files that have, for each run, a word containing it; nil when it cannot tell.
    static func docs(_ index: WordIndex, runs: [String]) -> DocSet? {
        var set: DocSet?
        // Longer runs first: they are rarer, and an empty intersection ends the lookups.
        for run in runs.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            guard let docs = index.docs(containing: Array(run.utf8)) else { return nil }
            if set == nil { set = docs } else { set?.formIntersection(docs) }
            if set?.isEmpty == true { break }
        }
        return set
    }
}
