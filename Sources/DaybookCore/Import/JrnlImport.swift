// `import jrnl`: jrnl's `jrnl --export json` file ({"tags": …, "entries": [{title, body, date, time, tags, starred}]}).
import Foundation

/// jrnl keeps an entry's first sentence as its title and the rest as its body; daybook keeps the
/// title in the front matter and the rest as the body. `@tags` become tags (without the `@`);
/// `starred: true` is kept as a field. Dates are in the diary's time zone.
public struct JrnlImport: ImportFormat {
    public static let name = "jrnl"
    public static let summary = "jrnl's JSON export (jrnl --export json > FILE)"
    public init() {}

    public func read(_ url: URL, diary: Diary, reading: ImportReading) throws -> ImportBatch {
        let batch = ImportBatch()
        let records = try JSONRecord.entries(in: url, of: "jrnl")
        for (n, r) in records.enumerated() {
            defer { reading.progress(n + 1, records.count) }
            let day = try r.requiredString("date")
            guard LocalDay.parse(Substring(day)) != nil else { throw r.fail("date", "`\(day)` is not a date YYYY-MM-DD") }
            let time = try r.string("time") ?? "00:00"
            guard let (date, clockChange) = LocalDateTime.parseNotingClockChange(day + " " + time, timeZone: diary.config.timeZone) else {
                throw r.fail("time", "`\(time)` is not a time HH:MM")
            }
            if let clockChange { batch.warnings.append(Diagnostic(.warning, "\(r.name): \(clockChange)", at: SourceLocation(path: r.file, line: r.line))) }
            let title = try r.string("title") ?? ""
            var draft = EntryDraft(date: date, title: title.isEmpty ? nil : title)
            draft.body = try r.string("body") ?? ""
            draft.tags = try r.tags("tags", warnings: &batch.warnings)
            if try r.bool("starred") == true { draft.fields.append(("starred", .bool(true))) }
            batch.entries.append(ImportedEntry(draft: draft, record: r.name))
        }
        return batch
    }
}
