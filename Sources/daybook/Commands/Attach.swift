// `daybook attach`: copy files into an entry's attachment folder and link them in its body.
import ArgumentParser
import DaybookCore
import Foundation

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy files into the entry's attachment folder and link them at the end of its body.",
        discussion: "Images are linked as ![name](id/name), other files as [name](id/name). A name already taken gets -2, -3, ….")

    @Argument(help: "The entry.", completion: Completions.entries) var entry: String
    @Argument(help: "Files to attach.") var files: [String]

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let urls = files.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL }
        guard !urls.isEmpty else { throw DaybookError.usage("name at least one file to attach") }
        let change = try Change(diary)
        // Found within the change, from the walk it made for the outside edits (issue 19).
        let rel = try EntryReference(change).resolve(entry)
        let before = FileManager.default.contents(atPath: diary.url(rel).path) ?? Data()
        guard let text = String(validatingUTF8Data: before) else { throw EntryParser.utf8Error(before, path: diary.displayPath(rel)) }
        var doc = try EntryText(text, path: diary.displayPath(rel))
        let names = try Attachments.copy(urls, entryPath: rel, in: change)
        let id = ((rel as NSString).lastPathComponent as NSString).deletingPathExtension
        doc.setBody(Attachments.appendLinks(names, id: id, to: doc.body))
        try change.rewrite(rel, expected: before, with: Data(doc.text.utf8))
        let title = diary.readEntry(rel).entry?.title ?? id
        try change.commit("attach: \(names.joined(separator: ", ")) to \(title)")
        global.confirm("daybook: attached \(names.joined(separator: ", ")) to \(diary.displayPath(rel))")
    }
}
