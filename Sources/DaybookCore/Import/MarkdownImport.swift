// `import markdown`: a folder of Markdown files (Obsidian daily notes, nb and the like), one entry each.
import Foundation

/// The date comes from the front matter's `date` (else `created`), else from the file name
/// (`2024-03-10`, `2024-03-12T08-30`, nb's `20240310120000`), else from the file's modification
/// time, with a warning. The file's name, less a date it starts with, is the title unless the front
/// matter gives one. Front matter keys are kept; hidden folders (`.obsidian`, `.git`) are left out.
/// A file that cannot be read is skipped with a warning naming it (and the line), unless `strict`.
public struct MarkdownImport: ImportFormat {
    public static let name = "markdown"
    public static let summary = "a folder of Markdown files; date from front matter, else the file name, else its modification time"
    public init() {}

    public func read(_ url: URL, diary: Diary, reading: ImportReading) throws -> ImportBatch {
        let batch = ImportBatch()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw DaybookError.io("no such file or folder", at: SourceLocation(path: url.path))
        }
        var files: [URL] = []
        if isDir.boolValue {
            let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let f = walker?.nextObject() as? URL {
                guard ["md", "markdown"].contains(f.pathExtension.lowercased()) else { continue }
                // A link in the folder that leads out of it stops the import: it reads only the folder's own files.
                if try ImportPath.checkedSource(f, root: url, file: f.path, record: f.lastPathComponent, field: nil) != nil { files.append(f) }
            }
        } else {
            files = [url]
        }
        for (n, f) in files.sorted(by: { $0.path < $1.path }).enumerated() {
            defer { reading.progress(n + 1, files.count) }
            let item: ImportedEntry
            do { item = try read(file: f, diary: diary, batch: batch) } catch let e as DaybookError where !reading.strict {
                let problem = e.message.replacingOccurrences(of: "; nothing was imported", with: "")
                batch.warnings.append(Diagnostic(.warning, "\(problem); this file is skipped (--strict stops the import)",
                                                 at: e.location ?? SourceLocation(path: f.path)))
                continue
            }
            // A template's name becomes a path (templates/NAME.md) when the entry is read: a bad
            // one stops the import even without --strict, as every name ImportPath refuses does.
            if let name = item.draft.template { try ImportPath.component(name, file: f.path, record: "the front matter", field: "template") }
            batch.entries.append(item)
        }
        return batch
    }

    func read(file: URL, diary: Diary, batch: ImportBatch) throws -> ImportedEntry {
        let path = file.path
        guard let data = FileManager.default.contents(atPath: path) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: path)) }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: path) }
        var date: LocalDateTime?
        var created: LocalDateTime?
        var draft = EntryDraft(date: diary.clock.nowLocal, title: nil)
        var body = text
        if text.hasPrefix("---\n") || text.hasPrefix("---\r\n"), let doc = try? EntryText(text, path: path) {
            body = doc.body
            if let root = try YAML.compose(doc.yaml, path: path, lineOffset: 1) {
                guard case let .object(pairs) = YAML.value(root) else {
                    throw DaybookError.input("the front matter must be a mapping of keys to values; nothing was imported", at: SourceLocation(path: path, line: 2))
                }
                for (key, value) in pairs {
                    if key == "created" {
                        created = try frontMatterDate(key, value, path: path, diary: diary)
                        draft.fields.append((key, value))
                    } else {
                        try take(key, value, into: &draft, date: &date, path: path, diary: diary)
                    }
                }
            }
        }
        try MoodImport.check(draft, diary: diary) { malformed(path, "the front matter", "mood", $0) }
        draft.body = body
        let (named, rest) = MarkdownImport.dateInName(file.deletingPathExtension().lastPathComponent, timeZone: diary.config.timeZone)
        if draft.title == nil, !rest.isEmpty { draft.title = rest }
        if date == nil { date = created ?? named }
        if date == nil {
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? diary.clock.now
            let dated = LocalDateTime(instant: modified, timeZone: diary.config.timeZone)
            date = dated
            batch.warnings.append(Diagnostic(.warning, "no date in the front matter or the file name; dated by its modification time, \(dated)",
                                             at: SourceLocation(path: path)))
        }
        draft.date = date ?? diary.clock.nowLocal
        return ImportedEntry(draft: draft, record: (path as NSString).lastPathComponent)
    }

    /// The date a file name starts with, and the rest of the name (separators trimmed) as a title:
    /// nb's `20240310120000`, `2024-03-12T08-30` (or `08:30`, `08-30-15`), `2024-03-10` (00:00).
    static func dateInName(_ stem: String, timeZone: TimeZone) -> (LocalDateTime?, String) {
        let c = Array(stem)
        func digits(_ from: Int, _ n: Int) -> String? {
            guard from + n <= c.count, c[from..<(from + n)].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return String(c[from..<(from + n)])
        }
        func rest(_ from: Int) -> String {
            String(c[min(from, c.count)...]).trimmingCharacters(in: CharacterSet(charactersIn: " -_.").union(.whitespaces))
        }
        // nb: fourteen digits, not followed by another digit.
        if let y = digits(0, 4), let mo = digits(4, 2), let d = digits(6, 2), let h = digits(8, 2), let mi = digits(10, 2), let s = digits(12, 2),
           digits(14, 1) == nil, let t = LocalDateTime.parse("\(y)-\(mo)-\(d) \(h):\(mi):\(s)", timeZone: timeZone) {
            return (t, rest(14))
        }
        guard c.count >= 10, let day = LocalDay.parse(Substring(String(c[0..<10]))) else { return (nil, stem) }
        if c.count >= 16, c[10] == "T" || c[10] == " " || c[10] == "_", let h = digits(11, 2), c[13] == "-" || c[13] == ":", let mi = digits(14, 2) {
            var end = 16
            var s = "00"
            if c.count >= 19, c[16] == "-" || c[16] == ":", let sec = digits(17, 2) { s = sec; end = 19 }
            if let t = LocalDateTime.parse(String(c[0..<10]) + " \(h):\(mi):\(s)", timeZone: timeZone) { return (t, rest(end)) }
        }
        return (LocalDateTime(day: day, secondOfDay: 0, timeZone: timeZone), rest(10))
    }

    func frontMatterDate(_ key: String, _ value: JSONValue, path: String, diary: Diary) throws -> LocalDateTime {
        guard let s = value.stringValue, let parsed = LocalDateTime.parse(s, timeZone: diary.config.timeZone) else {
            throw malformed(path, "the front matter", key, "`\(value.stringValue ?? value.serialized())` is not a date such as 2026-11-21 or 2026-11-21T10:30:00+01:00")
        }
        return parsed
    }

    /// One front-matter key: the known ones checked, the rest kept as fields.
    func take(_ key: String, _ value: JSONValue, into d: inout EntryDraft, date: inout LocalDateTime?, path: String, diary: Diary) throws {
        func fail(_ problem: String) -> DaybookError {
            malformed(path, "the front matter", key, problem)
        }
        switch key {
        case "date":
            date = try frontMatterDate(key, value, path: path, diary: diary)
        case "title": d.title = value.stringValue
        case "tags", "tag":
            var items: [JSONValue]
            if case let .array(a) = value { items = a } else { items = value == .null ? [] : [value] }
            // Obsidian users write `tags: "reading, theory"` or `tags: reading theory`: a list in a string.
            if items.count == 1, case let .string(s) = items[0] {
                items = s.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { .string(String($0)) }
            }
            for item in items {
                guard let raw = item.stringValue, let t = JSONRecord.tag(raw) else { throw fail("`\(item.serialized())` is not a tag") }
                d.tags.append(t)
            }
        case "mood":
            // Checked against its scale once the template is known (MoodImport.check).
            guard case let .int(m) = value else { throw fail("must be a whole number") }
            d.mood = m
        case "template": d.template = value.stringValue
        default: d.fields.append((key, value))
        }
    }
}
