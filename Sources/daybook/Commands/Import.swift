// `daybook import FORMAT PATH`: entries from another diary program, in one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import entries: " + ImportFormats.names.joined(separator: ", ") + ".",
        discussion: "Formats:\n" + ImportFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            + "\n\nAn entry with the same date and body as one in the diary is skipped and counted. "
            + "Malformed input names the record and field and imports nothing. One commit for the whole import.")

    @Argument(help: ArgumentHelp("One of: " + ImportFormats.names.joined(separator: ", ") + ".", valueName: "format"),
              completion: .list(ImportFormats.names))
    var format: String
    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "path"), completion: .file())
    var path: String
    @Flag(name: .customLong("dry-run"), help: "Say what would be imported; write nothing.")
    var dryRun = false
    @Flag(help: "Stop at the first file that cannot be read (markdown skips it with a warning otherwise).")
    var strict = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard ImportFormats.named(format) != nil else {
            throw ValidationError("unknown format `\(format)`; choose one of: " + ImportFormats.names.joined(separator: ", "))
        }
    }

    func run() throws {
        let diary = try global.openDiary()
        guard let type = ImportFormats.named(format) else { return }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw DaybookError.io("no such file or folder", at: SourceLocation(path: path))
        }
        // A bar for each stage that takes time at thousands of records: reading the input,
        // looking for records already in the diary, writing (issue 13 item 9).
        let reading = ProgressBar("reading \(url.lastPathComponent)")
        let batch: ImportBatch
        do {
            defer { reading.finish() }
            batch = try type.init().read(url, diary: diary, reading: ImportReading(strict: strict, progress: reading.update))
        }
        Terminal.warnings(batch.warnings)
        let checking = ProgressBar("checking against the diary")
        let plan = Importer.plan(batch, diary: diary, progress: checking.update)
        checking.finish()
        let skipped = plan.duplicates == 0 ? "" : ", \(plan.duplicates) already in the diary skipped"
        if dryRun {
            for item in plan.entries {
                Terminal.out("\(item.draft.date)  \(item.draft.displayTitle)  (\(item.record))")
            }
            global.confirm("daybook: would import \(count(plan.entries.count)) from \(type.name)\(skipped)")
            return
        }
        // Everything already there is a successful import (running it twice is safe), not an error.
        guard !plan.entries.isEmpty else {
            return global.confirm("daybook: nothing new to import from \(type.name)\(skipped)")
        }
        let bar = ProgressBar("import \(type.name)")
        let paths = try Importer.run(plan, diary: diary, format: type.name, progress: bar.update)
        bar.finish()
        for p in paths { Terminal.out(diary.displayPath(p)) }
        global.confirm("daybook: imported \(count(paths.count)) from \(type.name)\(skipped)")
    }

    private func count(_ n: Int) -> String { "\(n) entr\(n == 1 ? "y" : "ies")" }
}
