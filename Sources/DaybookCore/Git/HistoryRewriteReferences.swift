// After a rewrite: references onto the new history, reflogs and ORIG_HEAD cut loose, old objects deleted.
import Foundation
import CLibGit2

extension HistoryRewriter {
    /// Every commit of the new history: those the rewrite left alone and those it wrote.
    func newHistory(walked: Set<String>) -> Set<String> {
        var keep = walked.subtracting(mapped.keys)
        for case let new? in mapped.values { keep.insert(new) }
        return keep
    }

    /// Points every reference (branches, remote-tracking branches, tags) at the rewritten commits,
    /// then drops what still leads to the old ones: reflog entries, ORIG_HEAD, FETCH_HEAD.
    func moveReferences(keeping history: Set<String>) throws {
        let message = "purge: history rewritten"
        for (name, commit) in try repo.referencedCommits() where name != "HEAD" {
            let old = Repository.string(commit)
            let new = newID(old)
            guard new != old else { continue }
            var ref: OpaquePointer?
            try Repository.check(git_reference_lookup(&ref, handle, name), "git_reference_lookup")
            defer { git_reference_free(ref) }
            guard var target = new.map({ try? repo.oid($0) }) ?? nil else {
                try Repository.check(git_reference_delete(ref), "git_reference_delete")
                continue
            }
            var obj: OpaquePointer?
            try Repository.check(git_object_lookup(&obj, handle, git_reference_target(ref), GIT_OBJECT_ANY), "git_object_lookup")
            defer { git_object_free(obj) }
            if git_object_type(obj) == GIT_OBJECT_TAG {
                target = try retag(obj, to: target)
            }
            var moved: OpaquePointer?
            try Repository.check(git_reference_set_target(&moved, ref, &target, message), "git_reference_set_target")
            git_reference_free(moved)
        }
        if git_repository_head_detached(handle) == 1, let head = repo.headID, let new = newID(head), new != head {
            var id = try repo.oid(new)
            try Repository.check(git_repository_set_head_detached(handle, &id), "git_repository_set_head_detached")
        }
        try dropReflogEntries(outside: history)
        var orig: OpaquePointer?
        if git_reference_lookup(&orig, handle, "ORIG_HEAD") == 0 {
            defer { git_reference_free(orig) }
            if let t = git_reference_target(orig), !history.contains(Repository.string(t.pointee)) { git_reference_delete(orig) }
        }
        if let dir = git_repository_path(handle) {
            unlink(String(cString: dir) + "FETCH_HEAD")
        }
    }

    /// An annotated tag like `tag`, pointing at another commit: same name, tagger and message.
    private func retag(_ tag: OpaquePointer?, to commit: git_oid) throws -> git_oid {
        var commit = commit
        var target: OpaquePointer?
        try Repository.check(git_object_lookup(&target, handle, &commit, GIT_OBJECT_COMMIT), "git_object_lookup")
        defer { git_object_free(target) }
        var out = git_oid()
        try Repository.check(git_tag_annotation_create(&out, handle, git_tag_name(tag), target, git_tag_tagger(tag), git_tag_message(tag)),
                             "git_tag_annotation_create")
        return out
    }

    /// Reflog entries that name a commit outside the new history go: they would keep it reachable.
    private func dropReflogEntries(outside history: Set<String>) throws {
        var names: Set<String> = ["HEAD"]
        var iter: OpaquePointer?
        try Repository.check(git_reference_iterator_new(&iter, handle), "git_reference_iterator_new")
        defer { git_reference_iterator_free(iter) }
        var ref: OpaquePointer?
        // Symbolic references too: `refs/remotes/origin/HEAD` keeps a reflog of its own.
        while git_reference_next(&ref, iter) == 0 {
            if let n = git_reference_name(ref) { names.insert(String(cString: n)) }
            git_reference_free(ref)
        }
        for name in names where git_reference_has_log(handle, name) == 1 {
            var log: OpaquePointer?
            try Repository.check(git_reflog_read(&log, handle, name), "git_reflog_read")
            defer { git_reflog_free(log) }
            var changed = false
            var i = git_reflog_entrycount(log)
            while i > 0 {
                i -= 1
                guard let entry = git_reflog_entry_byindex(log, i) else { continue }
                let ids = [git_reflog_entry_id_old(entry), git_reflog_entry_id_new(entry)].compactMap { $0 }
                    .filter { git_oid_is_zero($0) == 0 }.map { Repository.string($0.pointee) }
                if ids.allSatisfy(history.contains) { continue }
                try Repository.check(git_reflog_drop(log, i, 0), "git_reflog_drop")
                changed = true
            }
            if changed { try Repository.check(git_reflog_write(log), "git_reflog_write") }
        }
    }

    /// Deletes the loose objects only the old history held: old commits, the trees the rewrite
    /// replaced, the erased files. Each is first looked for in every tree of the new history, so
    /// nothing still in use goes. Returns how many were deleted and how many remain in packs (a
    /// pack is left whole: `git gc --prune=now` rewrites it).
    func deleteOldObjects(keeping history: Set<String>) throws -> (deleted: Int, packed: Int) {
        var candidates = Set(mapped.keys).union(replacedTrees)
        for r in removedObjects {
            candidates.insert(r.oid)
            if r.isTree { try repo.objects(ofTree: r.oid, into: &candidates) }
        }
        candidates.subtract(history)
        var seen = Set<String>()
        for commit in history where !candidates.isEmpty {
            let c = try repo.lookupCommit(commit)
            defer { git_commit_free(c) }
            guard let tree = git_commit_tree_id(c)?.pointee else { continue }
            try repo.visit(tree: Repository.string(tree), seen: &seen) { candidates.remove($0) }
        }
        // Blobs the index holds (nothing should be staged after a purge, but nothing staged is lost).
        var index: OpaquePointer?
        try Repository.check(git_repository_index(&index, handle), "git_repository_index")
        defer { git_index_free(index) }
        for i in 0..<git_index_entrycount(index) {
            if let e = git_index_get_byindex(index, i) { candidates.remove(Repository.string(e.pointee.id)) }
        }
        guard let dir = git_repository_path(handle) else { return (0, 0) }
        let objects = String(cString: dir) + "objects/"
        var odb: OpaquePointer?
        try Repository.check(git_repository_odb(&odb, handle), "git_repository_odb")
        defer { git_odb_free(odb) }
        var deleted = 0
        var packed = Set<String>()
        for id in candidates {
            if unlink(objects + id.prefix(2) + "/" + id.dropFirst(2)) == 0 { deleted += 1; continue }
            var oid = try repo.oid(id)
            if git_odb_exists(odb, &oid) == 1 { packed.insert(id) }
        }
        let repacked = try rewritePacks(in: objects + "pack", without: packed)
        return (deleted + repacked, packed.count - repacked)
    }

    /// Writes every pack that holds one of `gone` again without it (git_packbuilder, from the
    /// objects of that pack), then deletes the old pack: the objects stay readable throughout.
    /// A pack marked `.keep` is left alone. Returns how many of `gone` went.
    private func rewritePacks(in folder: String, without gone: Set<String>) throws -> Int {
        guard !gone.isEmpty else { return 0 }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var went = 0
        for idx in names.filter({ $0.hasSuffix(".idx") }).sorted() {
            let base = String(idx.dropLast(4))
            guard !names.contains(base + ".keep") else { continue }
            let ids = try repo.objects(inPack: folder + "/" + idx)
            let dropped = ids.filter(gone.contains)
            guard !dropped.isEmpty else { continue }
            var builder: OpaquePointer?
            try Repository.check(git_packbuilder_new(&builder, handle), "git_packbuilder_new")
            defer { git_packbuilder_free(builder) }
            for id in ids where !gone.contains(id) {
                var oid = try repo.oid(id)
                try Repository.check(git_packbuilder_insert(builder, &oid, nil), "git_packbuilder_insert")
            }
            if git_packbuilder_object_count(builder) > 0 {
                try Repository.check(git_packbuilder_write(builder, folder, 0, nil, nil), "git_packbuilder_write")
            }
            for ext in [".pack", ".idx", ".rev", ".bitmap", ".mtimes", ".promisor"] { unlink(folder + "/" + base + ext) }
            went += dropped.count
        }
        if went > 0 {
            // git's caches of the pack set and of the commits: rebuilt by git when it wants them, and
            // they would name the commits just deleted.
            let info = (folder as NSString).deletingLastPathComponent + "/info/"
            for f in ["commit-graph", "commit-graphs", "packs"] { try? FileManager.default.removeItem(atPath: info + f) }
            unlink(folder + "/multi-pack-index")
            var odb: OpaquePointer?
            if git_repository_odb(&odb, handle) == 0 { git_odb_refresh(odb); git_odb_free(odb) }
        }
        return went
    }
}

extension Repository {
    /// The ids of the objects in one pack, read through its index.
    func objects(inPack index: String) throws -> [String] {
        final class Collected { var ids: [String] = [] }
        var backend: OpaquePointer?
        try Repository.check(git_odb_backend_one_pack(&backend, index), "git_odb_backend_one_pack")
        var odb: OpaquePointer?
        try Repository.check(git_odb_new(&odb), "git_odb_new")
        defer { git_odb_free(odb) }
        try Repository.check(git_odb_add_backend(odb, backend, 1), "git_odb_add_backend")  // the odb owns it now
        let collected = Collected()
        try Repository.check(git_odb_foreach(odb, { id, payload in
            guard let id, let payload else { return 0 }
            Unmanaged<Collected>.fromOpaque(payload).takeUnretainedValue().ids.append(Repository.string(id.pointee))
            return 0
        }, Unmanaged.passUnretained(collected).toOpaque()), "git_odb_foreach")
        return collected.ids
    }

    /// Adds every object below a tree (subtrees and blobs) to `out`.
    func objects(ofTree id: String, into out: inout Set<String>) throws {
        var seen = Set<String>()
        try visit(tree: id, seen: &seen) { out.insert($0) }
    }

    /// Calls `body` with a tree and every object below it, each distinct tree once.
    func visit(tree id: String, seen: inout Set<String>, _ body: (String) -> Void) throws {
        guard seen.insert(id).inserted else { return }
        body(id)
        var oid = try oid(id)
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &oid), "git_tree_lookup")
        defer { git_tree_free(tree) }
        for i in 0..<git_tree_entrycount(tree) {
            guard let e = git_tree_entry_byindex(tree, i), let child = git_tree_entry_id(e)?.pointee else { continue }
            let cid = Repository.string(child)
            if git_tree_entry_type(e) == GIT_OBJECT_TREE { try visit(tree: cid, seen: &seen, body) } else { body(cid) }
        }
    }
}
