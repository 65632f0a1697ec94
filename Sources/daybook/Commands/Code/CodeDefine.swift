// `daybook code define`: add a code to the codebook or change it.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeDefine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "define",
        abstract: "Add a code to the codebook, or change its category, description or colour.",
        discussion: "A missing parent is added at the top level. An empty --description or --color removes it. Exit 1 when nothing changes.")

    @Argument(help: "The code.", completion: Completions.codes) var code: String
    @Option(help: ArgumentHelp("Its category (moves it there).", valueName: "code"), completion: Completions.codes) var parent: String?
    @Option(help: ArgumentHelp("What the code means.", valueName: "text")) var description: String?
    @Option(help: ArgumentHelp("#RRGGBB or #RRGGBBAA, for highlights in exports.", valueName: "hex")) var color: String?
    // `--color` is the code's colour here, so the global options are taken one by one.
    @Option(help: ArgumentHelp("The diary folder (else $DAYBOOK_DIR, the nearest folder with a daybook.yml, ~/daybook).", valueName: "path"))
    var diary: String?
    @Flag(name: .shortAndLong, help: "No confirmation on stderr.") var quiet = false

    var global: GlobalOptions {
        get throws { try GlobalOptions.parse((diary.map { ["--diary", $0] } ?? []) + (quiet ? ["-q"] : [])) }
    }

    func run() throws {
        let code = try CodeCommand.name(self.code)
        let parent = try self.parent.map(CodeCommand.name)
        let global = try self.global
        let diary = try global.openDiary()
        let (existed, place) = try diary.defineCode(code, parent: parent, description: description, color: color)
        global.confirm("daybook: \(existed ? "changed" : "defined") \(code)\(place) in \(diary.displayPath(Codebook.fileName))")
        // Said here, once, when the colour is chosen; the pages then underline in the darker shade without a word.
        if let color, let warning = CodeColorContrast.diagnostic(code: code, color: color, in: diary) { Terminal.warning(warning) }
    }
}
