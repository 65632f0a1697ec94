// `daybook code rename`: rename a code in the codebook and in every coding, in one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a code in the codebook and in every entry, in one commit.",
        discussion: "When NEW is already in the codebook use `code merge OLD --into NEW`. Exit 1 when OLD is neither defined nor used.")

    @Argument(help: "The code's name now.", completion: Completions.codes) var old: String
    @Argument(help: "Its new name.") var new: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let (old, new) = (try CodeCommand.name(self.old), try CodeCommand.name(self.new))
        guard old != new else { throw DaybookError.usage("the old and the new name are the same") }
        let diary = try global.openDiary()
        var book = try Codebook.load(diary)
        let defined = book.contains(old)
        if defined { try book.rename(old, to: new) }
        let change = try Change(diary)
        try change.allOrNothing("code rename \(old) \(new)")
        let titles = try CodeCommand.recode(diary, in: change) { $0 == old ? new : nil }
        guard defined || !titles.isEmpty else { throw DaybookError.nothing("daybook: no code `\(old)` in the codebook or in any entry") }
        try change.write(book)
        let summary = "\(old) → \(new) (\(CodeCommand.plural(titles.count, "entry")))"
        try change.commit("code rename: \(summary)" + (titles.isEmpty ? "" : "\n\n" + titles.joined(separator: "\n")))
        global.confirm("daybook: renamed \(summary)")
    }
}
