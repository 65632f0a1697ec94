// `daybook star` and `daybook unstar`: mark entries as favourites (`starred: true`) or not.
import ArgumentParser
import DaybookCore
import Foundation

struct Star: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Star entries (starred: true), in one commit; `ls --starred` lists them.",
        discussion: "Only the `starred:` line of each file changes. Exit 1 when every entry is starred already.")

    @Argument(help: "Entries: paths, ids, id prefixes, last, a date; `-` reads them from stdin.", completion: Completions.entries)
    var entries: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws { try Star.mark(entries, on: true, global: global) }

    /// `star` and `unstar`: one commit for all the entries named; exit 1 when none changed.
    static func mark(_ entries: [String], on: Bool, global: GlobalOptions) throws {
        let verb = on ? "star" : "unstar"
        let diary = try global.openDiary()
        // Stdin is read before the lock is taken, as `rm` does.
        let input = TextInput.entryNames(if: entries)
        let change = try Change(diary)
        let rels = try EntryReference(change).resolveMany(entries) { input }
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named") }
        if rels.count > 1 { try change.allOrNothing(verb) }
        var titles: [String] = []
        for rel in rels {
            if let title = try change.setStarred(rel, on) { titles.append(title) }
        }
        guard !titles.isEmpty else {
            throw DaybookError.nothing("daybook: nothing to change: \(rels.count == 1 ? "the entry is" : "every entry is") \(on ? "starred" : "not starred") already")
        }
        try change.commit(titles.count == 1 ? "\(verb): \(titles[0])" : "\(verb): \(titles.count) entries\n\n" + titles.joined(separator: "\n"))
        global.confirm("daybook: \(on ? "starred" : "unstarred") \(titles.count == 1 ? titles[0] : "\(titles.count) entries")")
    }
}

struct Unstar: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unstar entries (the starred: key goes), in one commit.",
        discussion: "Exit 1 when no entry named is starred.")

    @Argument(help: "Entries: paths, ids, id prefixes, last, a date; `-` reads them from stdin.", completion: Completions.entries)
    var entries: [String]
    @OptionGroup var global: GlobalOptions

    func run() throws { try Star.mark(entries, on: false, global: global) }
}
