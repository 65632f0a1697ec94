// The diary's history in its own words: which entries each commit touched, undo and restore.
import Foundation

public struct HistoryItem: Sendable {
    public var commit: CommitInfo
    /// Ids of the entries the commit touched (entry file, stroke file or attachments).
    public var entries: [String]

    public var json: JSONValue {
        .object([("commit", .string(commit.id)), ("date", .string(commit.date.description)),
                 ("author", .string(commit.author)), ("message", .string(commit.message.trimmingCharacters(in: .whitespacesAndNewlines))),
                 ("entries", .array(entries.map(JSONValue.string)))])
    }
}

public enum History {
    /// The entry id a path in the diary belongs to, if any.
    public static func entryID(ofPath path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 4, parts[0] == "entries" else { return nil }
        var name = String(parts[3])
        if parts.count == 4 {
            for suffix in [".strokes.json", ".md"] where name.hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
                if let r = name.range(of: ".conflict-") { name = String(name[..<r.lowerBound]) }
                return name
            }
            return nil
        }
        return name
    }

    /// Commits newest first, with the entries each touched; only those touching `entryID` when
    /// given; at most `limit`.
    public static func log(_ repo: Repository, entryID wanted: String? = nil, limit: Int? = nil) throws -> [HistoryItem] {
        var out: [HistoryItem] = []
        try repo.walk { commit in
            let paths = try repo.changedPaths(commit.id)
            var ids: [String] = []
            for p in paths { if let id = entryID(ofPath: p), !ids.contains(id) { ids.append(id) } }
            if wanted == nil || ids.contains(wanted!) { out.append(HistoryItem(commit: commit, entries: ids)) }
            return limit.map { out.count < $0 } ?? true
        }
        return out
    }

    /// Puts back, in the working tree, the state before the most recent commit for every path it
    /// changed. Returns that commit and the paths written or removed.
    public static func undo(in change: Change) throws -> (CommitInfo, [String]) {
        let repo = change.repository
        let head = try repo.resolve("HEAD")
        guard let parent = head.parentIDs.first else { throw DaybookError.nothing("daybook: nothing to undo: the diary has only its first commit") }
        // Undoing it would only drop the purge record, and other machines would bring the entry back.
        if try !repo.files(at: parent, under: PurgeRecord.path).elementsEqual(repo.files(at: head.id, under: PurgeRecord.path), by: { $0.data == $1.data }) {
            throw DaybookError.input("the last change is a purge (or changed its record, \(PurgeRecord.path)): a purge cannot be undone (man daybook-purge)")
        }
        let paths = try repo.changedPaths(head.id)
        for path in paths {
            let old = try repo.files(at: parent, under: path)
            if let file = old.first(where: { $0.path == path }) {
                try change.write(file.data, to: path)
            } else {
                try change.remove(path)
            }
        }
        return (head, paths)
    }

    /// The most recent commit at or before `when` (local wall time).
    public static func commit(atOrBefore wall: Int, in repo: Repository) throws -> CommitInfo? {
        var found: CommitInfo?
        try repo.walk { c in
            // Like entries, a commit is placed by its own local time.
            if c.date.wallSeconds <= wall {
                found = c
                return false
            }
            return true
        }
        return found
    }

    /// Where an entry id was last seen in history: its path and the newest commit that held it.
    public static func lastKnown(idPrefix: String, in repo: Repository) throws -> (path: String, commit: String)? {
        var result: (String, String)?
        try repo.walk { c in
            for p in try repo.changedPaths(c.id) where Diary.isEntryPath(p) {
                let id = ((p as NSString).lastPathComponent as NSString).deletingPathExtension
                guard id.hasPrefix(idPrefix) else { continue }
                // The file is in this commit, or (if the commit deleted it) in its parent.
                if try !repo.files(at: c.id, under: p).isEmpty { result = (p, c.id) }
                else if let parent = c.parentIDs.first { result = (p, parent) }
                return false
            }
            return true
        }
        return result
    }

    /// Writes back an entry file, its stroke file and its attachments as they were in `commit`.
    public static func restore(entryPath rel: String, from commit: String, in change: Change) throws -> Bool {
        let repo = change.repository
        let files = try repo.files(at: commit, under: rel)
        guard let entry = files.first else { return false }
        try change.write(entry.data, to: rel)
        let strokes = String(rel.dropLast(3)) + ".strokes.json"
        for f in try repo.files(at: commit, under: strokes) { try change.write(f.data, to: f.path) }
        for f in try repo.files(at: commit, under: Attachments.folder(ofEntry: rel)) { try change.write(f.data, to: f.path) }
        return true
    }
}
