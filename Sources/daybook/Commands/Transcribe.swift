// `daybook transcribe`: the transcripts of an entry's audio attachments, by daybook.yml's transcribe: command.
import ArgumentParser
import DaybookCore
import Foundation

struct Transcribe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Transcribe the entry's audio attachments that have no transcript yet, in one commit.",
        discussion: "Runs daybook.yml's transcribe: command on each; the text goes under the file's link, marked as a transcript. Exit 1 when every audio file has one already.")

    @Argument(help: "The entry: a path, an id or its prefix, last, today, yesterday or a date.", completion: Completions.entries)
    var entry: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let change = try Change(diary)
        let rel = try EntryReference(change).resolve(entry)
        let (names, title) = try change.transcribe(rel)
        guard !names.isEmpty else { throw DaybookError.nothing("daybook: nothing to transcribe: the entry has no audio attachment without a transcript") }
        try change.commit("transcribe: \(names.joined(separator: ", ")) of \(title)")
        global.confirm("daybook: transcribed \(names.joined(separator: ", ")) in \(diary.displayPath(rel))")
    }
}
