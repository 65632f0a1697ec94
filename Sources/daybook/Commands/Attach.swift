// `daybook attach`: copy files into an entry's attachment folder and link them in its body.
import ArgumentParser
import DaybookCore
import Foundation

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy files into the entry's attachment folder and link them at the end of its body.",
        discussion: "Images are linked as ![name](id/name), other files as [name](id/name), audio with its duration; with transcribe: in daybook.yml, audio gets its transcript under the link. A name already taken gets -2, -3, ….")

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
        // The core's attach (audio with its duration and transcript), as the web app's recorder uses.
        let (names, title) = try change.attach(urls, to: rel)
        try change.commit("attach: \(names.joined(separator: ", ")) to \(title)")
        global.confirm("daybook: attached \(names.joined(separator: ", ")) to \(diary.displayPath(rel))")
    }
}
