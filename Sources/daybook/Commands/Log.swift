// `daybook log`: the history of the diary or of one entry.
import ArgumentParser
import DaybookCore
import Foundation

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "History: date, author, message and the entries each change touched.")

    @Argument(help: "Only changes to this entry (it may be deleted: give its id).", completion: Completions.entries) var entry: String?
    @Option(name: .customShort("n"), help: "At most N changes.") var count: Int?
    @Flag(help: "A JSON array.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        var id: String?
        if let entry {
            let found: Result<String, Error> = Result { try EntryReference(diary).resolve(entry) }
            if case .success(let rel) = found {
                id = ((rel as NSString).lastPathComponent as NSString).deletingPathExtension
            } else if case .failure(let error as DaybookError) = found, error.location != nil {
                throw error // an entry it may name does not parse: not one of the history's
            } else if Slug.looksLikeID(entry) {
                id = try History.lastKnown(idPrefix: entry, in: diary.repository()).map { (($0.path as NSString).lastPathComponent as NSString).deletingPathExtension }
                if id == nil { throw DaybookError.input("no entry `\(entry)` in the diary or its history") }
            } else {
                _ = try EntryReference(diary).resolve(entry)
            }
        }
        let items = try History.log(diary.repository(), entryID: id, limit: count)
        if json {
            Terminal.out(JSONValue.array(items.map(\.json)).serialized(pretty: true))
        } else {
            for item in items {
                let c = item.commit
                let subject = c.message.split(separator: "\n").first.map(String.init) ?? ""
                Terminal.out("\(Terminal.accent(c.shortID)) \(Terminal.dim(c.date.description)) \(TerminalText.shown(c.author))  \(TerminalText.shown(subject))")
                for e in item.entries.prefix(10) { Terminal.out("    \(e)") }
                if item.entries.count > 10 { Terminal.out("    … and \(item.entries.count - 10) more") }
            }
        }
        if items.isEmpty { throw DaybookError.nothing("") }
    }
}
