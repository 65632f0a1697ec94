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

    /// After the rewrite, nothing of the old history may stay in this repository, packed or loose,
    /// reachable or not: one new pack of what the references, the index and the reflogs reach is
    /// written, then every other pack and every loose object is deleted (what `git gc
    /// --prune=now` does, through libgit2). Returns how many objects went, and 0 left in packs.
    func deleteOldObjects(keeping history: Set<String>) throws -> (deleted: Int, packed: Int) {
        (try repo.repackReachable(), 0)
    }
}

extension Repository {
    /// Writes one pack of every object reachable from a reference (through tags), HEAD, a reflog
    /// entry or the index, then deletes every other pack (a pack marked `.keep` stays) and every
    /// loose object, and git's caches that name objects (commit-graph, multi-pack-index,
    /// info/packs). What nothing reaches is gone, wherever it was stored; what something reaches
    /// is readable throughout (the new pack is written before anything is deleted). Returns how
    /// many objects went.
    func repackReachable() throws -> Int {
        guard let dir = git_repository_path(handle) else { return 0 }
        let objects = String(cString: dir) + "objects/"
        let packFolder = objects + "pack"
        let fm = FileManager.default
        let oldPacks = ((try? fm.contentsOfDirectory(atPath: packFolder)) ?? []).filter { $0.hasSuffix(".idx") }.map { String($0.dropLast(4)) }
        let kept = Set(((try? fm.contentsOfDirectory(atPath: packFolder)) ?? []).filter { $0.hasSuffix(".keep") }.map { String($0.dropLast(5)) })
        let looseFolders = ((try? fm.contentsOfDirectory(atPath: objects)) ?? []).filter { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
        // What is stored now, to count what goes.
        var before = Set<String>()
        for base in oldPacks where !kept.contains(base) { before.formUnion(try self.objects(inPack: packFolder + "/" + base + ".idx")) }
        for folder in looseFolders {
            for name in (try? fm.contentsOfDirectory(atPath: objects + folder)) ?? [] where name.count == 38 { before.insert(folder + name) }
        }

        var walk: OpaquePointer?
        try Repository.check(git_revwalk_new(&walk, handle), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        var builder: OpaquePointer?
        try Repository.check(git_packbuilder_new(&builder, handle), "git_packbuilder_new")
        defer { git_packbuilder_free(builder) }
        // Every core: the whole history is packed again.
        _ = git_packbuilder_set_threads(builder, 0)
        var pushed = 0
        func push(_ id: git_oid) throws {
            var id = id
            var obj: OpaquePointer?
            guard git_object_lookup(&obj, handle, &id, GIT_OBJECT_ANY) == 0 else { return }
            defer { git_object_free(obj) }
            switch git_object_type(obj) {
            case GIT_OBJECT_COMMIT:
                try Repository.check(git_revwalk_push(walk, &id), "git_revwalk_push")
                pushed += 1
            case GIT_OBJECT_TAG:
                try Repository.check(git_packbuilder_insert(builder, &id, nil), "git_packbuilder_insert")
                var target: OpaquePointer?
                if git_tag_target(&target, obj) == 0, let t = git_object_id(target)?.pointee {
                    git_object_free(target)
                    try push(t)
                }
            default:
                try Repository.check(git_packbuilder_insert_recur(builder, &id, nil), "git_packbuilder_insert_recur")
            }
        }
        // Every reference, direct or not, and the entries of every reflog.
        var iter: OpaquePointer?
        try Repository.check(git_reference_iterator_new(&iter, handle), "git_reference_iterator_new")
        var names: Set<String> = ["HEAD"]
        var ref: OpaquePointer?
        while git_reference_next(&ref, iter) == 0 {
            if let n = git_reference_name(ref) { names.insert(String(cString: n)) }
            if git_reference_type(ref) == GIT_REFERENCE_DIRECT, let t = git_reference_target(ref)?.pointee { try push(t) }
            git_reference_free(ref)
        }
        git_reference_iterator_free(iter)
        var head = git_oid()
        if git_reference_name_to_id(&head, handle, "HEAD") == 0 { try push(head) }
        for name in names where git_reference_has_log(handle, name) == 1 {
            var log: OpaquePointer?
            guard git_reflog_read(&log, handle, name) == 0 else { continue }
            defer { git_reflog_free(log) }
            for i in 0..<git_reflog_entrycount(log) {
                guard let e = git_reflog_entry_byindex(log, i) else { continue }
                for id in [git_reflog_entry_id_old(e), git_reflog_entry_id_new(e)] {
                    if let id, git_oid_is_zero(id) == 0 { try push(id.pointee) }
                }
            }
        }
        if pushed > 0 { try Repository.check(git_packbuilder_insert_walk(builder, walk), "git_packbuilder_insert_walk") }
        // Blobs the index holds (nothing should be staged after a purge, but nothing staged is lost).
        var index: OpaquePointer?
        try Repository.check(git_repository_index(&index, handle), "git_repository_index")
        for i in 0..<git_index_entrycount(index) {
            guard var id = git_index_get_byindex(index, i)?.pointee.id else { continue }
            var blob: OpaquePointer?
            if git_blob_lookup(&blob, handle, &id) == 0 {
                git_blob_free(blob)
                try Repository.check(git_packbuilder_insert(builder, &id, nil), "git_packbuilder_insert")
            }
        }
        git_index_free(index)

        var newPack: String?
        if git_packbuilder_object_count(builder) > 0 {
            try Repository.check(git_packbuilder_write(builder, packFolder, 0, nil, nil), "git_packbuilder_write")
            newPack = git_packbuilder_name(builder).map { "pack-" + String(cString: $0) }
            guard newPack != nil else { throw DaybookError(.git, "the repacked history's pack has no name; old objects were left as they were") }
        }
        let after = try newPack.map { Set(try self.objects(inPack: packFolder + "/" + $0 + ".idx")) } ?? []
        for base in oldPacks where base != newPack && !kept.contains(base) {
            for ext in [".pack", ".idx", ".rev", ".bitmap", ".mtimes", ".promisor"] { unlink(packFolder + "/" + base + ext) }
        }
        for folder in looseFolders {
            for name in (try? fm.contentsOfDirectory(atPath: objects + folder)) ?? [] { unlink(objects + folder + "/" + name) }
            rmdir(objects + folder)
        }
        // git's caches of the pack set and of the commits: rebuilt by git when it wants them, and
        // they would name the commits just deleted.
        for f in ["info/commit-graph", "info/commit-graphs", "info/packs"] { try? fm.removeItem(atPath: objects + f) }
        unlink(packFolder + "/multi-pack-index")
        var odb: OpaquePointer?
        if git_repository_odb(&odb, handle) == 0 { git_odb_refresh(odb); git_odb_free(odb) }
        return before.subtracting(after).count
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
