// `daybook code merge`: fold codes into one, in the codebook and in every coding, in one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge codes into one, in the codebook and in every entry, in one commit.",
        discussion: """
        The merged codes leave the codebook and their children move under the target. A target not \
        defined yet takes the place (and description) of the first defined code merged. An entry that \
        ends up with the same coding twice keeps it once. Exit 1 when none of the codes is defined or used.
        """)

    @Argument(help: "Codes to merge.", completion: Completions.codes) var codes: [String]
    @Option(help: ArgumentHelp("The code they become.", valueName: "code"), completion: Completions.codes) var into: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let target = try CodeCommand.name(into)
        let sources = try codes.map(CodeCommand.name).filter { $0 != target }
        guard !sources.isEmpty else { throw DaybookError.usage("name the codes to merge into \(target)") }
        let diary = try global.openDiary()
        // The rule is the core's (CodeRenaming.merge), which the web app's code page uses too.
        let (summary, warnings) = try CodeRenaming.merge(sources, into: target, in: diary)
        Terminal.warnings(warnings)
        global.confirm("daybook: merged \(summary)")
    }
}
