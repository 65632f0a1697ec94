// `daybook export FORMAT`: the filtered entries in one of the registry's formats.
import ArgumentParser
import DaybookCore
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export entries: " + ExportFormats.names.joined(separator: ", ") + ".",
        discussion: "Formats:\n" + ExportFormats.all.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            + "\n\nStreams go to stdout without -o. Every format takes the FILTERS; exit status 1 when no entry matches.")

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
    @Flag(name: .customLong("skip-invalid"), help: "pdf: exit 0 even when entries that cannot be read were left out (they are still reported).")
    var skipInvalid = false
    @Option(help: ArgumentHelp("Replace names with pseudonyms and leave out fields as FILE.yml says (names:, fields:); attachments are left out.", valueName: "file.yml"),
            completion: .file(extensions: ["yml", "yaml"]))
    var redact: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard let type = ExportFormats.named(format) else {
            throw ValidationError("unknown format `\(format)`; choose one of: " + ExportFormats.names.joined(separator: ", "))
        }
        if codings && type != CSVExport.self { throw ValidationError("--codings goes with csv") }
        if (singleFile || unsafeHTML) && type != HTMLExport.self && type != ZipExport.self {
            throw ValidationError("--single-file and --unsafe-html go with html")
        }
        if (paper != nil || flow || skipInvalid) && type != PDFExport.self { throw ValidationError("--paper, --flow and --skip-invalid go with pdf") }
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
        var unreadable = 0
        var entries = try filters.entries(of: diary, bodies: false, unreadable: &unreadable)
        guard !entries.isEmpty else { throw DaybookError.nothing("daybook: no entries match; nothing exported") }
        // Redacted, each entry file is read, redacted and parsed again before any format sees it.
        let redaction = try redact.map { path in
            try Redaction.load(URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL, displayPath: path)
        }
        var sources: [String: String] = [:]
        if let redaction {
            let withAttachments = entries.filter { !Attachments.files(ofEntry: $0.path, in: diary).isEmpty }.count
            let redacted = redaction.entries(entries, diary: diary)
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
        let target = output.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL }
        let isStream = type.destination == .stream || (type.destination == .folder && singleFile)
        let sink: TextSink? = isStream ? try target.map { try FileSink($0) } ?? StandardOutput() : nil
        defer { bar.finish() }
        if let sink {
            try type.init().export(entries, context: context, to: .stream(sink))
            try sink.finish()
        } else if let target {
            try type.init().export(entries, context: context, to: .path(target))
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
        // A PDF is handed in as the diary: one shorter than asked for is not a success.
        let missing = unreadable + context.unreadable
        if type == PDFExport.self && missing > 0 && !skipInvalid {
            Terminal.message("daybook: \(missing) entr\(missing == 1 ? "y" : "ies") could not be read and \(missing == 1 ? "is" : "are") not in the PDF (see above); --skip-invalid exits 0")
            throw ExitCode(1)
        }
    }
}

/// Export text on stdout, through Terminal's buffer (a closed pipe ends quietly).
final class StandardOutput: TextSink {
    func write(_ text: String) { Terminal.out(text, terminator: "") }
    func write(bytes: [UInt8]) { Terminal.out(bytes: bytes) }
    func finish() { Terminal.flush() }
}
