// `import markdown`: a folder of Markdown files (Obsidian daily notes and the like), one entry each.
import Foundation

/// The date comes from the front matter's `date`, else from a `YYYY-MM-DD` at the start of the
/// file name (00:00 in the diary's time zone), else from the file's modification time, with a
/// warning. Front matter keys are kept; hidden folders (`.obsidian`, `.git`) are left out.
public struct MarkdownImport: ImportFormat {
    public static let name = "markdown"
    public static let summary = "a folder of Markdown files; date from front matter, else the file name, else its modification time"
    public init() {}

    public func read(_ url: URL, diary: Diary) throws -> ImportBatch {
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
        for f in files.sorted(by: { $0.path < $1.path }) { batch.entries.append(try read(file: f, diary: diary, batch: batch)) }
        return batch
    }

    func read(file: URL, diary: Diary, batch: ImportBatch) throws -> ImportedEntry {
        let path = file.path
        guard let data = FileManager.default.contents(atPath: path) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: path)) }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: path) }
        var date: LocalDateTime?
        var draft = EntryDraft(date: diary.clock.nowLocal, title: nil)
        var body = text
        if text.hasPrefix("---\n") || text.hasPrefix("---\r\n"), let doc = try? EntryText(text, path: path) {
            body = doc.body
            if let root = try YAML.compose(doc.yaml, path: path, lineOffset: 1) {
                guard case let .object(pairs) = YAML.value(root) else {
                    throw DaybookError.input("the front matter must be a mapping of keys to values; nothing was imported", at: SourceLocation(path: path, line: 2))
                }
                for (key, value) in pairs { try take(key, value, into: &draft, date: &date, path: path, diary: diary) }
            }
        }
        draft.body = body
        let stem = file.deletingPathExtension().lastPathComponent
        if date == nil, let day = LocalDay.parse(Substring(stem.prefix(10))) {
            date = LocalDateTime(day: day, secondOfDay: 0, timeZone: diary.config.timeZone)
        }
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

    /// One front-matter key: the known ones checked, the rest kept as fields.
    func take(_ key: String, _ value: JSONValue, into d: inout EntryDraft, date: inout LocalDateTime?, path: String, diary: Diary) throws {
        func fail(_ problem: String) -> DaybookError {
            malformed(path, "the front matter", key, problem)
        }
        switch key {
        case "date":
            guard let s = value.stringValue, let parsed = LocalDateTime.parse(s, timeZone: diary.config.timeZone) else {
                throw fail("`\(value.stringValue ?? value.serialized())` is not a date such as 2026-11-21 or 2026-11-21T10:30:00+01:00")
            }
            date = parsed
        case "title": d.title = value.stringValue
        case "tags", "tag":
            let items: [JSONValue]
            if case let .array(a) = value { items = a } else { items = value == .null ? [] : [value] }
            for item in items {
                guard let raw = item.stringValue, let t = JSONRecord.tag(raw) else { throw fail("`\(item.serialized())` is not a tag") }
                d.tags.append(t)
            }
        case "mood":
            guard case let .int(m) = value, m >= diary.config.moodMin, m <= diary.config.moodMax else {
                throw fail("must be a whole number from \(diary.config.moodMin) to \(diary.config.moodMax)")
            }
            d.mood = m
        case "template":
            // A template's name becomes a path (templates/NAME.md) when the entry is read.
            if let name = value.stringValue { try ImportPath.component(name, file: path, record: "the front matter", field: key) }
            d.template = value.stringValue
        default: d.fields.append((key, value))
        }
    }
}
