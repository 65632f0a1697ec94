// A sync merge decided path by path: which files change, which are merged, which get conflict copies.
import Foundation

/// The three-way merge of two versions of the diary. Pure: it works on maps from paths to blob ids
/// and loads the contents it needs, so it can be tested without a repository.
public struct TreeMerge {
    public struct Conflict: Equatable, Sendable {
        /// The file that kept this machine's version.
        public var path: String
        /// Where the other machine's version was saved.
        public var copy: String
        public var reason: String
    }

    /// New contents of a file: a blob of the remote history (read when written, so a large
    /// merge does not hold every file in memory), or merged bytes.
    public enum Content: Equatable, Sendable {
        case blob(String)
        case data(Data)
    }

    /// What changes against ours, in path order: contents to write, or nil to remove the file.
    public private(set) var changes: [(path: String, content: Content?)] = []
    public private(set) var conflicts: [Conflict] = []
    /// Entries both sides added under the same id: theirs moved to a new id (old path → new path).
    public private(set) var renamed: [(from: String, to: String)] = []

    /// `remoteHash` (the short hash of the remote commit) names the conflict copies.
    public init(base: [String: String], ours: [String: String], theirs: [String: String], remoteHash: String,
                load: (String) throws -> Data) throws {
        let all = Set(base.keys).union(ours.keys).union(theirs.keys)
        // Entries one side deleted and the other edited survive with their stroke files and
        // attachments; entries both sides added under one id keep both, theirs under a new id.
        var survivors = Set<String>(), newStems: [String: String] = [:]
        for p in all.sorted() where Diary.isEntryPath(p) {
            let b = base[p], o = ours[p], t = theirs[p]
            guard o != t, b != t, b != o else { continue }
            let stem = String(p.dropLast(3))
            if b == nil, o != nil, t != nil {
                var n = 2
                while all.contains("\(stem)-\(n).md") || newStems.values.contains("\(stem)-\(n)") { n += 1 }
                newStems[stem] = "\(stem)-\(n)"
                renamed.append((p, "\(stem)-\(n).md"))
            } else if o == nil || t == nil {
                survivors.insert(stem)
            }
        }
        for p in all.sorted() {
            let b = base[p], o = ours[p], t = theirs[p]
            let stem = TreeMerge.entryStem(of: p)
            if o == nil, let b, t == b, let stem, survivors.contains(stem) { changes.append((p, .blob(b))); continue }
            if o == t || b == t { continue }
            if let stem, let newStem = newStems[stem], b == nil, let t {
                var content = Content.blob(t)
                if p == stem + ".md", let text = String(validatingUTF8Data: try load(t)) {
                    // Links to its attachments follow the entry to its new id.
                    let id = TreeMerge.name(stem), newID = TreeMerge.name(newStem)
                    content = .data(Data(text.replacingOccurrences(of: "](\(id)/", with: "](\(newID)/").utf8))
                }
                changes.append((newStem + p.dropFirst(stem.count), content))
                continue
            }
            if b == o {
                if t == nil, let stem, survivors.contains(stem) { continue }
                changes.append((p, t.map(Content.blob)))
                continue
            }
            // Both sides changed the file, differently. A deletion loses to an edit.
            guard let o else { changes.append((p, t.map(Content.blob))); continue }
            guard let t else { continue }
            try merge(p, base: b.map(load), ours: load(o), theirs: load(t), remoteHash: remoteHash)
        }
    }

    private mutating func merge(_ p: String, base: Data?, ours: Data, theirs: Data, remoteHash: String) {
        let b = base.flatMap { String(validatingUTF8Data: $0) }
        if let o = String(validatingUTF8Data: ours), let t = String(validatingUTF8Data: theirs), base == nil || b != nil {
            var merged: (text: String, conflicts: [String])?
            if Diary.isEntryPath(p) {
                merged = EntryMerge.merge(base: b, ours: o, theirs: t).map { ($0.text, $0.conflicts) }
            } else if p.hasSuffix(".strokes.json") {
                merged = StrokeMerge.merge(base: b, ours: o, theirs: t).map { ($0, []) }
            } else if p == "daybook.yml" || p == "codebook.yml" || p == PurgeRecord.path || p == Recipients.file {
                merged = KeyedMerge.mergeDocument(base: b, ours: o, theirs: t)
                    .map { ($0.text, $0.conflicts.map { "both machines changed `\($0)` differently" }) }
            }
            if let merged {
                if merged.text != o { changes.append((p, .data(Data(merged.text.utf8)))) }
                if !merged.conflicts.isEmpty { keepBoth(p, theirs, remoteHash, merged.conflicts.joined(separator: "; ")) }
                return
            }
        }
        keepBoth(p, theirs, remoteHash, "both machines changed the file differently")
    }

    private mutating func keepBoth(_ p: String, _ theirs: Data, _ hash: String, _ reason: String) {
        let copy = TreeMerge.conflictCopyPath(p, hash: hash)
        changes.append((copy, .data(theirs)))
        conflicts.append(Conflict(path: p, copy: copy, reason: reason))
    }

    /// `<id>.conflict-<hash>.md` beside `<id>.md`; the same pattern for any other file.
    public static func conflictCopyPath(_ p: String, hash: String) -> String {
        let slash = p.lastIndex(of: "/").map { p.index(after: $0) } ?? p.startIndex
        let dir = p[..<slash], file = p[slash...]
        var ext = ""
        if file.hasSuffix(".strokes.json") { ext = ".strokes.json" }
        else if let dot = file.lastIndex(of: "."), dot != file.startIndex { ext = String(file[dot...]) }
        return dir + file.dropLast(ext.count) + ".conflict-" + hash + ext
    }

    /// The entry a path belongs to (`entries/YYYY/MM/<id>`): its file, stroke file or attachments.
    static func entryStem(of p: String) -> String? {
        let parts = p.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0] == "entries", !parts[3].contains(".conflict-") else { return nil }
        var name = String(parts[3])
        if parts.count == 4 {
            guard let suffix = [".strokes.json", ".md"].first(where: name.hasSuffix) else { return nil }
            name.removeLast(suffix.count)
        }
        return parts[0...2].joined(separator: "/") + "/" + name
    }

    static func name(_ stem: String) -> String { String(stem.split(separator: "/").last ?? "") }
}
