// Is the repository whole? HEAD on a branch that exists, and every object reachable from it present.
import Foundation
import CLibGit2

/// An object HEAD's history needs that the repository does not have.
public struct MissingObject: Equatable, Sendable {
    public enum Kind: String, Sendable { case commit, tree, blob }
    public var kind: Kind
    public var id: String
    /// The path the object has in `commit`'s tree ("" for a commit or the root tree).
    public var path: String
    /// The newest commit that needs it.
    public var commit: String
}

extension Repository {
    /// What to do about a damaged repository, said after each problem.
    public static let recovery = "the repository is damaged: fetch what is missing from a remote or another clone "
        + "(`git fetch origin`), or restore .git from a backup, then `git fsck` must find nothing; the files in the folder are untouched"

    /// HEAD names a branch that does not exist while the repository has others: a commit now
    /// would start a second, unrelated history (and hide the first). The problem in words, or nil.
    public func headProblem() -> String? {
        guard git_repository_head_unborn(handle) == 1 else { return nil }
        let branches = branchNames()
        guard !branches.isEmpty else { return nil }  // a new repository: its first commit makes the branch
        var ref: OpaquePointer?
        var target = "?"
        if git_reference_lookup(&ref, handle, "HEAD") == 0, let ref {
            if let t = git_reference_symbolic_target(ref) { target = String(cString: t) }
            git_reference_free(ref)
        }
        let name = target.hasPrefix("refs/heads/") ? String(target.dropFirst("refs/heads/".count)) : target
        return "HEAD names the branch `\(name)`, which does not exist, while the repository has \(branches.map { "`\($0)`" }.joined(separator: ", ")): "
            + "a commit now would start a new history apart from it, so daybook changes nothing. Check out the branch the diary is on "
            + "(`git checkout \(branches.contains("main") ? "main" : branches[0])`), or, if the branch was lost, restore it from a remote or `git reflog`"
    }

    /// The local branches' names.
    func branchNames() -> [String] {
        var iter: OpaquePointer?
        guard git_branch_iterator_new(&iter, handle, GIT_BRANCH_LOCAL) == 0 else { return [] }
        defer { git_branch_iterator_free(iter) }
        var out: [String] = []
        var ref: OpaquePointer?
        var type = GIT_BRANCH_LOCAL
        while git_branch_next(&ref, &type, iter) == 0 {
            var name: UnsafePointer<CChar>?
            if git_branch_name(&name, ref) == 0, let name { out.append(String(cString: name)) }
            git_reference_free(ref)
        }
        return out.sorted()
    }

    /// Objects reachable from HEAD that are missing: commits, trees and blobs of its whole history
    /// (each object looked at once), up to `limit`. A shallow clone's cut-off parents are not missing.
    public func missingObjects(limit: Int = 20) throws -> [MissingObject] {
        var headID = git_oid()
        guard git_reference_name_to_id(&headID, handle, "HEAD") == 0 else { return [] }
        var odb: OpaquePointer?
        try Repository.check(git_repository_odb(&odb, handle), "git_repository_odb")
        defer { git_odb_free(odb) }
        let shallow = git_repository_is_shallow(handle) == 1
        var missing: [MissingObject] = []
        var seen = Set<ObjectKey>()
        var commits = [(headID, true)]
        func lost(_ kind: MissingObject.Kind, _ id: git_oid, _ path: String, _ commit: String) {
            if missing.count < limit { missing.append(MissingObject(kind: kind, id: Repository.string(id), path: path, commit: commit)) }
        }
        func visitTree(_ id: git_oid, path: String, commit: String) {
            var id = id
            guard missing.count < limit, seen.insert(ObjectKey(id)).inserted else { return }
            var tree: OpaquePointer?
            guard git_tree_lookup(&tree, handle, &id) == 0, let tree else { return lost(.tree, id, path, commit) }
            defer { git_tree_free(tree) }
            for i in 0..<git_tree_entrycount(tree) {
                guard let entry = git_tree_entry_byindex(tree, i), let name = git_tree_entry_name(entry),
                      let oid = git_tree_entry_id(entry)?.pointee else { continue }
                let child = path.isEmpty ? String(cString: name) : path + "/" + String(cString: name)
                switch git_tree_entry_type(entry) {
                case GIT_OBJECT_TREE: visitTree(oid, path: child, commit: commit)
                case GIT_OBJECT_BLOB:
                    var blob = oid
                    if seen.insert(ObjectKey(oid)).inserted, git_odb_exists(odb, &blob) == 0 { lost(.blob, oid, child, commit) }
                default: break  // a submodule's commit lives in another repository
                }
            }
        }
        while let (next, isHead) = commits.popLast(), missing.count < limit {
            var id = next
            guard seen.insert(ObjectKey(id)).inserted else { continue }
            let hex = Repository.string(id)
            var commit: OpaquePointer?
            guard git_commit_lookup(&commit, handle, &id) == 0, let commit else {
                if isHead || !shallow { lost(.commit, id, "", hex) }
                continue
            }
            defer { git_commit_free(commit) }
            if let tree = git_commit_tree_id(commit)?.pointee { visitTree(tree, path: "", commit: hex) }
            for i in 0..<git_commit_parentcount(commit) {
                if let p = git_commit_parent_id(commit, i)?.pointee { commits.append((p, false)) }
            }
        }
        return missing
    }

    /// An object id as a set member, without making its hex string (a walk meets every object).
    struct ObjectKey: Hashable {
        let a: UInt64, b: UInt64, c: UInt32
        init(_ oid: git_oid) {
            var oid = oid
            (a, b, c) = withUnsafeBytes(of: &oid.id) { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            }
        }
    }

    /// A libgit2 error about an object it could not find, said in daybook's words: which file's
    /// committed version is missing (the repository is searched for it) and what to do. Nil for
    /// other errors.
    public func explainMissingObject(_ error: Error) -> DaybookError? {
        let signs = ["object not found", "no match for id", "invalid object specified", "failed to find", "object does not exist"]
        guard let e = error as? DaybookError, e.kind == .git, signs.contains(where: e.message.contains) else { return nil }
        let missing = (try? missingObjects(limit: 5)) ?? []
        guard let first = missing.first else { return nil }
        let others = missing.count > 1 ? " (and \(missing.count - 1) more object\(missing.count == 2 ? "" : "s"); `daybook check` lists them)" : ""
        if first.kind == .blob {
            return DaybookError(.git, "the committed version of this file (blob \(first.id.prefix(12)) of commit \(first.commit.prefix(7))) is missing from the repository\(others), so daybook cannot commit; " + Repository.recovery,
                                at: SourceLocation(path: first.path))
        }
        return DaybookError(.git, "the \(first.kind.rawValue) \(first.id.prefix(12))\(first.path.isEmpty ? "" : " of \(first.path)") in commit \(first.commit.prefix(7)) is missing from the repository\(others), so daybook cannot commit; " + Repository.recovery,
                            at: SourceLocation(path: ".git"))
    }
}
