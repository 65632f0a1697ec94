// A mutating command's unit of work: hold the lock, commit outside edits apart, write, commit once.
import Foundation

public final class Change {
    public let diary: Diary
    public let repository: Repository
    /// Held from init until commit (or until the change is dropped).
    private var lock: DiaryLock?
    private var touched: [String] = []
    /// The commit of outside edits made before this change, if there were any.
    public private(set) var outsideCommit: String?
    /// The walk of the working folder made when the change began, until the change writes (nil
    /// when a folder could not be read): its stat data stamp the entry files for the entry scan,
    /// so they are not stat-ed again.
    private(set) var seen: WorkTree?
    /// The record of a change that lands whole or not at all (allOrNothing), while it is open.
    private var intent: ChangeIntent?
    /// A command a kill left half done, rolled back when this change began, and the files it put back.
    public private(set) var rolledBack: (command: String, restored: [String])?

    /// What was pending (changed and not committed) when the change began and is not committed
    /// by it: set when `outsideEdits` was false.
    public private(set) var leftPending: [PendingChange] = []

    /// Takes the diary lock and commits edits made outside daybook (all pending changes except
    /// `excluding`) as their own commit. With `outsideEdits` false they are left as they are
    /// (`leftPending`): a save from an editor commits its entry, never a stray file beside it.
    public init(_ diary: Diary, excluding: Set<String> = [], outsideEdits: Bool = true) throws {
        self.diary = diary
        lock = try DiaryLock(stateFolder: diary.stateFolder)
        for rel in try diary.clearGitLocks(killed: lock?.killedHolder) {
            Change.notice(Diagnostic(.warning, "removed a git lock file left by a killed command", at: SourceLocation(path: diary.displayPath(rel))))
        }
        repository = try diary.repository()
        // HEAD on a branch that is gone, while others exist: a commit would begin a second history.
        if let problem = repository.headProblem() {
            throw DaybookError(.git, problem, at: SourceLocation(path: diary.displayPath(".git/HEAD")))
        }
        // A command killed half way through a change of many files: put back as HEAD has them,
        // before the walk below would commit them as an outside edit (ChangeIntent).
        if let undone = try ChangeIntent.rollBack(diary, repository) {
            rolledBack = undone
            Change.notice(Diagnostic(.warning, "rolled back `\(undone.command)`, which was stopped before it finished: \(undone.restored.count) file\(undone.restored.count == 1 ? "" : "s") put back as the last commit has them",
                                     at: SourceLocation(path: diary.displayPath(".daybook/intent"))))
        }
        // One walk of the working folder (issue 19): it finds the temporary files a killed write
        // left, wherever it was writing (under the lock no other daybook is writing, so none is in
        // use), which are removed before the status is taken from the same walk's stat data.
        do {
            let (changes, walk) = try repository.pendingChanges(noting: { Diary.isTemporaryName($0) }) { walk in
                diary.temporaryLeftovers(seen: walk).filter { unlink(diary.url($0).path) == 0 }
            }
            seen = walk
            let pending = changes.filter { !excluding.contains($0.path) }
            if !outsideEdits {
                leftPending = pending
            } else if !pending.isEmpty {
                // A symbolic link made outside is not committed (Repository.stage), nor named as committed.
                let kept = pending.filter { !repository.isSymbolicLink($0.path) }
                let links = pending.map(\.path).filter { repository.isSymbolicLink($0) }
                if !kept.isEmpty {
                    outsideCommit = try repository.commit(paths: kept.map(\.path), message: Change.outsideMessage(kept))
                }
                sayLinksLeftOut(links + (kept.isEmpty ? [] : repository.linksLeftOut))
            }
        } catch {
            throw Change.explained(error, repository, diary)
        }
    }

    /// Makes this change all or nothing (a command that changes many files: `tag rename`, `import`,
    /// `rm`, ...): from here on each file is recorded in `.daybook/intent` before it changes, and a
    /// command killed before its commit is rolled back by the next change (ChangeIntent). Call
    /// before the first write; `command` names the command for the notice and `check`.
    public func allOrNothing(_ command: String) throws {
        guard intent == nil else { return }
        intent = try ChangeIntent(diary, command: command)
    }

    /// Records `rel` in the intent, if there is one, before it changes to `data` (nil: removed).
    private func intend(_ rel: String, _ data: Data?) throws {
        guard let intent else { return }
        try intent.record(rel, new: try data.map(Repository.blobID(of:)))
    }

    deinit {
        // Dropped before its commit (an error stopped the command): what it wrote goes back now,
        // still under the lock (deinit runs before the lock property goes), so an error leaves
        // the diary as it was too.
        rollBackIntent()
    }

    private func rollBackIntent() {
        guard let intent else { return }
        intent.finishWithoutRemoving()
        self.intent = nil
        _ = try? ChangeIntent.rollBack(diary, repository)
    }

    /// A libgit2 error about a missing object, in daybook's words (the file, what to do); others as they are.
    static func explained(_ error: Error, _ repository: Repository, _ diary: Diary) -> Error {
        guard var e = repository.explainMissingObject(error) else { return error }
        if let at = e.location { e.location = SourceLocation(path: diary.displayPath(at.path)) }
        return e
    }

    /// Where a change tells what it repaired before its work (stale git locks): the CLI prints
    /// it on stderr; the library never prints.
    nonisolated(unsafe) public static var notice: (Diagnostic) -> Void = { _ in }

    /// Symbolic links a commit of this change left out (`Repository.stage`), relative to the root.
    public private(set) var linksLeftOut: [String] = []

    /// Says each link left out as `check` says links: the file, and that daybook does not commit it.
    private func sayLinksLeftOut(_ links: [String]) {
        for link in Set(links).sorted() where !linksLeftOut.contains(link) {
            linksLeftOut.append(link)
            Change.notice(Diagnostic(.warning, "a symbolic link, left out of the commit: daybook commits no links, which could lead out of the diary in every clone (replace it with the file or folder itself)",
                                     at: SourceLocation(path: diary.displayPath(link))))
        }
    }

    static func outsideMessage(_ pending: [PendingChange]) -> String {
        let entries = Set(pending.map(\.path).filter(Diary.isEntryPath)).count
        let others = pending.count - entries
        var parts: [String] = []
        if entries > 0 { parts.append("\(entries) entr\(entries == 1 ? "y" : "ies")") }
        if others > 0 { parts.append("\(others) other file\(others == 1 ? "" : "s")") }
        var lines = ["edit outside daybook: " + parts.joined(separator: ", "), ""]
        lines += pending.prefix(50).map { "\($0.kind == .deleted ? "deleted" : $0.kind == .added ? "added" : "changed"): \($0.path)" }
        return lines.joined(separator: "\n")
    }

    /// Prepares the folder of `rel`: creates it (init swept the temporary files killed commands
    /// left, in every folder).
    private func prepareFolder(of rel: String) throws {
        try diary.checkNoSymbolicLink(rel)
        try AtomicFile.makeDirectory(diary.url(rel).deletingLastPathComponent())
    }

    /// Writes a file atomically and remembers it for the commit.
    public func write(_ data: Data, to rel: String) throws {
        try prepareFolder(of: rel)
        try intend(rel, data)
        try AtomicFile.write(data, to: diary.url(rel))
        wrote(rel)
    }

    public func write(_ text: String, to rel: String) throws {
        try write(Data(text.utf8), to: rel)
    }

    /// Rewrites a file only if it still holds `expected` (what the caller read); if something else
    /// changed it meanwhile, stops instead of overwriting.
    /// The compare is made again right before the file is swapped in, and what the swap replaced
    /// is checked after it (AtomicFile.replace(_:expected:with:)); an edit that raced the rewrite
    /// stays in the file and is committed at once as an outside edit, so history has it too.
    public func rewrite(_ rel: String, expected: Data, with data: Data) throws {
        try prepareFolder(of: rel)
        try intend(rel, data)
        let replaced: Bool
        do { replaced = try AtomicFile.replace(diary.url(rel), expected: expected, with: data) } catch var e as DaybookError {
            e.location = SourceLocation(path: diary.displayPath(rel))  // the file as the user names it
            throw e
        }
        guard replaced else {
            _ = try? repository.commit(paths: [rel], message: Change.outsideMessage([PendingChange(path: rel, kind: .modified)]))
            throw DaybookError.io("the file changed while daybook was working on it; nothing was overwritten (the edit is kept and committed), run the command again",
                                  at: SourceLocation(path: diary.displayPath(rel)))
        }
        wrote(rel)
    }

    /// Copies an outside file into the diary.
    public func copy(_ source: URL, to rel: String) throws {
        try prepareFolder(of: rel)
        if intent != nil {
            guard let data = FileManager.default.contents(atPath: source.path) else {
                throw DaybookError.io("cannot read the file", at: SourceLocation(path: source.path))
            }
            try intend(rel, data)
        }
        try AtomicFile.copy(from: source, to: diary.url(rel))
        wrote(rel)
    }

    /// Removes a file or folder (git keeps it).
    public func remove(_ rel: String) throws {
        try diary.checkNoSymbolicLink(rel)
        let url = diary.url(rel)
        if FileManager.default.fileExists(atPath: url.path) {
            try intend(rel, nil)
            do { try FileManager.default.removeItem(at: url) } catch {
                throw DaybookError.io("cannot remove: \(error.localizedDescription)", at: SourceLocation(path: diary.displayPath(rel)))
            }
        }
        wrote(rel)
        // Empty month and year folders go too.
        var dir = url.deletingLastPathComponent()
        while dir.path.hasPrefix(diary.entriesFolder.path + "/"),
              (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: dir)
            dir = dir.deletingLastPathComponent()
        }
    }

    /// Marks a path as changed by this command without writing it (the caller wrote it).
    public func touch(_ rel: String) { wrote(rel) }

    public var hasChanges: Bool { !touched.isEmpty }

    /// Remembers a path for the commit. The walk the change began with no longer tells how the
    /// files are, and its memory (a record per file of the diary) is given back.
    private func wrote(_ rel: String) {
        touched.append(rel)
        seen = nil
    }

    /// Commits what this change wrote as a merge of HEAD and `other` (sync); made even when the
    /// merged files equal HEAD's, so that `other` counts as merged from then on.
    @discardableResult
    public func commitMerge(_ message: String, with other: String) throws -> String? {
        defer { recordInCache() }
        let id: String?
        do { id = try repository.commit(paths: touched, message: message, mergeParent: other) } catch {
            rollBackIntent()
            throw Change.explained(error, repository, diary)
        }
        finishIntent()
        return id
    }

    /// Moves the branch to `commit` when what this change wrote makes the files exactly that
    /// commit's (a fast-forward); false, and nothing moved, when they differ.
    public func fastForward(to commit: String) throws -> Bool {
        defer { recordInCache() }
        let moved: Bool
        do { moved = try repository.fastForward(to: commit, paths: touched) } catch {
            rollBackIntent()
            throw Change.explained(error, repository, diary)
        }
        // Not a fast-forward after all: the caller commits the same files as a merge.
        if moved { finishIntent() }
        return moved
    }

    /// Committed (or nothing to commit): the record of an all-or-nothing change goes.
    private func finishIntent() {
        intent?.finish()
        intent = nil
    }

    /// Commits everything this change wrote, in one commit, and releases the lock. Nil when
    /// nothing differs.
    @discardableResult
    public func commit(_ message: String) throws -> String? {
        defer { lock = nil }
        guard !touched.isEmpty else { finishIntent(); return nil }
        defer { recordInCache() }
        let id: String?
        do { id = try repository.commit(paths: touched, message: message) } catch {
            rollBackIntent()
            throw Change.explained(error, repository, diary)
        }
        sayLinksLeftOut(repository.linksLeftOut)
        // Committed: the record goes (a kill before this line finds every file as HEAD has it).
        finishIntent()
        return id
    }

    /// Writes the records of the entries this change wrote into the entry cache, still under the
    /// lock, so that the next reading command does not parse them nor write the cache (issue 19).
    /// Done whether the commit went through or not: the files are written either way.
    private func recordInCache() {
        EntryCache.record(touched, in: diary)
    }
}
