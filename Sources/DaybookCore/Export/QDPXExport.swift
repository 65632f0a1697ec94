// `export qdpx`: a REFI-QDA project (project.qde + sources/<GUID>.txt) that QDA tools import.
import Foundation

/// Entries become text sources holding the body as written; every coding becomes a
/// `PlainTextSelection` with its `Coding` (a whole-entry coding selects the whole text), carrying
/// the coder (`creatingUser`) and when it was made (`creationDateTime`: `coded:`, else the commit
/// that added it, else the entry's date); memos become notes; coders become users. GUIDs are
/// name-based UUIDs of ids, codes and coders, so a second export of the same diary has the same
/// GUIDs, and `import qdpx` knows its own entries again by them.
public struct QDPXExport: ExportFormat {
    public static let name = "qdpx"
    public static let summary = "a REFI-QDA project for ATLAS.ti, MAXQDA, NVivo, QualCoder (-o FILE.qdpx)"
    public static let destination = ExportDestinationKind.file
    /// A study's participants (`study export qdpx`): written as Cases, their attributes as Variables.
    public var cases: [QDPXCase] = []
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .path(url) = destination else { return }
        let book = try context.codebook()
        let project = try QDPXWriter(url, name: context.diaryName, time: context.diary.clock.nowLocal)
        let defaultCoder = context.defaultCoder
        try project.users(QDPXWriter.coders(of: entries, defaultCoder: defaultCoder))
        try project.codebook(book, undefined: REFIXML.undefinedCodes(entries, book: book))
        if let xml = REFIXML.cases(cases) { try project.raw(xml) }
        let times = QDPXWriter.historyTimes(of: entries, context: context)
        try context.forEachWithBody(entries) { e in
            try project.source(e, context: context, defaultCoder: defaultCoder, historyTimes: times[context.source(e.path)] ?? [:])
        }
        try project.finish()
    }
}

/// One REFI-QDA project written front to back in the schema's order: `users`, `codebook`, then
/// any `Variables`/`Cases` XML through `raw` (the study export), then `source` for each entry (of
/// one diary or several), then `finish`. Sources are streamed into the archive as they come;
/// notes are kept until `finish` writes them after the sources.
public final class QDPXWriter {
    private let url: URL
    private let archive: ArchiveFile
    private let qdeURL: URL
    private let qde: FileSink
    private var notes: [(guid: String, name: String, text: String)] = []
    private var inSources = false
    private var finished = false

    public init(_ url: URL, name: String, time: LocalDateTime) throws {
        self.url = url
        archive = try ArchiveFile(url, time: time)
        // project.qde is written to a file beside the archive, then added: it can be large.
        qdeURL = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".qde" + AtomicFile.temporarySuffix)
        qde = try FileSink(qdeURL)
        try qde.write(REFIXML.header + "<Project xmlns=\"urn:QDA-XML:project:1.0\"\(REFIXML.attributes([("name", name), ("origin", "daybook")]))>\n")
    }

    deinit { try? FileManager.default.removeItem(at: qdeURL) }

    /// Every coder of the entries (a coding without one counts as `defaultCoder`'s), sorted.
    public static func coders(of entries: [Entry], defaultCoder: String?) -> [String] {
        Coding.coders(of: entries, defaultCoder: defaultCoder)
    }

    /// `<Users>`: one user per coder; nothing for none.
    public func users(_ coders: [String]) throws {
        guard !coders.isEmpty else { return }
        try qde.write("  <Users>\n" + coders.map { "    <User\(REFIXML.attributes([("guid", REFIXML.coderGUID($0)), ("name", $0)]))/>\n" }.joined() + "  </Users>\n")
    }

    /// `<CodeBook>`: the codebook's tree, then the codes used but not defined; nothing for none.
    public func codebook(_ book: Codebook, undefined: [String]) throws {
        if let codes = REFIXML.codes(book, undefined: undefined, indent: "    ") {
            try qde.write("  <CodeBook>\n" + codes + "  </CodeBook>\n")
        }
    }

    /// XML the caller made (`<Variables>`, `<Cases>`), written as given between the codebook and the sources.
    public func raw(_ xml: String) throws { try qde.write(xml) }

    /// The source GUID of an entry: `scope` tells entries of different diaries apart (a study's
    /// participant); daybook's own diary export uses none, which `import qdpx` recognises.
    public static func sourceGUID(entryID: String, scope: String = "") -> String { REFIXML.guid("entry", scope + entryID) }

    /// Times of the codings without `coded:` from one walk of the diary's history, by entry file.
    public static func historyTimes(of entries: [Entry], context: ExportContext) -> [String: [Int: LocalDateTime]] {
        let waiting = entries.filter { $0.codings.contains { $0.coded == nil && $0.source == .frontMatter } }
        guard !waiting.isEmpty else { return [:] }
        // A redacted export's quotes differ from history's: the entry file's own codings are compared.
        let files = waiting.map { e -> (path: String, codings: [Coding]) in
            let path = context.source(e.path)
            return (path, context.redaction == nil ? e.codings : context.diary.readEntry(path).entry?.codings ?? [])
        }
        return CodingTimes.fromHistory(files, diary: context.diary)
    }

    /// Writes one entry (with its body) as a `TextSource` and its text file; returns its GUID.
    /// `historyTimes` (from `historyTimes(of:context:)`) dates codings without `coded:`; those
    /// history does not know take the entry's date. Orphaned quotes are left out with a warning.
    @discardableResult
    public func source(_ e: Entry, context: ExportContext, defaultCoder: String?, historyTimes: [Int: LocalDateTime] = [:],
                       guidScope: String = "") throws -> String {
        if !inSources { try qde.write("  <Sources>\n"); inSources = true }
        let sourceGUID = QDPXWriter.sourceGUID(entryID: e.id, scope: guidScope)
        try archive.add("sources/\(sourceGUID).txt", data: Data(e.body.utf8))
        try qde.write("    <TextSource" + REFIXML.attributes([
            ("guid", sourceGUID), ("name", e.title.isEmpty ? e.id : e.title),
            ("plainTextPath", "internal://\(sourceGUID).txt"), ("creationDateTime", e.date.description),
        ]) + ">\n")
        try qde.write("      <Description>\(REFIXML.escape("\(e.title) (\(e.date), \(e.id))"))</Description>\n")
        let located = Dictionary(context.codedSegments(of: e).map { ($0.coding, ($0.anchor, $0.range)) }, uniquingKeysWith: { a, _ in a })
        let length = e.codings.contains { $0.quote == nil || located[$0] == nil } ? e.body.unicodeScalars.count : 0
        var selections = ""
        for (k, c) in e.codings.enumerated() {
            let key = guidScope + "\(e.id):\(k)"
            let coder = c.madeBy(defaultCoder: defaultCoder).map(REFIXML.coderGUID)
            let time = (c.coded ?? historyTimes[k] ?? e.date).description
            var coding = "<Coding\(REFIXML.attributes([("guid", REFIXML.guid("coding", key)), ("creatingUser", coder), ("creationDateTime", time)]))>"
            coding += "<CodeRef targetGUID=\"\(REFIXML.codeGUID(c.code))\"/>"
            if let memo = c.memo {
                let noteGUID = REFIXML.guid("memo", key)
                notes.append((noteGUID, "Memo on \(c.code) in \(e.id)", memo))
                coding += "<NoteRef targetGUID=\"\(noteGUID)\"/>"
            }
            coding += "</Coding>\n"
            // The selection's name is the text it selects, as exported: the quote as written may
            // differ in line endings from a body written before quotes took the body's.
            let span: (start: Int, end: Int, text: String?)
            var description = ""
            if c.quote == nil {
                span = (0, length, nil)
            } else if let (a, range) = located[c] {
                span = (a.start, a.end, String(e.body.unicodeScalars[range]))
            } else if let quote = c.quote {
                // Orphaned (warned about by codedSegments): not lost, but a coding of the whole
                // text that says what it quoted.
                span = (0, length, nil)
                description = "<Description>\(REFIXML.escape("orphaned quote, no longer in the text: \"\(quote)\""))</Description>"
            } else {
                continue
            }
            selections += "      <PlainTextSelection" + REFIXML.attributes([
                ("guid", REFIXML.guid("selection", key)), ("name", span.text),
                ("startPosition", String(span.start)), ("endPosition", String(span.end)),
                ("creatingUser", coder), ("creationDateTime", time),
            ]) + ">\n        " + description + coding + "      </PlainTextSelection>\n"
        }
        try qde.write(selections + "    </TextSource>\n")
        return sourceGUID
    }

    /// Closes the sources, writes the notes and the end of the project, and finishes the archive.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if inSources { try qde.write("  </Sources>\n") }
        if !notes.isEmpty {
            try qde.write("  <Notes>\n")
            for n in notes {
                try qde.write("    <Note\(REFIXML.attributes([("guid", n.guid), ("name", n.name)]))>"
                              + "<PlainTextContent>\(REFIXML.escape(n.text))</PlainTextContent></Note>\n")
            }
            try qde.write("  </Notes>\n")
        }
        try qde.write("</Project>\n")
        try qde.finish()
        try archive.add("project.qde", file: qdeURL)
        try archive.finish()
    }
}
