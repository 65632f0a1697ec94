// Three-way merge of one entry file: front matter key by key, the body by lines.
import Foundation

public enum EntryMerge {
    public struct Outcome: Equatable, Sendable {
        /// The merged file: ours, with every change of theirs that did not collide applied.
        public var text: String
        /// What both sides changed differently (ours kept there); empty when the merge is clean.
        public var conflicts: [String]
    }

    /// Merges two versions of an entry against their common ancestor (nil when both added it).
    /// Tags and codings merge as sets; another key changed on one side takes that side's value;
    /// body changes to different lines both apply. Nil when a side is not a readable entry.
    public static func merge(base: String?, ours: String, theirs: String) -> Outcome? {
        guard let o = try? EntryText(ours, path: ""), let t = try? EntryText(theirs, path: "") else { return nil }
        let b = base.flatMap { try? EntryText($0, path: "") }
        var merged = o
        guard let keys = KeyedMerge.merge(base: b, ours: &merged, theirs: t, rules: ["tags": .tagSet, "codes": .codingSet]) else { return nil }
        var conflicts = keys.map { "both machines changed `\($0)` differently" }
        let body = LineMerge.merge(base: EntryText.splitLines(b?.body ?? ""), ours: EntryText.splitLines(o.body),
                                   theirs: EntryText.splitLines(t.body))
        if body.conflicted { conflicts.append("both machines changed the same lines of the body") }
        merged.setBody(body.lines.joined())
        return Outcome(text: merged.text, conflicts: conflicts)
    }
}
