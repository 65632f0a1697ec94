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
        try pendingChanges(noting: nil) { _ in [] }.changes
    }

    /// The pending changes (as `pendingChanges()`) and the walk of the working folder they were
    /// found with, so that its stat data serve the caller too (issue 19: one stat of each file
    /// per mutation). `noting` picks the names (of any kind but folders) each walked folder keeps
    /// in `WorkTree.Folder.noted`; `sweep` gets the walk (nil when there is none: a folder could
    /// not be read) before the status is taken and returns the files it removed from the working
    /// folder, which the status then does not see, as if they had been removed before the walk.
    func pendingChanges(noting: ((UnsafeBufferPointer<UInt8>) -> Bool)?,
                        sweep: (WorkTree?) -> [String]) throws -> (changes: [PendingChange], walk: WorkTree?) {
        let (walked, index) = try walkWithIndex(noting: noting)
        defer { git_index_free(index) }
        var tree = walked
        let swept = sweep(tree)
        tree?.remove(swept)
        if let tree, let index, let quick = try quickPendingChanges(tree, index) { return (quick, tree) }
        return (try fullPendingChanges(refreshIndex: true), tree)
    }

    /// At most this many files whose stat data differ are checked one by one; more than that (a
    /// copied or freshly touched diary) goes to the full status, which also refreshes the index's
    /// stat data so the next command is quick again.
    nonisolated(unsafe) static var quickCandidateLimit = 256

    /// Nil when the quick way cannot answer (as `quickPendingChanges(_:_:)`).
    func quickPendingChanges() throws -> [PendingChange]? {
        let (tree, index) = try walkWithIndex(noting: nil)
        defer { git_index_free(index) }
        guard let tree, let index else { return nil }
        return try quickPendingChanges(tree, index)
    }

    /// The working folder walked while the index loads (the caller frees the index); the walk is
    /// nil when a folder could not be read.
    private func walkWithIndex(noting: ((UnsafeBufferPointer<UInt8>) -> Bool)?) throws -> (WorkTree?, OpaquePointer?) {
        final class Result: @unchecked Sendable { var walked: WorkTree? }
        let result = Result()
        let walkDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let walk = try workingFolderWalk(noting: noting)
        Thread.detachNewThread {
            result.walked = walk.files()
            walkDone.signal()
        }
        var index: OpaquePointer?
        let loaded = git_repository_index(&index, handle)
        walkDone.wait()
        if loaded != 0 { git_index_free(index) }
        try Repository.check(loaded, "git_repository_index")
        return (result.walked, index)
    }

    /// The walk of the working folder the outside-edit check makes: folders git ignores are left
    /// out. It asks a second handle of the repository which folders are ignored, so that it can
    /// run while this one loads the index.
    func workingFolderWalk(noting: ((UnsafeBufferPointer<UInt8>) -> Bool)?) throws -> WorkTreeWalk {
        let ignores = try Repository.open(root)
        return WorkTreeWalk(root: root.path, skipDirectory: { rel in
            var ignored: Int32 = 0
            return git_ignore_path_is_ignored(&ignored, ignores.handle, rel + "/") == 0 && ignored == 1
        }, noting: noting)
    }

    /// The pending changes from a walk and the index; nil when the quick way cannot answer: staged
    /// changes, files deleted from the working folder, or many files whose stat data changed.
    private func quickPendingChanges(_ tree: WorkTree, _ index: OpaquePointer) throws -> [PendingChange]? {
        // An ignored folder is left out only when it holds nothing tracked.
        for rel in tree.skipped {
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
        let tooMany = tree.paths.withUnsafeBufferPointer { all -> Bool in
            for f in tree.files where !f.gone {
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
        // Tracked files missing from the working folder (swept ones too): the full status lists them.
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
    static func sameStat(_ e: git_index_entry, _ st: LStat) -> Bool {
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

/// The parts of a file's lstat that the outside-edit check and the entry stamps use: a third of
/// `stat`'s size, for a record per file of the diary.
struct LStat {
    var st_size: Int
    var st_ino: UInt
    var st_mtim: timespec
    var st_ctim: timespec
    var st_mode: UInt32

    init(_ st: stat) {
        st_size = Int(st.st_size)
        st_ino = UInt(st.st_ino)
        st_mtim = st.st_mtim
        st_ctim = st.st_ctim
        st_mode = UInt32(st.st_mode)
    }
}

/// What one walk of a working folder saw: every file (not in `.git`, not in `.daybook`, not in a
/// folder left out) with its lstat, and each walked folder's files, subfolders and noted names.
/// Paths are kept as NUL-terminated bytes, one after the other: a String is made only for a file
/// that is asked about.
struct WorkTree {
    struct File {
        /// Where the path starts in `paths`.
        var path: Int
        var stat: LStat
        /// Removed after the walk by whoever took it (`remove`): not there any more.
        var gone = false
    }

    struct Folder {
        /// Its files (regular files and symbolic links), a range of `files`.
        var files: Range<Int>
        /// The names of its subfolders (folders themselves, not links to them), walked or left out.
        var subfolders: [String]
        /// The names of its other entries (files, links, sockets…) the walk's `noting` picked.
        var noted: [String]
    }

    var paths: [UInt8] = []
    var files: [File] = []
    /// Every walked folder by its path relative to the root ("" for the root).
    var folders: [String: Folder] = [:]
    /// Folders `skipDirectory` left out (not walked, not in `folders`).
    var skipped: [String] = []
    /// When the walk began (as `FileStamp.now`): every lstat was taken after it.
    var startedAt = 0

    /// Calls `body` with the name (bytes, NUL-terminated, the NUL not counted) and the lstat of
    /// every file of the folder walked at `rel`, in the order they were read; false when that
    /// folder was not walked.
    func forEachFile(in rel: String, _ body: (UnsafeBufferPointer<UInt8>, LStat) -> Void) -> Bool {
        guard let folder = folders[rel] else { return false }
        let skip = rel.isEmpty ? 0 : rel.utf8.count + 1
        paths.withUnsafeBufferPointer { all in
            for i in folder.files where !files[i].gone {
                let start = all.baseAddress! + files[i].path + skip
                body(UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self))), files[i].stat)
            }
        }
        return true
    }

    /// Marks the files at these paths (relative to the root) as gone.
    mutating func remove(_ rels: [String]) {
        for rel in rels {
            let slash = rel.lastIndex(of: "/")
            let folder = slash.map { String(rel[..<$0]) } ?? ""
            guard let range = folders[folder]?.files else { continue }
            let wanted = Array(rel.utf8)
            for i in range where !files[i].gone {
                let start = files[i].path
                if paths.count > start + wanted.count, paths[start + wanted.count] == 0,
                   paths[start..<(start + wanted.count)].elementsEqual(wanted) { files[i].gone = true }
            }
        }
    }
}

/// Walks a working folder (not `.git`, not `.daybook`), folders read on every core one level at a
/// time, each file lstat-ed once.
struct WorkTreeWalk {
    typealias File = WorkTree.File

    let root: String
    /// Asked (on the calling thread) before a folder is walked; true leaves it out.
    let skipDirectory: (String) -> Bool
    /// Picks the names (other than folders) kept in `WorkTree.Folder.noted`.
    var noting: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil

    private struct Listing {
        var paths: [UInt8] = []
        var files: [File] = []
        var dirs: [String] = []
        var noted: [String] = []
        var ok = true
    }

    /// What the walk saw; nil when a folder cannot be read (the full status reports what it can).
    func files() -> WorkTree? {
        var tree = WorkTree()
        tree.startedAt = FileStamp.now
        var level = [""]
        var failed = false
        while !level.isEmpty {
            var results = [Listing](repeating: Listing(), count: level.count)
            results.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                let workers = min(level.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    for k in stride(from: w, to: level.count, by: workers) { slots[k] = list(level[k]) }
                }
            }
            var next: [String] = []
            for (k, r) in results.enumerated() {
                if !r.ok { failed = true }
                let shift = tree.paths.count, first = tree.files.count
                tree.paths += r.paths
                tree.files += r.files.map { File(path: $0.path + shift, stat: $0.stat) }
                let prefix = level[k].isEmpty ? "" : level[k] + "/"
                tree.folders[level[k]] = WorkTree.Folder(files: first..<tree.files.count, subfolders: r.dirs, noted: r.noted)
                for d in r.dirs {
                    if skipDirectory(prefix + d) { tree.skipped.append(prefix + d) } else { next.append(prefix + d) }
                }
            }
            level = next
        }
        return failed ? nil : tree
    }

    /// One folder: its files with their lstat, its subfolders' names, the names `noting` picks.
    private func list(_ rel: String) -> Listing {
        var out = Listing()
        guard let dir = Directory(rel.isEmpty ? root : root + "/" + rel) else { out.ok = false; return out }
        let prefix = rel.isEmpty ? [] : Array((rel + "/").utf8)
        dir.forEachName { name in
            if rel.isEmpty && (name.elementsEqual(".git".utf8) || name.elementsEqual(".daybook".utf8)) { return }
            var st = stat()
            guard fstatat(dir.descriptor, UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW) == 0 else { out.ok = false; return }
            if st.st_mode & S_IFMT == S_IFDIR {
                out.dirs.append(String(decoding: name, as: UTF8.self))
                return
            }
            if let noting, noting(name) { out.noted.append(String(decoding: name, as: UTF8.self)) }
            switch st.st_mode & S_IFMT {
            case S_IFREG, S_IFLNK:
                out.files.append(File(path: out.paths.count, stat: LStat(st)))
                out.paths += prefix
                out.paths.append(contentsOf: name)
                out.paths.append(0)
            default: break
            }
        }
        return out
    }
}
