// The export formats' common protocol, what they are given, and the registry the CLI reads.
import Foundation

/// One export format. Adding a format is adding a type that conforms, and one line in `ExportFormats.all`.
public protocol ExportFormat {
    /// The name on the command line (`daybook export NAME`).
    static var name: String { get }
    /// One line for `daybook export --help`.
    static var summary: String { get }
    /// Where the export goes: a stream (stdout without `-o`), or a file or folder that `-o` must name.
    static var destination: ExportDestinationKind { get }
    init()
    /// Writes `entries` (already filtered, oldest first).
    func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws
}

public enum ExportDestinationKind: Sendable {
    /// Text that goes to stdout, or to the file `-o` names.
    case stream
    /// One file (an archive) that `-o` must name.
    case file
    /// A folder that `-o` must name (or one file with `--single-file`, then a stream).
    case folder
}

public enum ExportDestination {
    case stream(TextSink)
    case path(URL)
}

/// The choices of `daybook export` that formats read.
public struct ExportOptions: Sendable {
    /// csv: one row per coding instead of per entry.
    public var codings = false
    /// html: everything in one page.
    public var singleFile = false
    /// html: pass raw HTML of entries through.
    public var unsafeHTML = false
    /// pdf: the page size.
    public var paper = Paper.a4
    /// pdf: entries one after another instead of each on a new page.
    public var flow = false

    public init() {}
}

/// What every format may need besides the entries.
public final class ExportContext {
    public let diary: Diary
    public let options: ExportOptions
    /// Called after each entry is written with (done, total); the CLI draws a progress bar.
    public var progress: (Int, Int) -> Void
    /// Problems that did not stop the export (an orphaned quote, an unreadable stroke file).
    public internal(set) var warnings: [Diagnostic] = []
    var loadedCodebook: Codebook?
    /// Who made a coding that names no coder (`Coding.madeBy`): `coder` in daybook.yml, else git's
    /// user.name; redacted, it is redacted like every other name (it is often the researcher's
    /// own). Read once, when an export first asks (after `redaction` is set).
    public lazy var defaultCoder: String? = diary.coderOfUnnamedCodings.map { redaction?.text($0) ?? $0 }
    /// False when the entries given to the format carry no bodies (read from a cache of metadata):
    /// `forEachWithBody` then reads one entry file at a time, so memory stays bounded.
    public var bodiesLoaded = true
    /// `--redact`: the entries given are already redacted (`Redaction.entries`); the codebook and
    /// the files a format copies are redacted too, and attachments, which cannot be, are left out.
    public var redaction: Redaction?
    /// Redacted entry paths → the entry files they came from, for reading stroke files.
    public var sources: [String: String] = [:]
    /// The entry files that do not parse (no entry could be made of them): a format that can keep
    /// a file as it is (zip) keeps them; every other leaves them out, and the command says so.
    public var unparsed: [String] = []
    /// No filter was given: the export is of the whole diary (zip then holds every file of it).
    public var wholeDiary = false
    /// Entry files the export had to leave out (they do not parse or could not be read), by path.
    public internal(set) var leftOut: [String] = []

    /// The entry file a (possibly redacted) path stands for.
    public func source(_ rel: String) -> String { sources[rel] ?? rel }

    /// The names of the entry's attachments the export may copy: none when redacting.
    public func attachments(of e: Entry) -> [String] {
        redaction == nil ? Attachments.files(ofEntry: e.path, in: diary) : []
    }

    public init(diary: Diary, options: ExportOptions = ExportOptions(), progress: @escaping (Int, Int) -> Void = { _, _ in }) {
        self.diary = diary
        self.options = options
        self.progress = progress
    }

    /// Calls `body` with each entry and its body, oldest first, and reports progress. An entry that
    /// can no longer be read is skipped with a warning.
    public func forEachWithBody(_ entries: [Entry], _ body: (Entry) throws -> Void) throws {
        try forEachWithBody(entries, prepare: { $0 }, body)
    }

    /// The same with a format's work on each entry that needs nothing but the entry (its JSON):
    /// bodies are read, and `prepare` run, on every core a chunk of entries at a time, and `body`
    /// gets the results in the entries' order. Memory holds one chunk.
    public func forEachWithBody<T>(_ entries: [Entry], prepare: (Entry) -> T, _ body: (T) throws -> Void) throws {
        try InOrder.forEach(entries.count, { i -> Result<T, Error> in
            var e = entries[i]
            // The metadata is current (the cache checked it), so only the body is read: the front
            // matter is split off, no YAML parsed and no words counted a second time.
            if !bodiesLoaded {
                do { e.body = try diary.entryBody(e.path) } catch { return .failure(error) }
            }
            return .success(prepare(e))
        }, consume: { i, result in
            defer { progress(i + 1, entries.count) }
            switch result {
            case let .success(prepared): try body(prepared)
            case let .failure(problem as DaybookError):
                warnings.append(Diagnostic(problem))
                leftOut.append(entries[i].path)
            case let .failure(error): throw error
            }
        })
    }

    public func warn(_ message: String, path: String? = nil) {
        warnings.append(Diagnostic(.warning, message, at: path.map { SourceLocation(path: $0) }))
    }

    /// The diary's `codebook.yml` as a JSON value (`{}` when there is none).
    public func codebookJSON() throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: diary.codebookFile.path) else { return .object([]) }
        let display = diary.displayPath("codebook.yml")
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        return try YAML.compose(redaction?.text(text) ?? text, path: display).map(YAML.value) ?? .object([])
    }

    // MARK: Links between entries

    /// The diary's rule for links: a `[[prefix]]` names an entry among all of the diary's, and
    /// `has` then says whether the pages hold it.
    public lazy var entryLinks = EntryLinks(diary)
    /// The entries the pages hold (paths); nil when every entry of the diary has its page.
    var exported: Set<String>?
    /// What links to each entry, for a page's "Linked from".
    var linkIndex: LinkIndex?
    /// Titles known without reading a file (the exported entries').
    var titles: [String: String] = [:]

    /// Whether the pages hold the entry at `path`.
    func has(_ path: String) -> Bool { exported?.contains(path) ?? true }

    /// An entry's title as a page shows it (its id when it has none), read from its file when
    /// the export did not load it.
    func title(of path: String) -> String {
        if let t = titles[path] { return t }
        let e = diary.readEntry(path).entry
        let t = e.map { $0.title.isEmpty ? $0.id : $0.title } ?? Entry.id(ofPath: path)
        titles[path] = t
        return t
    }

    /// Makes the exported entries the pages' entries, and reads their links once for "Linked from".
    func index(_ entries: [Entry]) {
        exported = Set(entries.map(\.path))
        for e in entries { titles[e.path] = e.title.isEmpty ? e.id : e.title }
        linkIndex = LinkIndex(entries, links: entryLinks)
    }

    /// The diary's name from daybook.yml, for titles.
    public var diaryName: String { diary.config.name ?? "Diary" }

    /// `{"name", "timezone", "exported"}`: the diary itself, for exports that describe it.
    public var diaryJSON: JSONValue {
        .object([("name", diary.config.name.map(JSONValue.string) ?? .null),
                 ("timezone", .string(diary.config.timeZone.identifier)),
                 ("exported", .string(diary.clock.nowLocal.description))])
    }
}

/// The registry: `daybook export` accepts exactly these names, in this order.
public enum ExportFormats {
    public static let all: [ExportFormat.Type] = [
        JSONExport.self, JSONLinesExport.self, CSVExport.self, MarkdownExport.self,
        HTMLExport.self, ZipExport.self, QDPXExport.self, QDCExport.self, JrnlExport.self,
        PDFExport.self,
    ]

    public static func named(_ name: String) -> ExportFormat.Type? {
        all.first { $0.name == name.lowercased() }
    }

    public static var names: [String] { all.map { $0.name } }
}
