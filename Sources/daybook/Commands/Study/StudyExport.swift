// `daybook study export qdpx`: one REFI-QDA project, each participant a Case with their attributes.
import ArgumentParser
import DaybookCore
import Foundation

struct StudyExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the participants' entries as one REFI-QDA project (qdpx): each participant a Case, their attributes Variables.",
        discussion: "Sources, codes and codings as `daybook export qdpx` writes them; entry ids become <participant>/<id>. See `man daybook-study`.")

    @Argument(help: ArgumentHelp("The format: qdpx.", valueName: "format")) var format: String
    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (FILE.qdpx).", valueName: "path")) var output: String
    @OptionGroup var filters: FilterOptions
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if format != QDPXExport.name { throw ValidationError("study export writes qdpx (got `\(format)`)") }
    }

    func run() throws {
        var diaries = try StudyDiaries(options, global)
        let parts = diaries.map { p, diary in Study.ExportPart(participant: p, diary: diary, entries: try filters.entries(of: diary, bodies: true)) }.map(\.value)
        let url = Diary.absolute(output, global.workingDirectory)
        let bar = ProgressBar("exporting")
        let warnings = try diaries.study.exportQDPX(parts, to: url, workingDirectory: global.workingDirectory, progress: bar.update)
        bar.finish()
        Terminal.warnings(warnings)
        let n = parts.map(\.entries.count).reduce(0, +)
        global.confirm("daybook: exported \(n) entr\(n == 1 ? "y" : "ies") of \(parts.count) participant\(parts.count == 1 ? "" : "s") to \(output)")
        try diaries.finish()
    }
}
