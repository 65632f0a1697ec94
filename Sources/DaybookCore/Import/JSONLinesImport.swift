// `import jsonl`: daybook's own `export jsonl`, one entry per line, so export and import round-trip.
import Foundation

/// Each line is an entry object as `export jsonl` writes it. What the body already says (inline
/// `#tags`, a title that is its first heading) is not repeated in the front matter, so the file
/// written reads back as the entry exported.
public struct JSONLinesImport: ImportFormat {
    public static let name = "jsonl"
    public static let summary = "daybook's own export jsonl (one entry object per line)"
    public init() {}

    public func read(_ url: URL, diary: Diary, reading: ImportReading) throws -> ImportBatch {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: file)) }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: file) }
        let batch = ImportBatch()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }  // the newline that ends the last record
        for (n, line) in lines.enumerated() {
            defer { reading.progress(n + 1, lines.count) }
            guard !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let value = try JSONRecord.parse(Data(line.utf8), file: file, line: n + 1)
            let r = try JSONRecord(value, file: file, name: "line \(n + 1)", line: n + 1)
            batch.entries.append(ImportedEntry(draft: try draft(r, diary: diary), record: r.name))
        }
        return batch
    }

    func draft(_ r: JSONRecord, diary: Diary) throws -> EntryDraft {
        let dateText = try r.requiredString("date")
        guard let date = LocalDateTime.parse(dateText, timeZone: diary.config.timeZone) else {
            throw r.fail("date", "`\(dateText)` is not an ISO 8601 date-time such as 2026-11-21T10:30:00+01:00")
        }
        let body = try r.requiredString("body")
        let prose = Prose(markdown: body)
        let title = try r.string("title")
        var d = EntryDraft(date: date, title: title == (prose.firstHeading ?? EntryParser.firstLine(of: body)) ? nil : title)
        d.body = body
        for t in try r.strings("tags") where !prose.inlineTags.contains(t) {
            guard Tag.isValid(Tag.normalize(t)) else { throw r.fail("tags", "`\(t)` is not a tag: use letters, digits, _, - and /") }
            d.tags.append(t)
        }
        d.template = try r.string("template")
        // A template's name becomes a path (templates/NAME.md) when the entry is read.
        if let name = d.template { try ImportPath.component(name, file: r.file, record: r.name, field: "template", line: r.line) }
        d.mood = try r.int("mood")
        try MoodImport.check(d, diary: diary) { r.fail("mood", $0) }
        for (key, value) in try r.object("fields") ?? [] {
            guard !key.isEmpty, !["date", "title", "tags", "mood", "template", "codes"].contains(key) else {
                throw r.fail("fields", "`\(key)` cannot be a field of its own")
            }
            d.fields.append((key, value))
        }
        if let codes = r["codes"] {
            guard case let .array(items) = codes else { throw r.fail("codes", "must be a list of codings") }
            let written = try items.compactMap { try coding($0, r) }
            if !written.isEmpty { d.fields.append(("codes", .array(written))) }
        }
        return d
    }

    /// A coding as the front matter holds it: a bare code for the whole entry, else a mapping.
    /// Codings of highlighter strokes (`stroke`) live in the stroke file, not here.
    func coding(_ v: JSONValue, _ r: JSONRecord) throws -> JSONValue? {
        if case let .string(code) = v { return .string(code) }
        guard case let .object(pairs) = v, case let .string(code)? = v["code"], Tag.isValid(code) else {
            throw r.fail("codes", "a coding needs a `code` (got \(v.serialized()))")
        }
        if v["stroke"] != nil { return nil }
        let kept = pairs.filter { ["code", "quote", "occurrence", "memo", "coder"].contains($0.0) }
        return kept.count == 1 ? .string(code) : .object(kept)
    }
}
