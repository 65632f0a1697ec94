// `daybook export FORMAT`: the filtered entries in one of the registry's formats.
import ArgumentParser
import DaybookCore
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export entries: " + ExportFormats.names.joined(separator: ", ") + ".",
        discussion: "Formats:\n" + ExportFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            + "\n\nStreams go to stdout without -o. Every format takes the FILTERS; exit status 1 when no entry matches, "
            + "and when an entry that does not parse had to be left out (zip keeps such files as they are).")

    @Argument(help: ArgumentHelp("One of: " + ExportFormats.names.joined(separator: ", ") + ".", valueName: "format"),
              completion: .list(ExportFormats.names))
    var format: String
    @OptionGroup var filters: FilterOptions
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write here (a file; a folder for html) instead of stdout.", valueName: "path"))
    var output: String?
    @Flag(help: "csv: one row per coding (entry, date, title, code, category, quote, memo, coder).")
    var codings = false
    @Flag(name: .customLong("single-file"), help: "html: everything in one page (to stdout without -o).")
    var singleFile = false
    @Flag(name: .customLong("unsafe-html"), help: "html: pass raw HTML of entries through instead of escaping it.")
    var unsafeHTML = false
    @Option(help: ArgumentHelp("pdf: the page size: a4 (default) or letter.", valueName: "size"), completion: .list(Paper.allCases.map(\.rawValue)))
    var paper: String?
    @Flag(help: "pdf: entries one after another instead of each on a new page.")
    var flow = false
    @Option(help: ArgumentHelp("Replace names with pseudonyms and leave out fields as FILE.yml says (names:, fields:); attachments are left out.", valueName: "file.yml"),
            completion: .file(extensions: ["yml", "yaml"]))
    var redact: String?
    @Flag(name: .customLong("skip-invalid"), help: "Leave out entries that do not parse without failing (exit 0; they are still named).")
    var skipInvalid = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard let type = ExportFormats.named(format) else {
            throw ValidationError("unknown format `\(format)`; choose one of: " + ExportFormats.names.joined(separator: ", "))
        }
        if codings && type != CSVExport.self { throw ValidationError("--codings goes with csv") }
        if (singleFile || unsafeHTML) && type != HTMLExport.self && type != ZipExport.self {
            throw ValidationError("--single-file and --unsafe-html go with html")
        }
        if (paper != nil || flow) && type != PDFExport.self { throw ValidationError("--paper and --flow go with pdf") }
        if let paper, Paper(rawValue: paper.lowercased()) == nil {
            throw ValidationError("unknown paper `\(paper)`; choose one of: " + Paper.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let needsPath = type.destination == .file || (type.destination == .folder && !singleFile)
        if needsPath && output == nil { throw ValidationError("\(type.name) writes \(type.destination == .file ? "a file" : "a folder"): name it with -o PATH") }
    }

    func run() throws {
        let diary = try global.openDiary()
        guard let type = ExportFormats.named(format) else { return }
        // Metadata from the cache; formats read one body at a time, so memory stays bounded.
        var (entries, unparsed) = try filters.entriesAndUnparsed(of: diary, bodies: false)
        // qdc is the codebook: it needs no entry.
        guard !entries.isEmpty || type == QDCExport.self || (type == ZipExport.self && !unparsed.isEmpty) else {
            throw DaybookError.nothing("daybook: no entries match; nothing exported")
        }
        // Redacted, each entry file is read, redacted and parsed again before any format sees it.
        var redaction = try redact.map { path in
            try Redaction.load(URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL, displayPath: path)
        }
        var sources: [String: String] = [:]
        if var r = redaction {
            defer { redaction = r }
            let withAttachments = entries.filter { !Attachments.files(ofEntry: $0.path, in: diary).isEmpty }.count
            let redacted = r.entries(entries, diary: diary)
            Terminal.warnings(redacted.problems.map { Diagnostic($0) })
            entries = redacted.entries
            sources = redacted.sources
            if withAttachments > 0 {
                Terminal.message("daybook: the attachments of \(withAttachments) entr\(withAttachments == 1 ? "y are" : "ies are") left out: files cannot be redacted")
            }
        }
        var options = ExportOptions()
        options.codings = codings
        options.singleFile = singleFile
        options.unsafeHTML = unsafeHTML
        options.paper = paper.flatMap { Paper(rawValue: $0.lowercased()) } ?? .a4
        options.flow = flow
        let bar = ProgressBar("export \(type.name)")
        let context = ExportContext(diary: diary, options: options, progress: bar.update)
        context.bodiesLoaded = redaction != nil
        context.redaction = redaction
        context.sources = sources
        context.unparsed = unparsed.map(\.path)
        context.wholeDiary = filters.filter.passesEverything
        let target = output.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL }
        let isStream = type.destination == .stream || (type.destination == .folder && singleFile)
        defer { bar.finish() }
        if let redaction {
            try exportChecked(type, entries, context: context, redaction: redaction, target: target, isStream: isStream)
        } else {
            let sink: TextSink? = isStream ? try target.map { try FileSink($0) } ?? StandardOutput() : nil
            if let sink {
                try type.init().export(entries, context: context, to: .stream(sink))
                try sink.finish()
            } else if let target {
                try type.init().export(entries, context: context, to: .path(target))
            }
        }
        bar.finish()
        // Hundreds of orphaned quotes would bury the confirmation: the first few, then a count.
        Terminal.warnings(Array(context.warnings.prefix(10)))
        if context.warnings.count > 10 {
            Terminal.message("daybook: warning: \(context.warnings.count - 10) more like these (daybook check lists them all)")
        }
        if let target {
            global.confirm("daybook: exported \(entries.count) entr\(entries.count == 1 ? "y" : "ies") as \(type.name) to \(Diary.displayPath(target, relativeTo: global.workingDirectory))")
        }
        // Never silently shorter: each entry left out is named, and the export fails unless asked not to.
        let kept = type == ZipExport.self && redaction == nil ? Set(unparsed.map(\.path)) : []
        if !kept.isEmpty {
            Terminal.message("daybook: \(kept.count) entr\(kept.count == 1 ? "y" : "ies") that do\(kept.count == 1 ? "es" : "") not parse went in as the files are")
        }
        var leftOut = unparsed.filter { !kept.contains($0.path) }.map { ($0.path, $0.problems.first) }
        leftOut += context.leftOut.filter { p in !leftOut.contains { $0.0 == p } }.map { ($0, nil) }
        guard !leftOut.isEmpty else { return }
        Terminal.message("daybook: \(skipInvalid ? "warning" : "error"): left out \(leftOut.count) entr\(leftOut.count == 1 ? "y" : "ies") that could not be exported:")
        for (path, problem) in leftOut {
            Terminal.message("  " + (problem.map { $0.description } ?? diary.displayPath(path) + ": could not be read"))
        }
        if !skipInvalid {
            Terminal.message("daybook: fix them (`daybook check` lists every problem), or export without them with --skip-invalid")
            throw ExitCode(1)
        }
    }
}

extension Export {
    /// A redacted export is written where nobody reads it yet (in memory for stdout, else a hidden
    /// path beside the target), searched for every name of the redaction file in every spelling
    /// (inside archives too), and only then put in place; a name found leaves nothing behind and
    /// exits 2, naming it and where it was.
    func exportChecked(_ type: ExportFormat.Type, _ entries: [Entry], context: ExportContext, redaction: Redaction,
                       target: URL?, isStream: Bool) throws {
        func refuse(_ leaks: [RedactionCheck.Leak]) -> DaybookError {
            let first = leaks[0]
            let more = leaks.count > 1 ? " (and \(leaks.count - 1) more place\(leaks.count == 2 ? "" : "s"))" : ""
            return DaybookError.input("the redacted export still holds `\(first.name)` in \(first.place)\(more): nothing was written. Give that spelling its own line under names: in the redaction file, or edit the entry")
        }
        guard let target else {
            let buffer = BufferSink()
            try type.init().export(entries, context: context, to: .stream(buffer))
            let text = String(decoding: buffer.bytes, as: UTF8.self)
            let leaks = RedactionCheck.scan(text: text, as: "its output", redaction: redaction)
            guard leaks.isEmpty else { throw refuse(leaks) }
            let out = StandardOutput()
            out.write(bytes: buffer.bytes)
            out.finish()
            return
        }
        let fm = FileManager.default
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).redacted-\(getpid())")
        try? fm.removeItem(at: staging)
        defer { try? fm.removeItem(at: staging) }
        if isStream {
            let sink = try FileSink(staging, atomic: false)
            try type.init().export(entries, context: context, to: .stream(sink))
            try sink.finish()
        } else {
            try type.init().export(entries, context: context, to: .path(staging))
        }
        let leaks = try RedactionCheck.scan(staging, shownAs: Diary.displayPath(target, relativeTo: global.workingDirectory), redaction: redaction)
        guard leaks.isEmpty else { throw refuse(leaks) }
        try place(staging, at: target)
    }

    /// Moves what was staged to the target: a file replaces a file; a folder's files replace
    /// those of the same names in an existing folder, whose other files stay.
    func place(_ staged: URL, at target: URL) throws {
        let fm = FileManager.default
        var stagedDir: ObjCBool = false, targetDir: ObjCBool = false
        _ = fm.fileExists(atPath: staged.path, isDirectory: &stagedDir)
        let exists = fm.fileExists(atPath: target.path, isDirectory: &targetDir)
        do {
            if exists && stagedDir.boolValue && targetDir.boolValue {
                for name in try fm.contentsOfDirectory(atPath: staged.path) {
                    try place(staged.appendingPathComponent(name), at: target.appendingPathComponent(name))
                }
                return
            }
            if exists { try fm.removeItem(at: target) }
            try fm.moveItem(at: staged, to: target)
        } catch {
            throw DaybookError.io("cannot put the export in place: \(error.localizedDescription)", at: SourceLocation(path: target.path))
        }
    }
}

/// A redacted export for stdout, held until it is checked.
final class BufferSink: TextSink {
    var bytes: [UInt8] = []
    func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
    func write(bytes more: [UInt8]) { bytes.append(contentsOf: more) }
    func finish() {}
}

/// Export text on stdout, through Terminal's buffer (a closed pipe ends quietly).
final class StandardOutput: TextSink {
    func write(_ text: String) { Terminal.out(text, terminator: "") }
    func write(bytes: [UInt8]) { Terminal.out(bytes: bytes) }
    func finish() { Terminal.flush() }
}
