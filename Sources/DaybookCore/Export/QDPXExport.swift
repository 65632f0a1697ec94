// `export qdpx`: a REFI-QDA project (project.qde + sources/<GUID>.txt) that QDA tools import.
import Foundation

/// Entries become text sources holding the body as written (positions count its Unicode scalars
/// from 0, end exclusive); codings become `PlainTextSelection` + `Coding` (whole-entry codings a
/// `Coding` of the source); memos become notes; coders become users. GUIDs are name-based UUIDs of
/// ids, codes and coders, so a second export of the same diary has the same GUIDs.
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
        let work = try ArchiveFile(url, time: context.diary.clock.nowLocal)
        // project.qde is written to a file beside the archive, then added: it can be large.
        let qdeURL = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".qde" + AtomicFile.temporarySuffix)
        defer { try? FileManager.default.removeItem(at: qdeURL) }
        let qde = try FileSink(qdeURL)
        let coderOf = { (c: Coding) in c.coder ?? context.diary.config.coder }
        let coders = Array(Set(entries.flatMap { $0.codings.compactMap(coderOf) })).sorted()

        try qde.write(REFIXML.header + "<Project xmlns=\"urn:QDA-XML:project:1.0\"\(REFIXML.attributes([("name", context.diaryName), ("origin", "daybook")]))>\n")
        if !coders.isEmpty {
            try qde.write("  <Users>\n" + coders.map { "    <User\(REFIXML.attributes([("guid", REFIXML.guid("coder", $0)), ("name", $0)]))/>\n" }.joined() + "  </Users>\n")
        }
        if let codes = REFIXML.codes(book, undefined: REFIXML.undefinedCodes(entries, book: book), indent: "    ") {
            try qde.write("  <CodeBook>\n" + codes + "  </CodeBook>\n")
        }
        if let cases = REFIXML.cases(cases) { try qde.write(cases) }
        var notes: [(guid: String, name: String, text: String)] = []
        if !entries.isEmpty { try qde.write("  <Sources>\n") }
        try context.forEachWithBody(entries) { e in
            let sourceGUID = REFIXML.guid("entry", e.id)
            try work.add("sources/\(sourceGUID).txt", data: Data(e.body.utf8))
            try qde.write("    <TextSource" + REFIXML.attributes([
                ("guid", sourceGUID), ("name", e.title.isEmpty ? e.id : e.title),
                ("plainTextPath", "internal://\(sourceGUID).txt"), ("creationDateTime", e.date.description),
            ]) + ">\n")
            try qde.write("      <Description>\(REFIXML.escape("\(e.title) (\(e.date), \(e.id))"))</Description>\n")
            let located = Dictionary(context.codedSegments(of: e).map { ($0.coding, $0.anchor) }, uniquingKeysWith: { a, _ in a })
            var selections = "", wholeEntry = ""
            for (k, c) in e.codings.enumerated() {
                let key = "\(e.id):\(k)"
                let coder = coderOf(c).map { REFIXML.guid("coder", $0) }
                var coding = "<Coding\(REFIXML.attributes([("guid", REFIXML.guid("coding", key)), ("creatingUser", coder)]))>"
                coding += "<CodeRef targetGUID=\"\(REFIXML.codeGUID(c.code))\"/>"
                if let memo = c.memo {
                    let noteGUID = REFIXML.guid("memo", key)
                    notes.append((noteGUID, "Memo on \(c.code) in \(e.id)", memo))
                    coding += "<NoteRef targetGUID=\"\(noteGUID)\"/>"
                }
                coding += "</Coding>\n"
                if c.quote == nil { wholeEntry += "      " + coding; continue }
                guard let a = located[c] else { continue } // orphaned: warned about by codedSegments
                selections += "      <PlainTextSelection" + REFIXML.attributes([
                    ("guid", REFIXML.guid("selection", key)), ("name", c.quote),
                    ("startPosition", String(a.start)), ("endPosition", String(a.end)), ("creatingUser", coder),
                ]) + ">\n        " + coding + "      </PlainTextSelection>\n"
            }
            try qde.write(selections + wholeEntry + "    </TextSource>\n")
        }
        if !entries.isEmpty { try qde.write("  </Sources>\n") }
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
        try work.add("project.qde", file: qdeURL)
        try work.finish()
    }
}
