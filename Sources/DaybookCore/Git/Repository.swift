// The one place that calls libgit2: a Repository owns its handle; commits and changes are values.
import Foundation
import CLibGit2

/// A commit as a value.
public struct CommitInfo: Sendable {
    public var id: String
    public var shortID: String { String(id.prefix(7)) }
    public var message: String
    public var author: String
    public var email: String
    /// When it was made, on the author's clock.
    public var date: LocalDateTime
    public var parentIDs: [String]
}

/// A path that differs between the working tree and the last commit.
public struct PendingChange: Sendable, Equatable {
    public enum Kind: Sendable { case added, modified, deleted }
    public var path: String
    public var kind: Kind
}

public final class Repository {
    let handle: OpaquePointer
    /// The working folder.
    public let root: URL

    static let initialized: Bool = {
        git_libgit2_init()
        return true
    }()

    init(handle: OpaquePointer, root: URL) {
        self.handle = handle
        self.root = root
        PrivateUmask.acquire()
    }

    deinit {
        git_repository_free(handle)
        PrivateUmask.release()
    }

    /// Runs `body` with group and others masked out of the umask (what an open repository holds).
    static func privately<T>(_ body: () throws -> T) rethrows -> T {
        PrivateUmask.acquire()
        defer { PrivateUmask.release() }
        return try body()
    }

    /// Throws when libgit2 answered an error: what daybook was doing, libgit2's own words (they
    /// name the file where libgit2 knows it), and what a person can do about it by the kind of
    /// failure, not the name of the libgit2 function.
    static func check(_ code: Int32, _ function: String) throws {
        guard code < 0 else { return }
        var message = "error \(code)"
        var kind = Int32(GIT_ERROR_NONE.rawValue)
        if let e = git_error_last() {
            if let m = e.pointee.message { message = String(cString: m) }
            kind = e.pointee.klass
        }
        throw DaybookError(.git, failure(doing: function, message: message, kind: kind, code: code))
    }

    /// `check`'s sentence, kept apart so each kind of failure is tested without breaking a repository.
    static func failure(doing function: String, message: String, kind: Int32, code: Int32) -> String {
        let doing: String
        switch function {
        case let f where f.hasPrefix("git_index_add") || f.hasPrefix("git_index_remove") || f.hasPrefix("git_index_update"):
            doing = "staging the change in .git/index"
        case "git_index_write", "git_index_write_tree", "git_repository_index": doing = "writing .git/index"
        case let f where f.hasPrefix("git_commit_create") || f.hasPrefix("git_treebuilder") || f == "git_reference_set_target":
            doing = "making the commit"
        case let f where f.hasPrefix("git_packbuilder") || f.hasPrefix("git_odb") || f == "git_repository_odb":
            doing = "writing the repository's objects"
        case let f where f.hasPrefix("git_remote") || f.hasPrefix("git_clone"): doing = "talking to the remote"
        case let f where f.hasPrefix("git_repository_open") || f.hasPrefix("git_repository_init"): doing = "opening the git repository"
        default: doing = "reading the history"
        }
        let todo: String
        switch kind {
        case Int32(GIT_ERROR_OS.rawValue), Int32(GIT_ERROR_FILESYSTEM.rawValue):
            todo = "the system refused a file: check that you may read and write the diary's folder and .git, and that the disk has space"
        case Int32(GIT_ERROR_INDEX.rawValue):
            todo = "if no git program is running in the diary, .git/index is damaged: move it aside (`mv .git/index .git/index.bad`) and run `git reset` in the diary to make it again from the last commit; no entry is lost by that"
        case Int32(GIT_ERROR_ODB.rawValue), Int32(GIT_ERROR_OBJECT.rawValue), Int32(GIT_ERROR_ZLIB.rawValue):
            todo = "objects of the repository are missing or damaged: `daybook check` lists them and what to do"
        case Int32(GIT_ERROR_REFERENCE.rawValue):
            todo = code == Int32(GIT_ELOCKED.rawValue)
                ? "another git program holds the branch: wait for it to finish and run the command again"
                : "a branch of the repository could not be read or moved: `daybook check` says whether it is damaged"
        case Int32(GIT_ERROR_NET.rawValue), Int32(GIT_ERROR_SSL.rawValue), Int32(GIT_ERROR_SSH.rawValue), Int32(GIT_ERROR_HTTP.rawValue):
            todo = "check the network and the remote's address (`daybook sync --help`)"
        default:
            todo = "`daybook check` says whether the repository is damaged"
        }
        return "\(doing) failed: \(message); \(todo)"
    }

    /// Opens the repository whose working folder is `root`.
    public static func open(_ root: URL) throws -> Repository {
        _ = initialized
        var repo: OpaquePointer?
        try check(git_repository_open_ext(&repo, root.path, UInt32(GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue), nil), "git_repository_open")
        return Repository(handle: repo!, root: root)
    }

    /// Creates a repository at `root` whose first branch is `branch`.
    public static func create(_ root: URL, branch: String) throws -> Repository {
        _ = initialized
        var opts = git_repository_init_options()
        try check(git_repository_init_options_init(&opts, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)), "git_repository_init_options_init")
        opts.flags = UInt32(GIT_REPOSITORY_INIT_MKPATH.rawValue)
        opts.mode = UInt32(GIT_REPOSITORY_INIT_SHARED_UMASK.rawValue)
        var repo: OpaquePointer?
        try ("refs/heads/" + branch).withCString { head in
            opts.initial_head = head
            try check(privately { git_repository_init_ext(&repo, root.path, &opts) }, "git_repository_init_ext")
        }
        return Repository(handle: repo!, root: root)
    }

    /// `init.defaultBranch` from the user's git configuration, else `main`.
    public static func defaultBranchName() -> String {
        _ = initialized
        var cfg: OpaquePointer?
        guard git_config_open_default(&cfg) == 0, let cfg else { return "main" }
        defer { git_config_free(cfg) }
        var buf = git_buf()
        defer { git_buf_dispose(&buf) }
        guard git_config_get_string_buf(&buf, cfg, "init.defaultBranch") == 0, let p = buf.ptr else { return "main" }
        let name = String(cString: p)
        return name.isEmpty ? "main" : name
    }

    /// A value of the repository's configuration (local, then global).
    public func configString(_ key: String) -> String? {
        var cfg: OpaquePointer?
        guard git_repository_config_snapshot(&cfg, handle) == 0, let cfg else { return nil }
        defer { git_config_free(cfg) }
        var out: UnsafePointer<CChar>?
        guard git_config_get_string(&out, cfg, key) == 0, let out else { return nil }
        return String(cString: out)
    }

    /// The author for commits: git config's user, else the user name and the host name.
    func signature() throws -> UnsafeMutablePointer<git_signature> {
        var sig: UnsafeMutablePointer<git_signature>?
        if git_signature_default(&sig, handle) == 0, let sig { return sig }
        let user = ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
        let host = ProcessInfo.processInfo.hostName
        try Repository.check(git_signature_now(&sig, user.isEmpty ? "daybook" : user, "\(user)@\(host)"), "git_signature_now")
        return sig!
    }

    // MARK: Status and commits

    /// Files that differ from the last commit, untracked ones included, ignored ones not, from
    /// libgit2's status over the whole tree. With `refreshIndex`, the index takes the stat data of
    /// files found unchanged, so the next check does not read them again.
    func fullPendingChanges(refreshIndex: Bool = false) throws -> [PendingChange] {
        var opts = git_status_options()
        try Repository.check(git_status_options_init(&opts, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        opts.flags = UInt32(GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
                            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue | (refreshIndex ? GIT_STATUS_OPT_UPDATE_INDEX.rawValue : 0))
        var list: OpaquePointer?
        try Repository.check(git_status_list_new(&list, handle, &opts), "git_status_list_new")
        defer { git_status_list_free(list) }
        var out: [PendingChange] = []
        for i in 0..<git_status_list_entrycount(list) {
            guard let e = git_status_byindex(list, i)?.pointee else { continue }
            let s = e.status.rawValue
            let delta = e.index_to_workdir ?? e.head_to_index
            guard let delta, let cpath = delta.pointee.new_file.path ?? delta.pointee.old_file.path else { continue }
            let path = String(cString: cpath)
            let kind: PendingChange.Kind
            if s & (GIT_STATUS_WT_DELETED.rawValue | GIT_STATUS_INDEX_DELETED.rawValue) != 0 { kind = .deleted }
            else if s & (GIT_STATUS_WT_NEW.rawValue | GIT_STATUS_INDEX_NEW.rawValue) != 0 { kind = .added }
            else { kind = .modified }
            out.append(PendingChange(path: path, kind: kind))
        }
        return out
    }

    /// Stages exactly `paths` (files or folders, relative to the root; missing ones are removed from
    /// the index) and commits them on the current branch. Returns nil when nothing changed, unless
    /// `mergeParent` makes it a merge commit (which is always made).
    @discardableResult
    public func commit(paths: [String], message: String, mergeParent: String? = nil) throws -> String? {
        let treeID = try stage(paths)
        return try commitTree(treeID, message: message, extraParents: mergeParent.map { [try oid($0)] } ?? [])
    }

    /// Whether `path` (relative to the root) is a symbolic link itself; daybook commits none.
    public func isSymbolicLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(root.appendingPathComponent(path).path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }

    /// The symbolic links the last commit left out (`stage`), relative to the root, sorted.
    public private(set) var linksLeftOut: [String] = []

    /// Brings the index in line with the working tree for exactly `paths`; returns its tree.
    /// No symbolic link is staged (a file that became one keeps the version the index has): a
    /// committed link travels to every clone, where it may point out of the diary (`/etc/passwd`),
    /// and daybook never follows one. Those left out are in `linksLeftOut`, for the change to say.
    func stage(_ paths: [String]) throws -> git_oid {
        var index: OpaquePointer?
        try Repository.check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        let walk = LinkSkipping(root: root.path)
        defer { linksLeftOut = walk.skipped.sorted() }
        for path in Set(paths).sorted() {
            // lstat, as git looks: a link whose target is gone is still a link, not a deletion.
            var st = stat()
            let exists = lstat(root.appendingPathComponent(path).path, &st) == 0
            if exists && st.st_mode & S_IFMT == S_IFLNK {
                walk.skipped.append(path)
            } else if exists && st.st_mode & S_IFMT == S_IFDIR {
                try withPathspec([path]) { spec in
                    let payload = Unmanaged.passUnretained(walk).toOpaque()
                    try Repository.check(git_index_add_all(index, spec, UInt32(GIT_INDEX_ADD_DEFAULT.rawValue), LinkSkipping.callback, payload), "git_index_add_all")
                    try Repository.check(git_index_update_all(index, spec, LinkSkipping.callback, payload), "git_index_update_all")
                }
            } else if exists {
                try Repository.check(git_index_add_bypath(index, path), "git_index_add_bypath")
            } else {
                if git_index_get_bypath(index, path, 0) != nil {
                    try Repository.check(git_index_remove_bypath(index, path), "git_index_remove_bypath")
                }
                try Repository.check(git_index_remove_directory(index, path, 0), "git_index_remove_directory")
            }
        }
        var treeID = git_oid()
        try Repository.check(git_index_write_tree(&treeID, index), "git_index_write_tree")
        // Written after the tree, so the index keeps its tree cache: the next commit then rebuilds
        // only the folders that changed instead of every tree (and checking every blob exists).
        try Repository.check(git_index_write(index), "git_index_write")
        return treeID
    }

    /// Commits a tree on top of HEAD (or as the first commit); nil when it equals HEAD's tree.
    func commitTree(_ treeID: git_oid, message: String, extraParents: [git_oid] = []) throws -> String? {
        var treeID = treeID
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &treeID), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var parent: OpaquePointer?
        var headID = git_oid()
        let hasHead = git_reference_name_to_id(&headID, handle, "HEAD") == 0
        if hasHead {
            try Repository.check(git_commit_lookup(&parent, handle, &headID), "git_commit_lookup")
        }
        defer { if parent != nil { git_commit_free(parent) } }
        if let parent, extraParents.isEmpty, git_oid_equal(git_commit_tree_id(parent), &treeID) != 0 { return nil }
        var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
        var extra: [OpaquePointer?] = []
        defer { extra.forEach { git_commit_free($0) } }
        for var id in extraParents {
            var c: OpaquePointer?
            try Repository.check(git_commit_lookup(&c, handle, &id), "git_commit_lookup")
            extra.append(c)
        }
        parents += extra
        let sig = try signature()
        defer { git_signature_free(sig) }
        var out = git_oid()
        let text = message.hasSuffix("\n") ? message : message + "\n"
        try parents.withUnsafeMutableBufferPointer { buf in
            try Repository.check(git_commit_create(&out, handle, "HEAD", sig, sig, "UTF-8", text, tree, buf.count, buf.baseAddress), "git_commit_create")
        }
        return Repository.string(out)
    }

    /// What `stage` tells libgit2's walk of a folder: skip each symbolic link, and note it.
    final class LinkSkipping {
        let root: String
        var skipped: [String] = []
        init(root: String) { self.root = root }

        /// git_index_matched_path_cb: a positive answer skips the path (the index keeps what it had).
        static let callback: git_index_matched_path_cb = { path, _, payload in
            guard let path, let payload else { return 0 }
            let walk = Unmanaged<LinkSkipping>.fromOpaque(payload).takeUnretainedValue()
            let rel = String(cString: path)
            var st = stat()
            guard lstat(walk.root + "/" + rel, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return 0 }
            if !walk.skipped.contains(rel) { walk.skipped.append(rel) }
            return 1
        }
    }

    func withPathspec<T>(_ paths: [String], _ body: (UnsafeMutablePointer<git_strarray>) throws -> T) rethrows -> T {
        let cstrs = paths.map { strdup($0) }
        defer { cstrs.forEach { free($0) } }
        var ptrs = cstrs.map { UnsafeMutablePointer<CChar>($0) }
        return try ptrs.withUnsafeMutableBufferPointer { buf in
            var arr = git_strarray(strings: buf.baseAddress, count: buf.count)
            return try body(&arr)
        }
    }

    static func string(_ oid: git_oid) -> String {
        var oid = oid
        var buf = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buf, 41, &oid)
        return String(cString: buf)
    }

    // MARK: History

    public var hasCommits: Bool {
        var id = git_oid()
        return git_reference_name_to_id(&id, handle, "HEAD") == 0
    }

    /// Commits reachable from HEAD, newest first; `body` returns false to stop.
    public func walk(_ body: (CommitInfo) throws -> Bool) throws {
        guard hasCommits else { return }
        var walker: OpaquePointer?
        try Repository.check(git_revwalk_new(&walker, handle), "git_revwalk_new")
        defer { git_revwalk_free(walker) }
        git_revwalk_sorting(walker, GIT_SORT_TIME.rawValue | GIT_SORT_TOPOLOGICAL.rawValue)
        try Repository.check(git_revwalk_push_head(walker), "git_revwalk_push_head")
        var id = git_oid()
        while git_revwalk_next(&id, walker) == 0 {
            let info = try commitInfo(id)
            if try !body(info) { break }
        }
    }

    func commitInfo(_ id: git_oid) throws -> CommitInfo {
        var id = id
        var commit: OpaquePointer?
        try Repository.check(git_commit_lookup(&commit, handle, &id), "git_commit_lookup")
        defer { git_commit_free(commit) }
        let author = git_commit_author(commit)!.pointee
        let when = author.when
        let date = LocalDateTime(instant: Date(timeIntervalSince1970: Double(when.time)),
                                 timeZone: TimeZone(secondsFromGMT: Int(when.offset) * 60) ?? .gmt)
        var parents: [String] = []
        for i in 0..<git_commit_parentcount(commit) {
            if let p = git_commit_parent_id(commit, i) { parents.append(Repository.string(p.pointee)) }
        }
        return CommitInfo(id: Repository.string(id), message: git_commit_message(commit).map { String(cString: $0) } ?? "",
                          author: author.name.map { String(cString: $0) } ?? "", email: author.email.map { String(cString: $0) } ?? "",
                          date: date, parentIDs: parents)
    }

    /// Paths a commit changed against its first parent (all paths for a first commit).
    public func changedPaths(_ commitID: String) throws -> [String] {
        let commit = try lookupCommit(commitID)
        defer { git_commit_free(commit) }
        var tree: OpaquePointer?
        try Repository.check(git_commit_tree(&tree, commit), "git_commit_tree")
        defer { git_tree_free(tree) }
        var parentTree: OpaquePointer?
        if git_commit_parentcount(commit) > 0 {
            var parent: OpaquePointer?
            try Repository.check(git_commit_parent(&parent, commit, 0), "git_commit_parent")
            defer { git_commit_free(parent) }
            try Repository.check(git_commit_tree(&parentTree, parent), "git_commit_tree")
        }
        defer { if parentTree != nil { git_tree_free(parentTree) } }
        var diff: OpaquePointer?
        try Repository.check(git_diff_tree_to_tree(&diff, handle, parentTree, tree, nil), "git_diff_tree_to_tree")
        defer { git_diff_free(diff) }
        var out: [String] = []
        for i in 0..<git_diff_num_deltas(diff) {
            guard let d = git_diff_get_delta(diff, i)?.pointee else { continue }
            if let p = d.new_file.path { out.append(String(cString: p)) }
            if let p = d.old_file.path, d.status == GIT_DELTA_RENAMED { out.append(String(cString: p)) }
        }
        return out
    }

    func lookupCommit(_ id: String) throws -> OpaquePointer? {
        var oid = git_oid()
        try Repository.check(git_oid_fromstr(&oid, id), "git_oid_fromstr")
        var commit: OpaquePointer?
        try Repository.check(git_commit_lookup(&commit, handle, &oid), "git_commit_lookup")
        return commit
    }

    /// The commit a revision names (`HEAD~2`, a hash, a branch).
    public func resolve(_ revision: String) throws -> CommitInfo {
        var obj: OpaquePointer?
        guard git_revparse_single(&obj, handle, revision) == 0, let obj else {
            throw DaybookError.usage("no revision `\(revision)` in the diary's history")
        }
        defer { git_object_free(obj) }
        var peeled: OpaquePointer?
        try Repository.check(git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT), "git_object_peel")
        defer { git_object_free(peeled) }
        return try commitInfo(git_object_id(peeled)!.pointee)
    }

    /// Every file under `prefix` (a file path or a folder) in a commit, with its bytes.
    public func files(at commitID: String, under prefix: String) throws -> [(path: String, data: Data)] {
        let commit = try lookupCommit(commitID)
        defer { git_commit_free(commit) }
        var tree: OpaquePointer?
        try Repository.check(git_commit_tree(&tree, commit), "git_commit_tree")
        defer { git_tree_free(tree) }
        var entry: OpaquePointer?
        guard git_tree_entry_bypath(&entry, tree, prefix) == 0, let entry else { return [] }
        defer { git_tree_entry_free(entry) }
        var out: [(path: String, data: Data)] = []
        try collect(entry: entry, path: prefix, into: &out)
        return out
    }

    private func collect(entry: OpaquePointer, path: String, into out: inout [(path: String, data: Data)]) throws {
        var obj: OpaquePointer?
        try Repository.check(git_tree_entry_to_object(&obj, handle, entry), "git_tree_entry_to_object")
        defer { git_object_free(obj) }
        switch git_tree_entry_type(entry) {
        case GIT_OBJECT_BLOB:
            let size = Int(git_blob_rawsize(obj))
            let data = size > 0 ? Data(bytes: git_blob_rawcontent(obj)!, count: size) : Data()
            out.append((path, data))
        case GIT_OBJECT_TREE:
            for i in 0..<git_tree_entrycount(obj) {
                guard let child = git_tree_entry_byindex(obj, i), let name = git_tree_entry_name(child) else { continue }
                try collect(entry: child, path: path + "/" + String(cString: name), into: &out)
            }
        default: break
        }
    }
}

/// The umask while libgit2 writes into a diary's repository: the user's, with group and others
/// masked out. libgit2 creates what it writes (the index, refs, reflogs, objects, the config,
/// lock files) 0666 or 0444 and its folders 0777, less the umask, so under umask 000 a private
/// diary's index would be world-writable. Held for as long as any repository is open, so no call
/// that writes can miss it: narrowed call by call, a push's tracking refs and the config that
/// `sync --set-remote` writes did. The user's umask comes back when the last one is closed; a
/// push's upload into a remote on this machine runs under it, as git's own would.
enum PrivateUmask {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var holders = 0
    nonisolated(unsafe) private static var user: mode_t = 0

    static func acquire() {
        lock.lock()
        defer { lock.unlock() }
        if holders == 0 {
            user = umask(0o077)
            umask(user | 0o077)
        }
        holders += 1
    }

    static func release() {
        lock.lock()
        defer { lock.unlock() }
        holders -= 1
        if holders == 0 { umask(user) }
    }

    /// Runs `body` under the user's own umask (writes that land outside the diary).
    static func asUser<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        if holders > 0 { umask(user) }
        lock.unlock()
        defer {
            lock.lock()
            if holders > 0 { umask(user | 0o077) }
            lock.unlock()
        }
        return try body()
    }
}
