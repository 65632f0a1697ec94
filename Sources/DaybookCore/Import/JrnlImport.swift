// `import jrnl`: jrnl's `jrnl --export json` file ({"tags": …, "entries": [{title, body, date, time, tags, starred}]}).
import Foundation

/// jrnl keeps an entry's first sentence as its title and the rest as its body; daybook keeps the
/// title in the front matter and the rest as the body. `@tags` become tags (without the `@`);
/// `starred: true` is kept as a field. Dates are in the diary's time zone.
public struct JrnlImport: ImportFormat {
    public static let name = "jrnl"
    public static let summary = "jrnl's JSON export (jrnl --export json > FILE)"
    public init() {}

    public func read(_ url: URL, diary: Diary) throws -> ImportBatch {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: file)) }
        guard case let .object(root) = try JSONRecord.parse(data, file: file),
              let list = root.first(where: { $0.0 == "entries" })?.1, case let .array(records) = list else {
            throw DaybookError.input("not a jrnl export: expected an object with a list `entries`; nothing was imported", at: SourceLocation(path: file))
        }
        let batch = ImportBatch()
        for (i, value) in records.enumerated() {
            let r = try JSONRecord(value, file: file, name: "entries[\(i)]")
            let day = try r.requiredString("date")
            let time = try r.string("time") ?? "00:00"
            guard let date = LocalDateTime.parse(day + " " + time, timeZone: diary.config.timeZone) else {
                throw r.fail(LocalDay.parse(Substring(day)) == nil ? "date" : "time", "`\(day) \(time)` is not a date YYYY-MM-DD with a time HH:MM")
            }
            let title = try r.string("title") ?? ""
            var draft = EntryDraft(date: date, title: title.isEmpty ? nil : title)
            draft.body = try r.string("body") ?? ""
            for raw in try r.strings("tags") {
                if let t = JSONRecord.tag(raw) { draft.tags.append(t) }
                else { batch.warnings.append(Diagnostic(.warning, "entries[\(i)]: `\(raw)` is not a tag daybook can keep; left out", at: SourceLocation(path: file))) }
            }
            if try r.bool("starred") == true { draft.fields.append(("starred", .bool(true))) }
            batch.entries.append(ImportedEntry(draft: draft, record: "entries[\(i)]"))
        }
        return batch
    }
}
