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
        let (summary, warnings) = try CodeRenaming.rename(old, to: new, in: diary)
        Terminal.warnings(warnings)
        global.confirm("daybook: renamed \(summary)")
    }
}
