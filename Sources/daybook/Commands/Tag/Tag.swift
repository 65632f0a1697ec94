// `daybook tag`: the group of tag subcommands, and what they share.
import ArgumentParser
import DaybookCore
import Foundation

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add, remove, list and rename tags.",
        discussion: "Tags are letters, digits, _, - and /; `/` nests (`project` finds `project/alpha`). They compare case-insensitively and are written in lowercase.",
        subcommands: [TagAdd.self, TagRm.self, TagLs.self, TagRename.self])

    /// Tags from the command line, normalized; a usage error names the first that is not a tag.
    static func tags(from raw: [String]) throws -> [String] {
        try raw.map { r in
            let t = Tag.normalize(r)
            guard Tag.isValid(t) else { throw DaybookError.usage("`\(r)` is not a tag: use letters, digits, _, - and / (not at either end)") }
            return t
        }
    }

    /// `tag add` and `tag rm`: applies `edit` to the front-matter tags of every entry ENTRY names,
    /// in one commit. `edit` gets the tags, the entry and its path as shown, and returns the tags it
    /// changed; `sign` and `verb` word the messages.
    static func change(_ entryArgument: String, tags: [String], global: GlobalOptions, sign: String, verb: String,
                       nothing: (_ many: Bool) -> String,
                       _ edit: (inout TagLines, Entry, String) -> [String]) throws {
        let diary = try global.openDiary()
        // Stdin is read before the lock is taken; the entries are found within the change, from
        // the walk it made for the outside edits (issue 19), which it has committed by then.
        let input = TextInput.entryNames(if: [entryArgument])
        let change = try Change(diary)
        let rels = try EntryReference(change).resolveMany([entryArgument]) { input }
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named on stdin") }
        if rels.count > 1 { try change.allOrNothing(sign == "+" ? "tag add" : "tag rm") }
        var titles: [String] = []
        var changed = Set<String>()
        for rel in rels {
            do {
                try change.editEntry(rel) { text, entry in
                    var lines = TagLines(text)
                    let done = edit(&lines, entry, diary.displayPath(rel))
                    if !done.isEmpty { titles.append(entry.title); changed.formUnion(done) }
                    text = lines.text
                }
            } catch let e as DaybookError where rels.count > 1 && e.kind == .input {
                // One unreadable entry of many is skipped, so it does not hold up the others.
                Terminal.warning(Diagnostic(e))
            }
        }
        guard !titles.isEmpty else { throw DaybookError.nothing("daybook: nothing to change: " + nothing(rels.count > 1)) }
        let list = tags.filter(changed.contains).map { sign + $0 }.joined(separator: " ")
        let summary = titles.count == 1 ? "\(list) on \(titles[0])" : "\(list) on \(titles.count) entries"
        try change.commit("tag: " + summary + (titles.count > 1 ? "\n\n" + titles.joined(separator: "\n") : ""))
        global.confirm("daybook: \(verb) \(summary)")
    }
}
