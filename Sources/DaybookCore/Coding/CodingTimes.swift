// When each coding was made: its `coded:` time, else the commit that added it, else its entry's date.
import Foundation

public enum CodingTimes {
    /// The times of the front-matter codings that carry no `coded:` (written before daybook kept
    /// it): for each entry path, coding index → the time of the commit that added the coding.
    /// `entries` gives each entry's path in the diary and its codings as the file has them now.
    /// History is walked once, newest first, and only until every such coding is placed: a commit
    /// that changed a waiting entry is compared with its parent's version of the file, and a
    /// coding the parent lacks (same code, quote, occurrence and coder; the memo aside) was added
    /// by it. A coding that no commit added (the file is not committed yet) is left out: callers
    /// take the entry's date.
    public static func fromHistory(_ entries: [(path: String, codings: [Coding])], diary: Diary) -> [String: [Int: LocalDateTime]] {
        var pending: [String: [(index: Int, key: [String?])]] = [:]
        for (path, codings) in entries {
            let waiting = codings.enumerated().filter { $0.element.coded == nil && $0.element.source == .frontMatter }
            if !waiting.isEmpty { pending[path] = waiting.map { ($0.offset, key($0.element)) } }
        }
        var out: [String: [Int: LocalDateTime]] = [:]
        var seen = Set<String>()
        guard !pending.isEmpty, let repo = try? diary.repository() else { return out }
        try? repo.walk { commit in
            for path in try repo.changedPaths(commit.id) {
                guard var waiting = pending[path] else { continue }
                // The newest commit that changed the file holds the version committed last: a
                // coding it lacks was written after it, and no commit dates it.
                if seen.insert(path).inserted {
                    var now = try codings(of: path, at: commit.id, in: repo)
                    waiting = waiting.filter { w in
                        guard let n = now[w.key], n > 0 else { return false }
                        now[w.key] = n - 1
                        return true
                    }
                }
                // The parent's codings of this file, as a multiset of keys.
                var before = try commit.parentIDs.first.map { try codings(of: path, at: $0, in: repo) } ?? [:]
                var still: [(index: Int, key: [String?])] = []
                for w in waiting {
                    if let n = before[w.key], n > 0 {
                        before[w.key] = n - 1
                        still.append(w)
                    } else {
                        out[path, default: [:]][w.index] = commit.date
                    }
                }
                pending[path] = still.isEmpty ? nil : still
            }
            return !pending.isEmpty
        }
        return out
    }

    /// The front-matter codings of an entry file in a commit, as a multiset of keys (none when the
    /// file is not there or does not read).
    static func codings(of path: String, at commit: String, in repo: Repository) throws -> [[String?]: Int] {
        var out: [[String?]: Int] = [:]
        if let file = try repo.files(at: commit, under: path).first, let text = String(validatingUTF8Data: file.data),
           let entryText = try? EntryText(text, path: path) {
            for c in CodingLines(entryText).codings { out[key(c), default: 0] += 1 }
        }
        return out
    }

    static func key(_ c: Coding) -> [String?] { [c.code, c.quote, String(c.occurrence ?? 1), c.coder] }
}
