// `daybook ink render`: an entry's strokes as SVG.
import ArgumentParser
import DaybookCore
import Foundation

struct InkRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the entry's strokes as SVG (stdout, or -o FILE.svg).",
        discussion: """
        Pressure-sensitive outlines: wider with force, narrower as the pen tilts; highlighters are drawn \
        with multiply blending and partial opacity. The viewBox is the canvas. Exit 1 when the entry has no strokes.
        """)

    @Argument(help: "The entry.", completion: Completions.entries) var entry: String
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the SVG to this file.", valueName: "file.svg"))
    var output: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        try Ink.output(InkRenderer.svgBytes(try Ink.strokes(of: rel, in: diary)), to: output, global: global)
    }
}
