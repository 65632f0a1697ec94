// `check`: everything that can be wrong in a diary, gathered from every part of daybook.
import Foundation

/// One kind of check. Each part of daybook (entries, codings, strokes, templates, sync) adds its own
/// to `DiaryChecks.all`.
public protocol DiaryCheck {
    /// Problems found; `entries` are the entries that parsed, by path, without their bodies and
    /// with only the parts `DiaryChecks.entryParts` names.
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic]
    /// Repairs what is safe to repair; returns what it did.
    func fix(in diary: Diary, entries: [Entry]) throws -> [String]
}

extension DiaryCheck {
    public func fix(in diary: Diary, entries: [Entry]) throws -> [String] { [] }
}

public enum DiaryChecks {
    nonisolated(unsafe) public static var all: [DiaryCheck] = [
        ConflictCopiesCheck(), LeftoverFilesCheck(), StaleGitLocksCheck(), RepositoryCheck(), UnfinishedChangeCheck(), SymbolicLinksCheck(), UncommittedCheck(), TemplateFieldsCheck(), CodingCheck(),
        StrokeFilesCheck(), PromptsCheck(),
    ]

    /// Runs every check: entry problems first, then the others in order.
    public static func run(_ diary: Diary, fix: Bool) throws -> (problems: [Diagnostic], fixed: [String]) {
        var (problems, entries) = entryProblems(diary)
        // Other commands only warn of a schedule that cannot be read; for check it is a problem.
        if let e = diary.config.scheduleProblem { problems.insert(Diagnostic(e, severity: .error), at: 0) }
        var fixed: [String] = []
        for check in all {
            if fix { fixed += try check.fix(in: diary, entries: entries) }
            problems += try check.problems(in: diary, entries: entries)
        }
        return (problems, fixed)
    }

    /// The problems of every entry file, by path, and the entries that parsed (what the checks are
    /// given). The parsed front matter, and the problems of files that do not parse, come from
    /// the entry cache where a file is unchanged (its stamp says so), from a fresh parse where it
    /// is not; the cache is let go before the other checks run.
    static func entryProblems(_ diary: Diary) -> ([Diagnostic], [Entry]) {
        var problems: [Diagnostic] = []
        var entries: [Entry] = []
        let snapshot = diary.scanEntries()
        let files = snapshot.filesByPath()
        let links = EntryLinks(diary) { files.map { snapshot.files.rel($0.file) } }
        entries.reserveCapacity(snapshot.count)
        // The bodies are read on every core, a chunk at a time, and links are checked while a
        // body is here. Bodies are not kept (100,000 of them would not fit the memory budget); a
        // check that needs one reads it (codings come with their places in the body).
        func checked(_ o: EntryParser.Outcome) -> (Entry?, [Diagnostic]) {
            guard var e = o.entry else { return (nil, o.problems.map { Diagnostic($0, severity: .error) }) }
            let found = links.problems(of: e)
            e.body = ""
            return (e, found)
        }
        InOrder.forEach(files.count, { j -> (Entry?, [Diagnostic]) in
            let (file, position) = files[j]
            let rel = snapshot.files.rel(file)
            guard let k = position else {
                if let failed = snapshot.failures[Int32(file)] { return (nil, failed.map { Diagnostic($0, severity: .error) }) }
                return checked(diary.readEntry(rel))
            }
            var e = snapshot.entry(k, parts: DiaryChecks.entryParts)
            // A file changed since the walk is read afresh.
            guard let body = try? diary.entryBody(rel) else { return checked(diary.readEntry(rel)) }
            e.body = body
            return checked(EntryParser.Outcome(entry: e, problems: []))
        }, consume: { _, result in
            problems += result.1
            if let e = result.0 { entries.append(e) }
        })
        return (problems, entries)
    }

    /// What the checks read of an entry besides its path, date, mood and ink: its template and
    /// fields, its codings and their places. Titles and tags are left out of the 100,000 entries
    /// held at once.
    static let entryParts: EntryParts = [.template, .fields, .codings]
}

/// Conflict copies that sync left beside an entry, until the user removes them.
struct ConflictCopiesCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        diary.conflictCopies().map {
            Diagnostic(.error, "a conflict copy from sync: compare it with the entry, keep what you want, then delete it",
                       at: SourceLocation(path: diary.displayPath($0)))
        }
    }
}

/// Temporary files of a write that was killed before its rename.
struct LeftoverFilesCheck: DiaryCheck {
    func leftovers(_ diary: Diary) -> [String] { diary.temporaryLeftovers() }

    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        leftovers(diary).map { Diagnostic(.warning, "a temporary file left by an interrupted write (check --fix removes it)", at: SourceLocation(path: diary.displayPath($0))) }
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        let lock = try DiaryLock(stateFolder: diary.stateFolder)
        defer { _ = lock }
        return leftovers(diary).compactMap { rel in
            (try? FileManager.default.removeItem(at: diary.url(rel))) != nil ? "removed \(diary.displayPath(rel))" : nil
        }
    }
}

/// Git lock files a killed command left: they block every commit until removed.
struct StaleGitLocksCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        diary.staleGitLocks().map {
            Diagnostic(.error, "a git lock file left by a killed command blocks every commit (check --fix or the next daybook change removes it)",
                       at: SourceLocation(path: diary.displayPath($0)))
        }
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        let lock = try DiaryLock(stateFolder: diary.stateFolder)
        defer { _ = lock }
        return try diary.clearGitLocks(killed: lock.killedHolder).map { "removed \(diary.displayPath($0))" }
    }
}

/// The repository itself: HEAD on a branch that exists (or none yet), and every object of HEAD's
/// history present. Each problem says what to do; `--fix` repairs none of them (only a remote, a
/// backup or the person can).
struct RepositoryCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        guard let repo = try? diary.repository() else { return [] }  // UncommittedCheck says so
        if let problem = repo.headProblem() {
            return [Diagnostic(.error, problem, at: SourceLocation(path: diary.displayPath(".git/HEAD")))]
        }
        return try repo.missingObjects().map { m in
            switch m.kind {
            case .blob:
                return Diagnostic(.error, "its committed version (blob \(m.id.prefix(12)) of commit \(m.commit.prefix(7))) is missing from the repository; " + Repository.recovery,
                                  at: SourceLocation(path: diary.displayPath(m.path)))
            case .tree, .commit:
                return Diagnostic(.error, "the \(m.kind.rawValue) \(m.id.prefix(12))\(m.path.isEmpty ? "" : " of \(m.path)") in the history of HEAD (commit \(m.commit.prefix(7))) is missing from the repository; " + Repository.recovery,
                                  at: SourceLocation(path: diary.displayPath(".git")))
            }
        }
    }

    /// Whether the repository is whole enough to commit in (what the fixes that commit ask).
    static func sound(_ diary: Diary) -> Bool {
        guard let repo = try? diary.repository() else { return false }
        return repo.headProblem() == nil && ((try? repo.missingObjects(limit: 1)) ?? []).isEmpty
    }
}

/// A change of many files (`tag rename`, `import`, `rm`, ...) whose command was killed before its
/// commit: its files are half changed until the next change rolls it back (ChangeIntent).
struct UnfinishedChangeCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        guard let left = ChangeIntent.pending(diary), !left.running else { return [] }
        return [Diagnostic(.error, "`\(left.command)` was stopped before it finished and left up to \(left.files) file\(left.files == 1 ? "" : "s") half changed; the next daybook change (or check --fix) puts them back as the last commit has them, then run the command again",
                           at: SourceLocation(path: diary.displayPath(".daybook/intent")))]
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        guard let left = ChangeIntent.pending(diary), !left.running else { return [] }
        let lock = try DiaryLock(stateFolder: diary.stateFolder)
        defer { _ = lock }
        guard let undone = try ChangeIntent.rollBack(diary, diary.repository()) else { return [] }
        return ["rolled back `\(undone.command)`: \(undone.restored.count) file\(undone.restored.count == 1 ? "" : "s") put back as the last commit has them"]
    }
}

/// Symbolic links under entries/: never followed (one may lead out of the diary), so what they
/// point to is no entry of the diary.
struct SymbolicLinksCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        diary.symbolicLinks().map {
            Diagnostic(.error, "a symbolic link: daybook does not follow links in entries/, so what it points to is left out (replace it with the file or folder itself)",
                       at: SourceLocation(path: diary.displayPath($0)))
        }
    }
}

/// Changes in the folder that no commit holds yet.
struct UncommittedCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        guard let repo = try? diary.repository() else {
            return [Diagnostic(.error, "the diary has no git repository: `daybook init` creates one and commits what is there",
                               at: SourceLocation(path: diary.displayPath(".git")))]
        }
        // On a branch that is gone every file looks new: RepositoryCheck says what is wrong instead.
        if repo.headProblem() != nil { return [] }
        return try repo.pendingChanges().map {
            Diagnostic(.warning, "not committed yet (\($0.kind == .deleted ? "deleted" : $0.kind == .added ? "new" : "changed")); the next daybook change or check --fix commits it",
                       at: SourceLocation(path: diary.displayPath($0.path)))
        }
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        // A damaged repository is reported (RepositoryCheck), not committed into.
        guard RepositoryCheck.sound(diary) else { return [] }
        let change = try Change(diary)
        return change.outsideCommit.map { ["committed edits made outside daybook as \($0.prefix(7))"] } ?? []
    }
}
