// `check`: everything that can be wrong in a diary, gathered from every part of daybook.
import Foundation

/// One kind of check. Each part of daybook (entries, codings, strokes, templates, sync) adds its own
/// to `DiaryChecks.all`.
public protocol DiaryCheck {
    /// Problems found; `entries` are the entries that parsed.
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic]
    /// Repairs what is safe to repair; returns what it did.
    func fix(in diary: Diary, entries: [Entry]) throws -> [String]
}

extension DiaryCheck {
    public func fix(in diary: Diary, entries: [Entry]) throws -> [String] { [] }
}

public enum DiaryChecks {
    nonisolated(unsafe) public static var all: [DiaryCheck] = [
        ConflictCopiesCheck(), LeftoverFilesCheck(), StaleGitLocksCheck(), SymbolicLinksCheck(), UncommittedCheck(), TemplateFieldsCheck(), CodingCheck(),
        StrokeFilesCheck(), PromptsCheck(),
    ]

    /// Runs every check: entry problems first, then the others in order.
    public static func run(_ diary: Diary, fix: Bool) throws -> (problems: [Diagnostic], fixed: [String]) {
        var problems: [Diagnostic] = []
        var entries: [Entry] = []
        let files = diary.entryFiles()
        let links = EntryLinks(diary) { files }
        for rel in files {
            let o = diary.readEntry(rel)
            // Bodies are not kept (100,000 of them would not fit the memory budget); a check
            // that needs one reads it (codings come with their places in the body). Links are
            // checked while the body is here.
            if var e = o.entry {
                problems += links.problems(of: e)
                e.body = ""
                entries.append(e)
            } else {
                problems += o.problems.map { Diagnostic($0, severity: .error) }
            }
        }
        var fixed: [String] = []
        for check in all {
            if fix { fixed += try check.fix(in: diary, entries: entries) }
            problems += try check.problems(in: diary, entries: entries)
        }
        return (problems, fixed)
    }
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
        StaleGitLocks.stale(in: diary.root).map {
            Diagnostic(.error, "a git lock file left by a killed command blocks every commit (check --fix or the next daybook change removes it)",
                       at: SourceLocation(path: diary.displayPath($0)))
        }
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        let lock = try DiaryLock(stateFolder: diary.stateFolder)
        defer { _ = lock }
        return StaleGitLocks.remove(in: diary.root).map { "removed \(diary.displayPath($0))" }
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
        return try repo.pendingChanges().map {
            Diagnostic(.warning, "not committed yet (\($0.kind == .deleted ? "deleted" : $0.kind == .added ? "new" : "changed")); the next daybook change or check --fix commits it",
                       at: SourceLocation(path: diary.displayPath($0.path)))
        }
    }

    func fix(in diary: Diary, entries: [Entry]) throws -> [String] {
        let change = try Change(diary)
        return change.outsideCommit.map { ["committed edits made outside daybook as \($0.prefix(7))"] } ?? []
    }
}
