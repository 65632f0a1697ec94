// Rewriting every commit without some entries' files: same authors, dates and messages, mapped parents.
import Foundation
import CLibGit2

/// Entries to erase from history: ids by the folder they are filed in (`entries/2026/11`).
public typealias ErasedEntries = [String: Set<String>]

/// The rewrite of every commit reachable from the repository's references. Deterministic: the
/// same commits and the same erased entries give the same new commit ids on any machine, which
/// is what lets another clone apply a purge to its own history and then merge as usual.
///
/// Rules: each commit's tree loses the erased entries' files (the entry, its stroke file, its
/// conflict copies, its attachment folder; folders left empty go too). A commit that touched only
/// erased files becomes empty and is dropped: its message speaks of the erased entry. A commit that
/// touched them among other files is kept, with the erased entries' titles, ids, paths and file
/// names in its message replaced by `(purged)`. Every other commit keeps its message byte for
/// byte, its author, committer and dates, and, when nothing below it changed, its id.
final class HistoryRewriter {
    struct Removed: Equatable {
        var path: String
        var oid: String
        var isTree: Bool
    }

    let repo: Repository
    let erased: ErasedEntries
    /// Only counts what would change, writing nothing (what `purge` shows before it asks).
    let dryRun: Bool
    /// Every commit the rewrite went through.
    private(set) var walked = Set<String>()
    /// Old commit id → new commit id; nil when the commit was dropped and had no parent left.
    private(set) var mapped: [String: String?] = [:]
    private(set) var rewritten = 0
    private(set) var dropped = 0
    /// Trees and objects only the old history holds (candidates for deletion).
    private(set) var replacedTrees = Set<String>()
    private(set) var removedObjects: [Removed] = []
    private var rootMemo: [String: (tree: git_oid?, removed: [Removed])] = [:]
    private var folderMemo: [String: (tree: git_oid?, removed: [Removed])] = [:]
    private let parser = EntryParser(config: DiaryConfig(timeZone: TimeZone(secondsFromGMT: 0) ?? .current))

    init(_ repo: Repository, erasing erased: ErasedEntries, dryRun: Bool = false) {
        self.repo = repo
        self.erased = erased
        self.dryRun = dryRun
    }

    var handle: OpaquePointer { repo.handle }

    /// Rewrites the commits reachable from `tips` (all references when nil), oldest first.
    func run(tips: [git_oid]? = nil) throws {
        var walker: OpaquePointer?
        try Repository.check(git_revwalk_new(&walker, handle), "git_revwalk_new")
        defer { git_revwalk_free(walker) }
        git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue)
        for var tip in try tips ?? repo.referencedCommits().map(\.commit) {
            try Repository.check(git_revwalk_push(walker, &tip), "git_revwalk_push")
        }
        var id = git_oid()
        while git_revwalk_next(&id, walker) == 0 {
            walked.insert(Repository.string(id))
            try rewrite(id)
        }
    }

    /// The new id of a commit (itself when unchanged), nil when it was dropped down to nothing.
    func newID(_ old: String) -> String? {
        if let m = mapped[old] { return m }
        return old
    }

    private func rewrite(_ id: git_oid) throws {
        var id = id
        let key = Repository.string(id)
        var commit: OpaquePointer?
        try Repository.check(git_commit_lookup(&commit, handle, &id), "git_commit_lookup")
        defer { git_commit_free(commit) }
        let oldParents = (0..<git_commit_parentcount(commit)).compactMap { git_commit_parent_id(commit, $0).map { Repository.string($0.pointee) } }
        var parents: [String] = []
        for p in oldParents { if let n = newID(p), !parents.contains(n) { parents.append(n) } }
        if !dryRun, parents.count > 1, parents != oldParents {
            // A merge whose one side is now contained in the other is no merge any more.
            parents = try parents.filter { p in try !parents.contains { try $0 != p && repo.isDescendant($0, of: p) } }
        }
        guard let treeID = git_commit_tree_id(commit)?.pointee else { throw DaybookError(.git, "commit \(key) has no tree") }
        let (newTree, removed) = try filterRoot(treeID)
        let touched = try touches(key, oldParents)
        if dryRun {
            guard parents != oldParents || !removed.isEmpty || touched else { return }
            mapped[key] = .some("~" + key)
            rewritten += 1
            return
        }
        let newTreeID = try newTree ?? emptyTree()
        if touched, parents.count <= 1 {
            let parentTree = try parents.first.map(treeOf) ?? emptyTree()
            if Repository.string(newTreeID) == Repository.string(parentTree) {
                mapped[key] = .some(parents.first)
                dropped += 1
                return
            }
        }
        if !touched, parents == oldParents, removed.isEmpty {
            return  // unchanged: keeps its id
        }
        var message = git_commit_message_raw(commit).map { String(cString: $0) } ?? ""
        if touched { message = try scrub(message, removed: removed, parents: oldParents) }
        var tree: OpaquePointer?
        var t = newTreeID
        try Repository.check(git_tree_lookup(&tree, handle, &t), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var parentCommits: [OpaquePointer?] = []
        defer { parentCommits.forEach { git_commit_free($0) } }
        for p in parents { parentCommits.append(try repo.lookupCommit(p)) }
        var out = git_oid()
        let encoding = git_commit_message_encoding(commit)
        try parentCommits.withUnsafeMutableBufferPointer { buf in
            try Repository.check(git_commit_create(&out, handle, nil, git_commit_author(commit), git_commit_committer(commit),
                                                   encoding, message, tree, buf.count, buf.baseAddress), "git_commit_create")
        }
        let new = Repository.string(out)
        if new != key {
            mapped[key] = .some(new)
            rewritten += 1
        }
    }

    /// Whether a commit changed an erased entry's files against one of its parents.
    private func touches(_ commit: String, _ parents: [String]) throws -> Bool {
        let removed = try filterRoot(treeOf(commit)).removed
        if parents.isEmpty { return !removed.isEmpty }
        return try parents.contains { try filterRoot(treeOf($0)).removed != removed }
    }

    private func treeOf(_ commit: String) throws -> git_oid {
        let c = try repo.lookupCommit(commit)
        defer { git_commit_free(c) }
        guard let t = git_commit_tree_id(c)?.pointee else { throw DaybookError(.git, "commit \(commit) has no tree") }
        return t
    }

    private var empty: git_oid?
    private func emptyTree() throws -> git_oid {
        if let empty { return empty }
        var builder: OpaquePointer?
        try Repository.check(git_treebuilder_new(&builder, handle, nil), "git_treebuilder_new")
        defer { git_treebuilder_free(builder) }
        var out = git_oid()
        try Repository.check(git_treebuilder_write(&out, builder), "git_treebuilder_write")
        empty = out
        return out
    }

    // MARK: Trees

    /// A commit's tree without the erased entries (nil: nothing left), and what it lost.
    func filterRoot(_ root: git_oid) throws -> (tree: git_oid?, removed: [Removed]) {
        let key = Repository.string(root)
        if let m = rootMemo[key] { return m }
        var current: git_oid? = root
        var removed: [Removed] = []
        for folder in erased.keys.sorted() {
            guard let tree = current else { break }
            let parts = folder.split(separator: "/").map(String.init)
            let r = try replace(tree, parts[...], folder: folder)
            current = r.tree
            removed += r.removed
        }
        rootMemo[key] = (current, removed)
        return (current, removed)
    }

    /// `tree` with the folder at `path` below it filtered.
    private func replace(_ treeID: git_oid, _ path: ArraySlice<String>, folder: String) throws -> (tree: git_oid?, removed: [Removed]) {
        guard let name = path.first else { return try filterFolder(treeID, folder: folder) }
        var id = treeID
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &id), "git_tree_lookup")
        defer { git_tree_free(tree) }
        guard let entry = git_tree_entry_byname(tree, name), git_tree_entry_type(entry) == GIT_OBJECT_TREE,
              let childID = git_tree_entry_id(entry)?.pointee else { return (treeID, []) }
        let (newChild, removed) = try replace(childID, path.dropFirst(), folder: folder)
        if removed.isEmpty { return (treeID, []) }
        return (try rebuild(tree, treeID, removing: newChild == nil ? [name] : [], setting: newChild.map { [(name, $0)] } ?? []), removed)
    }

    /// A folder entries are filed in, without the files of the erased entries.
    private func filterFolder(_ treeID: git_oid, folder: String) throws -> (tree: git_oid?, removed: [Removed]) {
        let key = folder + "\0" + Repository.string(treeID)
        if let m = folderMemo[key] { return m }
        let ids = erased[folder] ?? []
        var id = treeID
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &id), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var removed: [Removed] = [], names: [String] = []
        for i in 0..<git_tree_entrycount(tree) {
            guard let e = git_tree_entry_byindex(tree, i), let cname = git_tree_entry_name(e), let oid = git_tree_entry_id(e)?.pointee else { continue }
            let name = String(cString: cname)
            guard ids.contains(where: name.hasPrefix) else { continue }  // most names, cheaply
            let isTree = git_tree_entry_type(e) == GIT_OBJECT_TREE
            let path = folder + "/" + name
            guard let owner = isTree ? name : History.entryID(ofPath: path), ids.contains(owner) else { continue }
            removed.append(Removed(path: path, oid: Repository.string(oid), isTree: isTree))
            names.append(name)
        }
        removedObjects += removed
        let result = (tree: removed.isEmpty ? treeID : try rebuild(tree, treeID, removing: names, setting: []), removed: removed)
        folderMemo[key] = result
        return result
    }

    /// A copy of `tree` with entries removed or pointed at other trees; nil when nothing is left.
    private func rebuild(_ tree: OpaquePointer?, _ oldID: git_oid, removing: [String], setting: [(String, git_oid)]) throws -> git_oid? {
        if dryRun { return oldID }
        var builder: OpaquePointer?
        try Repository.check(git_treebuilder_new(&builder, handle, tree), "git_treebuilder_new")
        defer { git_treebuilder_free(builder) }
        for name in removing { try Repository.check(git_treebuilder_remove(builder, name), "git_treebuilder_remove") }
        for (name, id) in setting {
            var id = id
            try Repository.check(git_treebuilder_insert(nil, builder, name, &id, GIT_FILEMODE_TREE), "git_treebuilder_insert")
        }
        replacedTrees.insert(Repository.string(oldID))
        guard git_treebuilder_entrycount(builder) > 0 else { return nil }
        var out = git_oid()
        try Repository.check(git_treebuilder_write(&out, builder), "git_treebuilder_write")
        return out
    }

    // MARK: Messages

    /// A message with the erased entries' titles, ids, paths and file names replaced by `(purged)`,
    /// as they were in this commit or its parents; a function of the commit alone, so every
    /// machine writes the same.
    private func scrub(_ message: String, removed: [Removed], parents: [String]) throws -> String {
        var all = removed
        for p in parents { all += try filterRoot(treeOf(p)).removed }
        var words = Set<String>()
        for r in all {
            words.insert(r.path)
            let name = (r.path as NSString).lastPathComponent
            words.insert(name)
            if let id = r.isTree ? name : History.entryID(ofPath: r.path) { words.insert(id) }
            if r.isTree {
                for f in try repo.files(ofTree: r.oid, path: r.path) { words.insert(f); words.insert((f as NSString).lastPathComponent) }
            } else if r.path.hasSuffix(".md"), let entry = parser.parse(try repo.blob(r.oid), relativePath: r.path, displayPath: r.path).entry {
                words.insert(entry.title)
                // `code add` and `code memo` messages quote the coding (shortened to one line).
                for c in entry.codings {
                    for text in [c.quote, c.memo].compactMap({ $0 }) {
                        words.insert(text)
                        words.insert(CodeApplication.short(text))
                        if CodeApplication.short(text).hasSuffix("…") { words.insert(String(CodeApplication.short(text).dropLast())) }
                    }
                }
            }
        }
        var out = message
        for w in words.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            out = out.replacingOccurrences(of: w, with: "(purged)")
        }
        return out
    }
}

extension Repository {
    /// Every reference that points (through tags) at a commit: its name and that commit.
    func referencedCommits() throws -> [(name: String, commit: git_oid)] {
        var iter: OpaquePointer?
        try Repository.check(git_reference_iterator_new(&iter, handle), "git_reference_iterator_new")
        defer { git_reference_iterator_free(iter) }
        var out: [(String, git_oid)] = []
        var ref: OpaquePointer?
        while git_reference_next(&ref, iter) == 0 {
            defer { git_reference_free(ref) }
            guard git_reference_type(ref) == GIT_REFERENCE_DIRECT, let name = git_reference_name(ref) else { continue }
            var obj: OpaquePointer?
            guard git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0 else { continue }
            defer { git_object_free(obj) }
            if let id = git_object_id(obj)?.pointee { out.append((String(cString: name), id)) }
        }
        var head = git_oid()
        if git_reference_name_to_id(&head, handle, "HEAD") == 0 { out.append(("HEAD", head)) }
        return out
    }

    func isDescendant(_ commit: String, of ancestor: String) throws -> Bool {
        var a = try oid(commit), b = try oid(ancestor)
        let r = git_graph_descendant_of(handle, &a, &b)
        try Repository.check(r, "git_graph_descendant_of")
        return r == 1
    }

    /// The paths of every file below a tree (`path` its place in the diary).
    func files(ofTree id: String, path: String) throws -> [String] {
        var oid = try oid(id)
        var tree: OpaquePointer?
        try Repository.check(git_tree_lookup(&tree, handle, &oid), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var out: [String] = []
        for i in 0..<git_tree_entrycount(tree) {
            guard let e = git_tree_entry_byindex(tree, i), let n = git_tree_entry_name(e), let child = git_tree_entry_id(e)?.pointee else { continue }
            let p = path + "/" + String(cString: n)
            if git_tree_entry_type(e) == GIT_OBJECT_TREE { out += try files(ofTree: Repository.string(child), path: p) } else { out.append(p) }
        }
        return out
    }
}

/// A name in a folder of entries: a file, or an attachment folder.
struct FiledName: Hashable {
    var name: String
    var isFolder: Bool
}

extension Repository {
    /// Every name that a folder held in any commit reachable from the references, each distinct
    /// version of the folder read once.
    func namesEverFiled(in folder: String) throws -> Set<FiledName> {
        var walker: OpaquePointer?
        try Repository.check(git_revwalk_new(&walker, handle), "git_revwalk_new")
        defer { git_revwalk_free(walker) }
        for var tip in try referencedCommits().map(\.commit) {
            try Repository.check(git_revwalk_push(walker, &tip), "git_revwalk_push")
        }
        var seen = Set<String>(), names = Set<FiledName>()
        var id = git_oid()
        while git_revwalk_next(&id, walker) == 0 {
            var commit: OpaquePointer?
            try Repository.check(git_commit_lookup(&commit, handle, &id), "git_commit_lookup")
            defer { git_commit_free(commit) }
            var tree: OpaquePointer?
            try Repository.check(git_commit_tree(&tree, commit), "git_commit_tree")
            defer { git_tree_free(tree) }
            var entry: OpaquePointer?
            guard git_tree_entry_bypath(&entry, tree, folder) == 0 else { continue }
            defer { git_tree_entry_free(entry) }
            guard git_tree_entry_type(entry) == GIT_OBJECT_TREE, var sub = git_tree_entry_id(entry)?.pointee,
                  seen.insert(Repository.string(sub)).inserted else { continue }
            var subtree: OpaquePointer?
            try Repository.check(git_tree_lookup(&subtree, handle, &sub), "git_tree_lookup")
            defer { git_tree_free(subtree) }
            for i in 0..<git_tree_entrycount(subtree) {
                guard let e = git_tree_entry_byindex(subtree, i), let n = git_tree_entry_name(e) else { continue }
                names.insert(FiledName(name: String(cString: n), isFolder: git_tree_entry_type(e) == GIT_OBJECT_TREE))
            }
        }
        return names
    }
}
