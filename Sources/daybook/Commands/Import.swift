// `daybook import FORMAT PATH`: entries from another diary program, in one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import entries: " + Import.names.joined(separator: ", ") + ".",
        discussion: "Formats:\n" + ImportFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            + "\n  qdpx: a REFI-QDA project: codes into the codebook, codings onto the entries they quote, other text sources as new entries"
            + "\n  qdc: a REFI-QDA codebook: its codes into the codebook"
            + "\n\nAn entry with the same date and body as one in the diary is skipped and counted. "
            + "Malformed input names the record and field and imports nothing. One commit for the whole import. "
            + "qdpx and qdc print a report of what could not be placed and why.")

    /// The entry formats, then the REFI-QDA ones (which also change codings and the codebook).
    static let names = ImportFormats.names + ["qdpx", "qdc"]

    @Argument(help: ArgumentHelp("One of: " + Import.names.joined(separator: ", ") + ".", valueName: "format"),
              completion: .list(Import.names))
    var format: String
    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "path"), completion: .file())
    var path: String
    @Flag(name: .customLong("dry-run"), help: "Say what would be imported; write nothing.")
    var dryRun = false
    @Flag(help: "Stop at the first file that cannot be read (markdown skips it with a warning otherwise).")
    var strict = false
    @Flag(name: .customLong("codings-only"), help: "qdpx: place codings on the diary's entries only; make no new entries of other sources.")
    var codingsOnly = false
    @Option(name: .customLong("max-unpacked"), help: ArgumentHelp("qdpx: unpack at most this many MB (default 100).", valueName: "MB"))
    var maxUnpacked: UInt64?
    @Option(name: .customLong("max-files"), help: ArgumentHelp("qdpx: an archive of at most this many files (default 10000).", valueName: "N"))
    var maxFiles: Int?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard Import.names.contains(format.lowercased()) else {
            throw ValidationError("unknown format `\(format)`; choose one of: " + Import.names.joined(separator: ", "))
        }
        if codingsOnly && format.lowercased() != "qdpx" { throw ValidationError("--codings-only is for qdpx") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw DaybookError.io("no such file or folder", at: SourceLocation(path: path))
        }
        if ["qdpx", "qdc"].contains(format.lowercased()) { return try importREFI(url, diary: diary) }
        guard let type = ImportFormats.named(format) else { return }
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

    /// `import qdpx|qdc`: plan, report, and (without --dry-run) one commit.
    private func importREFI(_ url: URL, diary: Diary) throws {
        let name = format.lowercased()
        let reading = ProgressBar("reading \(url.lastPathComponent)")
        let plan: REFIImport
        do {
            defer { reading.finish() }
            plan = name == "qdc" ? try REFIImport.plan(qdc: url, displayPath: path, diary: diary)
                : try REFIImport.plan(qdpx: url, displayPath: path, diary: diary, codingsOnly: codingsOnly, limits: limits)
        }
        for n in plan.notes { Terminal.out("note: " + n) }
        for u in plan.unplaced { Terminal.out("not placed: " + u) }
        let already = plan.existing == 0 ? "" : "; \(plan.existing) coding\(plan.existing == 1 ? "" : "s") already in the diary"
        let left = plan.unplaced.isEmpty ? "" : "; \(plan.unplaced.count) not placed (listed above)"
        if dryRun {
            for (path, title, apps) in plan.edits {
                for a in apps { Terminal.out("\(diary.displayPath(path))  \(a.summary(title: title))") }
            }
            for n in plan.newEntries { Terminal.out("new entry: \(n.draft.date)  \(n.draft.displayTitle)  (\(n.codings.count) codings)") }
            global.confirm("daybook: would import \(plan.summary) from \(name)\(already)\(left)")
            if !plan.unplaced.isEmpty { throw ExitCode(1) }
            return
        }
        let paths = try plan.run(diary: diary, format: name, file: url.lastPathComponent)
        if paths.isEmpty && !plan.bookChanged {
            global.confirm("daybook: nothing new to import from \(name)\(already)\(left)")
        } else {
            for p in paths { Terminal.out(diary.displayPath(p)) }
            global.confirm("daybook: imported \(plan.summary) from \(name)\(already)\(left)")
        }
        // What could not be placed is listed above; a script must notice it too.
        if !plan.unplaced.isEmpty { throw ExitCode(1) }
    }

    private var limits: REFIArchive.Limits {
        var l = REFIArchive.Limits()
        if let maxUnpacked { l.bytes = maxUnpacked * 1_048_576 }
        if let maxFiles { l.files = maxFiles }
        return l
    }

    private func count(_ n: Int) -> String { "\(n) entr\(n == 1 ? "y" : "ies")" }
}
