// Finding outside edits without rehashing or re-listing a 100,000-file repository through one
// thread: the working folder is walked on every core, each file's lstat is compared with the stat
// data the git index keeps for it (as git does), and only the files that differ are asked about
// through libgit2. Whenever the quick way cannot be sure, libgit2's full status answers.
import CLibGit2
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// Files that differ from the last commit, untracked ones included, ignored ones not: the same
    /// answer as `fullPendingChanges()`, found faster on a large diary.
    public func pendingChanges() throws -> [PendingChange] {
        if let quick = try quickPendingChanges() { return quick }
        return try fullPendingChanges(refreshIndex: true)
    }

    /// At most this many files whose stat data differ are checked one by one; more than that (a
    /// copied or freshly touched diary) goes to the full status, which also refreshes the index's
    /// stat data so the next command is quick again.
    nonisolated(unsafe) static var quickCandidateLimit = 256

    /// Nil when the quick way cannot answer: staged changes, files deleted from the working
    /// folder, or many files whose stat data changed.
    func quickPendingChanges() throws -> [PendingChange]? {
        // The working folder is walked while the index loads: the walk asks a second handle of
        // the repository which folders are ignored, so the two never share one.
        final class Result: @unchecked Sendable {
            let ignores: Repository
            var skipped: [String] = []
            var walked: (paths: [UInt8], files: [WorkTreeWalk.File])?
            init(_ ignores: Repository) { self.ignores = ignores }
        }
        let result = Result(try Repository.open(root))
        let walkDone = DispatchSemaphore(value: 0)
        let top = root.path
        Thread.detachNewThread {
            result.walked = WorkTreeWalk(root: top, skipDirectory: { rel in
                var ignored: Int32 = 0
                guard git_ignore_path_is_ignored(&ignored, result.ignores.handle, rel + "/") == 0, ignored == 1 else { return false }
                result.skipped.append(rel)
                return true
            }).files()
            walkDone.signal()
        }
        var index: OpaquePointer?
        let loaded = git_repository_index(&index, handle)
        walkDone.wait()
        try Repository.check(loaded, "git_repository_index")
        defer { git_index_free(index) }
        guard let index, let (paths, files) = result.walked else { return nil }
        // An ignored folder is left out only when it holds nothing tracked.
        for rel in result.skipped {
            var pos = 0
            if git_index_find_prefix(&pos, index, rel + "/") == 0 { return nil }
        }
        // Staged changes: the index's tree (from its tree cache when that is whole) against HEAD's.
        var headID = git_oid()
        guard git_reference_name_to_id(&headID, handle, "HEAD") == 0 else { return nil }
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, handle, &headID) == 0 else { return nil }
        defer { git_commit_free(commit) }
        guard var headTree = git_commit_tree_id(commit)?.pointee else { return nil }
        var indexTree = git_oid()
        guard git_index_write_tree(&indexTree, index) == 0, git_oid_equal(&indexTree, &headTree) != 0 else { return nil }
        guard git_index_has_conflicts(index) == 0 else { return nil }

        // Racily clean: a file changed in the same second the index was written may keep its stat
        // data; such files are always checked (git's rule).
        var indexStat = stat()
        guard stat(root.appendingPathComponent(".git/index").path, &indexStat) == 0 else { return nil }
        let indexMTime = Int(indexStat.st_mtim.tv_sec)

        var candidates: [String] = []
        var matched = 0
        let tooMany = paths.withUnsafeBufferPointer { all -> Bool in
            for f in files {
                let path = UnsafeRawPointer(all.baseAddress! + f.path).assumingMemoryBound(to: CChar.self)
                guard let e = git_index_get_bypath(index, path, 0)?.pointee else {
                    candidates.append(String(cString: path)) // untracked, or ignored: libgit2 tells
                    if candidates.count > Repository.quickCandidateLimit { return true }
                    continue
                }
                matched += 1
                if !Repository.sameStat(e, f.stat) || Int(f.stat.st_mtim.tv_sec) >= indexMTime {
                    candidates.append(String(cString: path))
                    if candidates.count > Repository.quickCandidateLimit { return true }
                }
            }
            return false
        }
        if tooMany { return nil }
        // Tracked files missing from the working folder: the full status lists them.
        guard matched == git_index_entrycount(index) else { return nil }

        var out: [PendingChange] = []
        for rel in candidates {
            var flags: UInt32 = 0
            guard git_status_file(&flags, handle, rel) == 0 else { return nil }
            if flags & (GIT_STATUS_WT_DELETED.rawValue | GIT_STATUS_INDEX_DELETED.rawValue) != 0 {
                out.append(PendingChange(path: rel, kind: .deleted))
            } else if flags & (GIT_STATUS_WT_NEW.rawValue | GIT_STATUS_INDEX_NEW.rawValue) != 0 {
                out.append(PendingChange(path: rel, kind: .added))
            } else if flags & (GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_TYPECHANGE.rawValue | GIT_STATUS_WT_RENAMED.rawValue
                               | GIT_STATUS_INDEX_MODIFIED.rawValue | GIT_STATUS_INDEX_TYPECHANGE.rawValue) != 0 {
                out.append(PendingChange(path: rel, kind: .modified))
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// Whether a file's lstat matches what the index recorded when it was staged: size, times
    /// (nanoseconds only where the index has them), inode and the kind of file.
    static func sameStat(_ e: git_index_entry, _ st: stat) -> Bool {
        guard UInt32(truncatingIfNeeded: st.st_size) == e.file_size, UInt32(truncatingIfNeeded: st.st_ino) == e.ino,
              Int32(truncatingIfNeeded: st.st_mtim.tv_sec) == e.mtime.seconds,
              Int32(truncatingIfNeeded: st.st_ctim.tv_sec) == e.ctime.seconds else { return false }
        if e.mtime.nanoseconds != 0 && UInt32(st.st_mtim.tv_nsec) != e.mtime.nanoseconds { return false }
        if e.ctime.nanoseconds != 0 && UInt32(st.st_ctim.tv_nsec) != e.ctime.nanoseconds { return false }
        let kind = st.st_mode & S_IFMT
        switch e.mode & 0o170000 {
        case 0o100000: return kind == S_IFREG && ((st.st_mode & 0o100 != 0) == (e.mode & 0o100 != 0))
        case 0o120000: return kind == S_IFLNK
        default: return false
        }
    }
}

/// Every file of a working folder (not `.git`, not `.daybook`) with its lstat, folders read on
/// every core one level at a time. Paths are kept as NUL-terminated bytes, one after the other:
/// a String is made only for a file that is asked about.
struct WorkTreeWalk {
    struct File {
        /// Where the path starts in `paths`.
        var path: Int
        var stat: stat
    }

    let root: String
    /// Asked (on the calling thread) before a folder is walked; true leaves it out.
    let skipDirectory: (String) -> Bool

    /// The paths, and the files; nil when a folder cannot be read (the full status reports what
    /// it can).
    func files() -> (paths: [UInt8], files: [File])? {
        var paths: [UInt8] = []
        var out: [File] = []
        var level = [""]
        var failed = false
        while !level.isEmpty {
            var results = [(paths: [UInt8], files: [File], dirs: [String], ok: Bool)](repeating: ([], [], [], true), count: level.count)
            results.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                let workers = min(level.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    for k in stride(from: w, to: level.count, by: workers) { slots[k] = list(level[k]) }
                }
            }
            var next: [String] = []
            for r in results {
                if !r.ok { failed = true }
                let shift = paths.count
                paths += r.paths
                out += r.files.map { File(path: $0.path + shift, stat: $0.stat) }
                next += r.dirs.filter { !skipDirectory($0) }
            }
            level = next
        }
        return failed ? nil : (paths, out)
    }

    /// One folder: its files with their lstat, and its subfolders.
    private func list(_ rel: String) -> (paths: [UInt8], files: [File], dirs: [String], ok: Bool) {
        guard let dir = Directory(rel.isEmpty ? root : root + "/" + rel) else { return ([], [], [], false) }
        let prefix = rel.isEmpty ? [] : Array((rel + "/").utf8)
        var paths: [UInt8] = []
        var files: [File] = []
        var dirs: [String] = []
        var ok = true
        dir.forEachName { name in
            if rel.isEmpty && (name.elementsEqual(".git".utf8) || name.elementsEqual(".daybook".utf8)) { return }
            var st = stat()
            guard fstatat(dir.descriptor, UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW) == 0 else { ok = false; return }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: dirs.append(String(decoding: prefix + Array(name), as: UTF8.self))
            case S_IFREG, S_IFLNK:
                files.append(File(path: paths.count, stat: st))
                paths += prefix
                paths.append(contentsOf: name)
                paths.append(0)
            default: break
            }
        }
        return (paths, files, dirs, ok)
    }
}
