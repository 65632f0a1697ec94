// What a sync merge needs from libgit2: commits' trees as path maps, blobs, merge bases, fast-forwards.
import Foundation
import CLibGit2

extension Repository {
    /// The commit HEAD points at; nil before the first commit.
    public var headID: String? { referenceID("HEAD") }

    /// The commit a reference (`refs/remotes/origin/main`) points at, if it exists.
    public func referenceID(_ name: String) -> String? {
        var oid = git_oid()
        return git_reference_name_to_id(&oid, handle, name) == 0 ? Repository.string(oid) : nil
    }

    /// The best common ancestor of two commits; nil when their histories are unrelated.
    public func mergeBase(_ a: String, _ b: String) throws -> String? {
        var x = try oid(a), y = try oid(b), out = git_oid()
        let code = git_merge_base(&out, handle, &x, &y)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try Repository.check(code, "git_merge_base")
        return Repository.string(out)
    }

    /// How many commits `local` has that `upstream` lacks, and the other way round.
    public func aheadBehind(_ local: String, _ upstream: String) throws -> (ahead: Int, behind: Int) {
        var x = try oid(local), y = try oid(upstream)
        var ahead = 0, behind = 0
        try Repository.check(git_graph_ahead_behind(&ahead, &behind, handle, &x, &y), "git_graph_ahead_behind")
        return (ahead, behind)
    }

    func oid(_ s: String) throws -> git_oid {
        var out = git_oid()
        try Repository.check(git_oid_fromstr(&out, s), "git_oid_fromstr")
        return out
    }

    /// Every file of a commit's tree: its path and its blob id.
    public func blobIDs(commit: String) throws -> [String: String] {
        final class Collected { var files: [String: String] = [:] }
        let commit = try lookupCommit(commit)
        defer { git_commit_free(commit) }
        var tree: OpaquePointer?
        try Repository.check(git_commit_tree(&tree, commit), "git_commit_tree")
        defer { git_tree_free(tree) }
        let collected = Collected()
        let code = git_tree_walk(tree, GIT_TREEWALK_PRE, { root, entry, payload in
            guard let entry, let payload, git_tree_entry_type(entry) == GIT_OBJECT_BLOB,
                  let name = git_tree_entry_name(entry), let id = git_tree_entry_id(entry) else { return 0 }
            let collected = Unmanaged<Collected>.fromOpaque(payload).takeUnretainedValue()
            collected.files[(root.map { String(cString: $0) } ?? "") + String(cString: name)] = Repository.string(id.pointee)
            return 0
        }, Unmanaged.passUnretained(collected).toOpaque())
        try Repository.check(code, "git_tree_walk")
        return collected.files
    }

    /// The bytes of a blob.
    public func blob(_ id: String) throws -> Data {
        var oid = try oid(id)
        var blob: OpaquePointer?
        try Repository.check(git_blob_lookup(&blob, handle, &oid), "git_blob_lookup")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let bytes = git_blob_rawcontent(blob) else { return Data() }
        return Data(bytes: bytes, count: size)
    }

    /// Moves the current branch to `commit` after the caller wrote that commit's files over
    /// `paths`: stages them and checks that the index now holds exactly the commit's tree. False
    /// (and nothing moved) when it does not, e.g. when a filter changed the bytes.
    public func fastForward(to commit: String, paths: [String]) throws -> Bool {
        var treeID = try stage(paths)
        let target = try lookupCommit(commit)
        defer { git_commit_free(target) }
        guard let wanted = git_commit_tree_id(target), git_oid_equal(wanted, &treeID) != 0 else { return false }
        try moveBranch(to: commit, message: "sync: fast-forward")
        return true
    }

    /// Points the current branch at `commit` (the reflog says `message`); the files are the caller's.
    func moveBranch(to commit: String, message: String) throws {
        var head: OpaquePointer?
        try Repository.check(git_repository_head(&head, handle), "git_repository_head")
        defer { git_reference_free(head) }
        var id = try oid(commit)
        var moved: OpaquePointer?
        try Repository.check(git_reference_set_target(&moved, head, &id, message), "git_reference_set_target")
        git_reference_free(moved)
    }
}
