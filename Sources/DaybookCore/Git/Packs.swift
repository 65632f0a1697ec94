// What an encrypted remote needs from libgit2 beyond a sync: packs of objects (git_packbuilder)
// and their indexing into the object database (git_odb_write_pack), blobs, trees and commits
// written directly, references set and removed.
import CLibGit2
import Foundation

extension Repository {
    /// The repository's own folder (`.git`).
    public var gitDirectory: URL { URL(fileURLWithPath: String(cString: git_repository_path(handle))) }

    /// Opens the bare repository at `url`, creating it (0700) when missing.
    static func openOrCreateBare(_ url: URL) throws -> Repository {
        _ = initialized
        var repo: OpaquePointer?
        if git_repository_open_bare(&repo, url.path) == 0, let repo { return Repository(handle: repo, root: url) }
        try check(privately { git_repository_init(&repo, url.path, 1) }, "git_repository_init")
        return Repository(handle: repo!, root: url)
    }

    /// A pack of every object reachable from `tips` and not from `hiding` (commits that must
    /// exist here); returns its bytes and its number of objects.
    func pack(tips: [String], hiding: [String]) throws -> (data: Data, objects: Int) {
        var builder: OpaquePointer?
        try Repository.check(git_packbuilder_new(&builder, handle), "git_packbuilder_new")
        defer { git_packbuilder_free(builder) }
        var walker: OpaquePointer?
        try Repository.check(git_revwalk_new(&walker, handle), "git_revwalk_new")
        defer { git_revwalk_free(walker) }
        for tip in tips {
            var id = try oid(tip)
            try Repository.check(git_revwalk_push(walker, &id), "git_revwalk_push")
        }
        for hidden in hiding {
            var id = try oid(hidden)
            try Repository.check(git_revwalk_hide(walker, &id), "git_revwalk_hide")
        }
        try Repository.check(git_packbuilder_insert_walk(builder, walker), "git_packbuilder_insert_walk")
        var buf = git_buf()
        defer { git_buf_dispose(&buf) }
        try Repository.check(git_packbuilder_write_buf(&buf, builder), "git_packbuilder_write_buf")
        let data = buf.ptr.map { Data(bytes: $0, count: buf.size) } ?? Data()
        return (data, Int(git_packbuilder_object_count(builder)))
    }

    /// Indexes a pack into the object database: all of it, or (on any error) none of it.
    func indexPack(_ data: Data) throws {
        var odb: OpaquePointer?
        try Repository.check(git_repository_odb(&odb, handle), "git_repository_odb")
        defer { git_odb_free(odb) }
        var writer: UnsafeMutablePointer<git_odb_writepack>?
        try Repository.check(git_odb_write_pack(&writer, odb, nil, nil), "git_odb_write_pack")
        guard let writer else { throw DaybookError(.git, "git_odb_write_pack gave no writer") }
        defer { writer.pointee.free(writer) }
        var stats = git_indexer_progress()
        try data.withUnsafeBytes { raw in
            try Repository.check(writer.pointee.append(writer, raw.baseAddress, raw.count, &stats), "git_odb_writepack append")
        }
        try Repository.check(writer.pointee.commit(writer, &stats), "git_odb_writepack commit")
    }

    /// Whether the object database holds a commit with this id.
    func hasCommit(_ id: String) -> Bool {
        guard var oid = try? oid(id) else { return false }
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, handle, &oid) == 0 else { return false }
        git_commit_free(commit)
        return true
    }

    /// Writes a blob; returns its id.
    func writeBlob(_ data: Data) throws -> String {
        var out = git_oid()
        try data.withUnsafeBytes { raw in
            try Repository.check(git_blob_create_from_buffer(&out, handle, raw.baseAddress, raw.count), "git_blob_create_from_buffer")
        }
        return Repository.string(out)
    }

    /// Writes a tree of `entries` (name -> id; a folder when `isTree`); returns its id.
    func writeTree(_ entries: [(name: String, id: String, isTree: Bool)]) throws -> String {
        var builder: OpaquePointer?
        try Repository.check(git_treebuilder_new(&builder, handle, nil), "git_treebuilder_new")
        defer { git_treebuilder_free(builder) }
        for e in entries {
            var id = try oid(e.id)
            try Repository.check(git_treebuilder_insert(nil, builder, e.name, &id, e.isTree ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB), "git_treebuilder_insert")
        }
        var out = git_oid()
        try Repository.check(git_treebuilder_write(&out, builder), "git_treebuilder_write")
        return Repository.string(out)
    }

    /// The entries of a commit's root tree, or of a tree: name -> (id, whether a folder).
    func treeEntries(commit: String? = nil, tree treeID: String? = nil) throws -> [String: (id: String, isTree: Bool)] {
        var tree: OpaquePointer?
        if let commit {
            let c = try lookupCommit(commit)
            defer { git_commit_free(c) }
            try Repository.check(git_commit_tree(&tree, c), "git_commit_tree")
        } else if let treeID {
            var id = try oid(treeID)
            try Repository.check(git_tree_lookup(&tree, handle, &id), "git_tree_lookup")
        }
        defer { git_tree_free(tree) }
        var out: [String: (String, Bool)] = [:]
        for i in 0..<git_tree_entrycount(tree) {
            guard let e = git_tree_entry_byindex(tree, i), let name = git_tree_entry_name(e), let id = git_tree_entry_id(e) else { continue }
            out[String(cString: name)] = (Repository.string(id.pointee), git_tree_entry_type(e) == GIT_OBJECT_TREE)
        }
        return out
    }

    /// Writes a commit of `tree` with `parents` and a fixed author, committer, date and message
    /// that say nothing of the one who made it; returns its id (no reference moves).
    func writeAnonymousCommit(tree treeID: String, parents: [String], message: String) throws -> String {
        var tid = try oid(treeID)
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &tid), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var commits: [OpaquePointer?] = []
        defer { commits.forEach { git_commit_free($0) } }
        for p in parents { commits.append(try lookupCommit(p)) }
        var sig: UnsafeMutablePointer<git_signature>?
        try Repository.check(git_signature_new(&sig, "daybook", "daybook@invalid", 0, 0), "git_signature_new")
        defer { git_signature_free(sig) }
        var out = git_oid()
        try commits.withUnsafeMutableBufferPointer { buf in
            try Repository.check(git_commit_create(&out, handle, nil, sig, sig, "UTF-8", message, tree, buf.count, buf.baseAddress), "git_commit_create")
        }
        return Repository.string(out)
    }

    /// Points a reference at a commit (made, or moved whatever it pointed at).
    func setReference(_ name: String, to id: String, message: String) throws {
        var target = try oid(id)
        var ref: OpaquePointer?
        try Repository.check(git_reference_create(&ref, handle, name, &target, 1, message), "git_reference_create")
        git_reference_free(ref)
    }

    func removeReference(_ name: String) {
        _ = git_reference_remove(handle, name)
    }
}

extension Repository {
    /// Every object stored in the repository, loose or packed, reachable or not: its id, its type
    /// (`blob`, `tree`, `commit`, `tag`) and its content (`purge --verify` reads them all).
    public func forEachStoredObject(_ body: (String, String, Data) throws -> Void) throws {
        final class Collected { var ids: [git_oid] = [] }
        var odb: OpaquePointer?
        try Repository.check(git_repository_odb(&odb, handle), "git_repository_odb")
        defer { git_odb_free(odb) }
        let collected = Collected()
        try Repository.check(git_odb_foreach(odb, { id, payload in
            guard let id, let payload else { return 0 }
            Unmanaged<Collected>.fromOpaque(payload).takeUnretainedValue().ids.append(id.pointee)
            return 0
        }, Unmanaged.passUnretained(collected).toOpaque()), "git_odb_foreach")
        for var id in collected.ids {
            var object: OpaquePointer?
            guard git_odb_read(&object, odb, &id) == 0 else { continue }
            defer { git_odb_object_free(object) }
            let size = git_odb_object_size(object)
            let data = size > 0 ? Data(bytes: git_odb_object_data(object), count: size) : Data()
            let type = String(cString: git_object_type2string(git_odb_object_type(object)))
            try body(Repository.string(id), type, data)
        }
    }
}
