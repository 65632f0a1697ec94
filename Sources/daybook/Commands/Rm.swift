// `daybook rm`: delete entries with their stroke files and attachments (git keeps them).
import ArgumentParser
import DaybookCore
import Foundation

struct Rm: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete entries with their stroke files and attachments, in one commit.",
        discussion: "Git keeps them: `daybook restore ID` brings one back. ENTRY `-` reads ids or paths from stdin.")

    @Argument(help: "Entries: paths, ids, id prefixes, last, a date; `-` reads them from stdin.", completion: Completions.entries)
    var entries: [String]

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        // Stdin is read before the lock is taken; the entries are found within the change, from
        // the walk it made for the outside edits (issue 19), which it has committed by then.
        let input = TextInput.entryNames(if: entries)
        let change = try Change(diary)
        let rels = try EntryReference(change).resolveMany(entries) { input }
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named") }
        // An entry goes with its strokes and attachments, many entries together, or none.
        try change.allOrNothing("rm")
        let titles = rels.map { diary.readEntry($0).entry?.title ?? (($0 as NSString).lastPathComponent) }
        for rel in rels {
            try change.remove(rel)
            try change.remove(String(rel.dropLast(3)) + ".strokes.json")
            try change.remove(Attachments.folder(ofEntry: rel))
        }
        try change.commit(rels.count == 1 ? "rm: \(titles[0])" : "rm: \(rels.count) entries\n\n" + titles.joined(separator: "\n"))
        global.confirm("daybook: removed \(rels.count == 1 ? diary.displayPath(rels[0]) : "\(rels.count) entries") (daybook restore brings \(rels.count == 1 ? "it" : "them") back)")
    }
}
