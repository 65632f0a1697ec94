// Committing an entry that was changed in place: by an editor, the language server's save, the web app.
import Foundation

extension Diary {
    /// The text of `rel` as HEAD has it, with its blob id; nil when HEAD has no such file (or
    /// no commit) or it is not UTF-8.
    public func committedVersion(of rel: String) -> EditBase? {
        guard let repo = try? repository(), let head = repo.headID,
              let data = (try? repo.files(at: head, under: rel))?.first(where: { $0.path == rel })?.data,
              let text = String(validatingUTF8Data: data), let blob = try? Repository.blobID(of: data) else { return nil }
        return EditBase(text: text, version: blob)
    }

    /// Commits the entry at `rel` saved by an editor that opened it as `base` (the file's text
    /// then, and the version HEAD had then), as `edit: TITLE`. The file on disk is the truth:
    /// when a commit since then (`tag add`, the web app, sync) changed the entry in a way the
    /// saved file does not hold, that change is merged back in as sync merges (front matter key
    /// by key, tags and codings as sets, the body by lines, `base` the common ancestor), the
    /// merged file written and committed; when the two collide, nothing is committed and the
    /// error says what the save would lose. Only the entry, its stroke file and its attachments
    /// are committed: other files changed outside daybook are left for the next command. With
    /// `commit` false (`lsp: {commit_on_save: false}`), the merge is written and nothing committed.
    /// With `outsideEdits` (`daybook edit`), other files changed outside daybook are committed
    /// apart first, as every command does, instead of being left.
    @discardableResult
    public func commitSave(of rel: String, base: EditBase?, commit: Bool = true, outsideEdits: Bool = false) throws -> SaveOutcome {
        let display = displayPath(rel)
        guard let data = regularFileContents(rel) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: display)) }
        guard let saved = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        let change = try Change(self, excluding: [rel], outsideEdits: outsideEdits)
        var kept: [String] = []
        var written: String?
        if let base, let head = committedVersion(of: rel), head.version != base.version, head.text != saved {
            let (merged, lost) = try EditMerge.keep(head.text, base: base.text, edited: saved, path: display)
            kept = lost
            if merged != saved {
                try change.rewrite(rel, expected: data, with: Data(merged.utf8))
                written = merged
            }
        }
        let outcome = readEntry(rel)
        guard let entry = outcome.entry else {
            throw outcome.problems.first ?? DaybookError.input("the entry cannot be read", at: SourceLocation(path: display))
        }
        guard commit else { return SaveOutcome(entry: entry, commit: nil, kept: kept, written: written, left: []) }
        change.touch(rel)
        // The entry's own files, when they changed: its strokes and its attachments.
        let own = [StrokeFile.path(ofEntry: rel), Attachments.folder(ofEntry: rel) + "/"]
        for p in change.leftPending where own.contains(where: { p.path == $0 || ($0.hasSuffix("/") && p.path.hasPrefix($0)) }) {
            change.touch(p.path)
        }
        let commit = try change.commit("edit: \(entry.title)")
        return SaveOutcome(entry: entry, commit: commit, kept: kept, written: written,
                           left: change.leftPending.map(\.path).filter { p in p != rel && !own.contains { p == $0 || ($0.hasSuffix("/") && p.hasPrefix($0)) } })
    }
}

/// A version of an entry a change was made from: its text and its git blob id.
public struct EditBase: Equatable, Sendable {
    public var text: String
    public var version: String

    public init(text: String, version: String) {
        self.text = text
        self.version = version
    }

    /// The version of these bytes (the blob id git gives them).
    public init?(text: String) {
        guard let v = try? Repository.blobID(of: Data(text.utf8)) else { return nil }
        self.init(text: text, version: v)
    }
}

/// What a save did.
public struct SaveOutcome {
    public var entry: Entry
    /// Nil when the file was as committed.
    public var commit: String?
    /// What a commit made since the entry was opened changed, which the save had not kept and
    /// which was merged back in (`tags`, `the body`); empty when nothing was.
    public var kept: [String]
    /// The merged file, when it was written (the editor's text is then behind it).
    public var written: String?
    /// Other files changed outside daybook, left uncommitted.
    public var left: [String]
}

/// The one rule for an edit made from an older version of an entry (an editor's buffer, a web
/// form): the changes made to the file since are kept.
public enum EditMerge {
    /// Merges into `edited` (made from `base`) what `current` changed since `base`. Returns the
    /// merged text and what of `current` it had to merge back in; throws, naming the file and
    /// what would be lost, when the two changed the same key or the same lines differently.
    public static func keep(_ current: String, base: String, edited: String, path: String) throws -> (text: String, kept: [String]) {
        if current == base || current == edited { return (edited, []) }
        let changed = changes(from: base, to: current)
        guard let outcome = EntryMerge.merge(base: base, ours: edited, theirs: current) else {
            throw DaybookError.input("the entry changed on disk since it was opened, and one of the versions does not read as an entry: "
                + "saving would lose the change to " + list(changed), at: SourceLocation(path: path))
        }
        guard outcome.conflicts.isEmpty else {
            let clash = outcome.conflicts.map { $0.replacingOccurrences(of: "both machines changed", with: "both changed") }
            throw DaybookError.input("the entry changed on disk since it was opened (" + list(changed) + "), and "
                + clash.joined(separator: "; ") + ": saving would lose the change on disk; take the file's text and edit again",
                at: SourceLocation(path: path))
        }
        return (outcome.text, changed)
    }

    /// What changed between two versions: the front-matter keys (`tags`, `mood`) and `the body`.
    public static func changes(from a: String, to b: String) -> [String] {
        guard let x = try? EntryText(a, path: ""), let y = try? EntryText(b, path: "") else { return ["the file"] }
        var out: [String] = []
        if let kx = KeyedMerge.keys(x), let ky = KeyedMerge.keys(y) {
            for key in kx.map(\.0) + ky.map(\.0).filter({ k in !kx.contains { $0.0 == k } })
            where KeyedMerge.lookup(kx, key) != KeyedMerge.lookup(ky, key) {
                out.append("`\(key)`")
            }
        } else if x.yaml != y.yaml {
            out.append("the front matter")
        }
        if x.body != y.body { out.append("the body") }
        return out
    }

    static func list(_ parts: [String]) -> String {
        parts.isEmpty ? "the file" : parts.joined(separator: ", ")
    }
}
