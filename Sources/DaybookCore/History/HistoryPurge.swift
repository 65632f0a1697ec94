// `purge`: erase entries from every commit of history; at sync, apply another machine's purge here.
import Foundation

public enum HistoryPurge {
    /// What a purge will erase, shown before it asks.
    public struct Plan {
        /// The entry files named (relative paths), in the order given.
        public var entries: [String]
        /// Every file and folder of history that goes (entry, strokes, conflict copies, attachments).
        public var files: [String]
        /// Commits that get a new id or go (those from the entries' first appearance on).
        public var commits: Int
        var erased: ErasedEntries
    }

    public struct Outcome {
        public var rewritten = 0
        /// Commits that touched only the erased entries, dropped.
        public var dropped = 0
        public var commit: String?
        /// Old objects deleted from the repository, and those left in packs (for `git gc --prune=now`).
        public var deletedObjects = 0
        public var packedObjects = 0
    }

    /// The entry files ENTRY arguments name: as every command resolves them, or, for an entry
    /// deleted earlier, its id (or a unique prefix) as history last knew it. An unknown one is an
    /// error that names the argument (or the line of stdin) that named it.
    public static func resolve(_ refs: [String], in diary: Diary, stdin: () -> String) throws -> [String] {
        let reference = EntryReference(diary)
        var named: [(ref: String, place: String)] = []
        for (i, r) in refs.enumerated() {
            if r == "-" {
                for (n, line) in stdin().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let t = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !t.isEmpty { named.append((t, "<stdin>:\(n + 1)")) }
                }
            } else {
                named.append((r, "argument \(i + 1)"))
            }
        }
        let repo = try diary.repository()
        var out: [String] = []
        for (ref, place) in named {
            var rel: String
            do { rel = try reference.resolve(ref) } catch let e as DaybookError {
                let prefix = ((ref as NSString).lastPathComponent as NSString).deletingPathExtension
                guard !prefix.isEmpty, !ref.hasPrefix("-"), let known = try History.lastKnown(idPrefix: prefix, in: repo) else {
                    throw DaybookError(.input, "\(place) `\(ref)`: " + e.message + " (nor in the diary's history)")
                }
                rel = known.path
            }
            if !out.contains(rel) { out.append(rel) }
        }
        return out
    }

    /// Counts what erasing `entries` (entry file paths) would rewrite, writing nothing.
    public static func plan(_ entries: [String], in repo: Repository) throws -> Plan {
        var erased: ErasedEntries = [:]
        for rel in entries {
            let folder = (rel as NSString).deletingLastPathComponent
            erased[folder, default: []].insert(Entry.id(ofPath: rel))
        }
        let survey = HistoryRewriter(repo, erasing: erased, dryRun: true)
        try survey.run()
        var files: [String] = []
        for r in survey.removedObjects where !files.contains(r.path + (r.isTree ? "/" : "")) { files.append(r.path + (r.isTree ? "/" : "")) }
        return Plan(entries: entries, files: files.sorted(), commits: survey.rewritten, erased: erased)
    }

    /// Erases the plan's entries from every commit reachable from the diary's references, removes
    /// their files from the working tree, and commits the purge record (`purge: N entries erased`).
    public static func run(_ plan: Plan, in change: Change, date: LocalDateTime) throws -> Outcome {
        let repo = change.repository
        let rewriter = try rewrite(plan.erased, in: change)
        var record = try repo.headID.map { try PurgeRecord.at($0, in: repo) } ?? PurgeRecord()
        for (folder, ids) in plan.erased {
            for id in ids.sorted() where !record.digests.contains(PurgeRecord.digest(ofID: id)) {
                record.items.append(PurgeRecord.Item(digest: PurgeRecord.digest(ofID: id), folder: folder, date: date.description))
            }
        }
        try change.write(record.text, to: PurgeRecord.path)
        let n = plan.entries.count
        var outcome = Outcome(rewritten: rewriter.rewritten, dropped: rewriter.dropped)
        outcome.commit = try change.commit("purge: \(n) entr\(n == 1 ? "y" : "ies") erased from history")
        var history = rewriter.newHistory(walked: rewriter.walked)
        if let c = outcome.commit { history.insert(c) }
        (outcome.deletedObjects, outcome.packedObjects) = try rewriter.deleteOldObjects(keeping: history)
        dropCaches(change.diary)
        return outcome
    }

    /// The caches under `.daybook/cache/` hold the purged entries' paths, titles, fields, quotes,
    /// memos and words: deleted, so the next command rebuilds them from the files (they are never
    /// the truth).
    static func dropCaches(_ diary: Diary) {
        try? FileManager.default.removeItem(at: diary.stateFolder.appendingPathComponent("cache"))
    }

    /// Rewrites every reference without the erased entries, cuts the old history loose and takes
    /// their files out of the working tree and the index.
    static func rewrite(_ erased: ErasedEntries, in change: Change) throws -> HistoryRewriter {
        let repo = change.repository
        let rewriter = HistoryRewriter(repo, erasing: erased)
        try rewriter.run()
        try rewriter.moveReferences(keeping: rewriter.newHistory(walked: rewriter.walked))
        var gone: [String] = []
        for (folder, ids) in erased {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: change.diary.url(folder).path)) ?? []
            for name in names.sorted() {
                let isFolder = (try? change.diary.url(folder + "/" + name).resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
                guard let owner = isFolder ? name : History.entryID(ofPath: folder + "/" + name), ids.contains(owner) else { continue }
                try change.remove(folder + "/" + name)
                gone.append(folder + "/" + name)
            }
        }
        _ = try repo.stage(gone)
        return rewriter
    }

    /// At sync, after the fetch: when the remote's purge record names entries this diary has not
    /// erased, erases them here (history, working tree); when this diary's record names entries
    /// the remote still holds, erases them from the remote's commits too, so they can be merged
    /// and the remote's branch replaced. Returns the commit to merge and, when the remote's
    /// branch must be replaced, the commit it must still point at for that (else a normal push).
    ///
    /// A purge that arrives from the remote erases words on this device, so it needs authority:
    /// `confirmed` (a push signed by a trusted recipient of an encrypted remote, or
    /// `sync --apply-purge`); without it the sync stops before anything is erased or merged, and
    /// its error lists what would be erased.
    static func reconcile(_ change: Change, theirs: String, confirmed: Bool = true, report: inout SyncReport) throws -> (theirs: String, replaces: String?) {
        let repo = change.repository
        guard let head = repo.headID else { return (theirs, nil) }
        let local = try PurgeRecord.at(head, in: repo), remote = try PurgeRecord.at(theirs, in: repo)
        let missingThere = local.items.filter { !remote.digests.contains($0.digest) }
        let missing = remote.items.filter { !local.digests.contains($0.digest) } + missingThere
        guard !missing.isEmpty else { return (theirs, nil) }
        let erased = try identify(missing, in: repo)
        guard !erased.isEmpty else { return (theirs, nil) }
        let arriving = Set(missing.prefix(missing.count - missingThere.count).map(\.digest))
        if !confirmed && !arriving.isEmpty {
            var listed: [String] = []
            for (folder, ids) in erased.sorted(by: { $0.key < $1.key }) {
                for id in ids.sorted() where arriving.contains(PurgeRecord.digest(ofID: id)) { listed.append("\(folder)/\(id)") }
            }
            if !listed.isEmpty {
                throw DaybookError(.git, "\(report.remote) (\(report.url)): the remote's history erases \(listed.count) entr\(listed.count == 1 ? "y" : "ies") this diary holds (a purge made elsewhere, or forged by anyone who can push): \(listed.joined(separator: ", ")). Nothing was erased or merged; if the purge is yours, run `daybook sync --apply-purge` to erase them here too")
            }
        }
        let rewriter = try rewrite(erased, in: change)
        report.erasedHere += missing.count - missingThere.count
        _ = try rewriter.deleteOldObjects(keeping: rewriter.newHistory(walked: rewriter.walked))
        dropCaches(change.diary)
        let mapped = rewriter.newID(theirs) ?? theirs
        return (mapped, missingThere.isEmpty || mapped == theirs ? nil : theirs)
    }

    /// The ids behind a record's digests: every name ever filed in the items' folders, hashed.
    static func identify(_ items: [PurgeRecord.Item], in repo: Repository) throws -> ErasedEntries {
        var wanted: [String: Set<String>] = [:]
        for item in items { wanted[item.folder, default: []].insert(item.digest) }
        var found: ErasedEntries = [:]
        var hashed: [String: String] = [:]
        for (folder, digests) in wanted {
            for name in try repo.namesEverFiled(in: folder) {
                let id = name.isFolder ? name.name : History.entryID(ofPath: folder + "/" + name.name)
                guard let id else { continue }
                let digest = hashed[id] ?? PurgeRecord.digest(ofID: id)
                hashed[id] = digest
                if digests.contains(digest) { found[folder, default: []].insert(id) }
            }
        }
        return found
    }
}
