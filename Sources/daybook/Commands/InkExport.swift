// `daybook ink export`: an entry's strokes as W3C InkML.
import ArgumentParser
import DaybookCore
import Foundation

enum InkExportFormat: String, ExpressibleByArgument, CaseIterable {
    case inkml
}

struct InkExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the entry's strokes as InkML (stdout, or -o FILE), which `ink add` reads back.",
        discussion: "Tool, colour, width and code become brush properties; each stroke's start a timestamp. Exit 1 when the entry has no strokes.")

    @Argument(help: "The entry.", completion: Completions.entries) var entry: String
    @Option(help: "The format: inkml.") var format: InkExportFormat
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file.", valueName: "file"))
    var output: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        try Ink.output(Array(InkMLWriter.text(try Ink.strokes(of: rel, in: diary)).utf8), to: output, global: global)
    }
}
