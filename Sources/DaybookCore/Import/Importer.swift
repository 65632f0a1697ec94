// Imports a batch in one commit: duplicates (same date and body as an entry) skipped and counted.
import Foundation

public struct ImportPlan {
    public var entries: [ImportedEntry]
    /// Records skipped because an entry with the same date and body exists (or came earlier in the
    /// batch), or one with the same id from the program it came from (`ImportedEntry.idField`).
    public var duplicates: Int
}

public enum Importer {
    /// Which records would be created; nothing is written. `progress`: records checked, of how many.
    public static func plan(_ batch: ImportBatch, diary: Diary, progress: (Int, Int) -> Void = { _, _ in }) -> ImportPlan {
        // Entries already there, by moment; a body is read only for an entry of the same moment
        // as one imported, so memory does not grow with the diary's text.
        let snapshot = diary.scanEntries()
        var atMoment: [Int: [Int]] = [:]
        for k in 0..<snapshot.count {
            let d = snapshot.date(k)
            atMoment[d.wallSeconds - d.offset, default: []].append(k)
        }
        var seen = Set<String>()
        var out: [ImportedEntry] = []
        var duplicates = 0
        // Ids from the program the records came from (Day One's uuid), of the entries already there:
        // read only when the batch carries such ids.
        var seenIDs = Set<String>()
        let idFields = Set(batch.entries.compactMap(\.idField))
        if !idFields.isEmpty {
            for k in 0..<snapshot.count {
                let e = snapshot.entry(k, parts: .fields)
                for f in idFields { if let v = e.field(f)?.stringValue { seenIDs.insert(f + "\n" + v) } }
            }
        }
        for (n, item) in batch.entries.enumerated() {
            defer { progress(n + 1, batch.entries.count) }
            if let f = item.idField, let v = item.draft.fields.first(where: { $0.0 == f })?.1.stringValue,
               !seenIDs.insert(f + "\n" + v).inserted {
                duplicates += 1
                continue
            }
            let moment = item.draft.date.wallSeconds - item.draft.date.offset
            for k in atMoment.removeValue(forKey: moment) ?? [] {
                let e = snapshot.entry(k, parts: [])
                if let body = diary.readBody(e.path) { seen.insert(key(e.date, body)) }
            }
            let id = Slug.id(date: item.draft.date, title: item.draft.title)
            if seen.insert(key(item.draft.date, item.finalBody(id: id))).inserted { out.append(item) } else { duplicates += 1 }
        }
        return ImportPlan(entries: out, duplicates: duplicates)
    }

    /// Same moment and same text, whatever the line endings and trailing blank lines.
    static func key(_ date: LocalDateTime, _ body: String) -> String {
        "\(date.wallSeconds - date.offset)\n" + REFIImport.textKey(body)
    }

    /// Writes the planned entries and their attachments and commits once (`import: 120 entries from jrnl`).
    /// Returns the new entries' paths.
    @discardableResult
    public static func run(_ plan: ImportPlan, diary: Diary, format: String,
                           progress: (Int, Int) -> Void = { _, _ in }) throws -> [String] {
        guard !plan.entries.isEmpty else { return [] }
        // Every file's text is made before the first is written, so a record daybook cannot
        // write stops the import with nothing written.
        for item in plan.entries {
            do { _ = try item.draft.text() } catch let e as DaybookError {
                throw DaybookError.input("\(item.record): \(e.message); nothing was imported")
            }
        }
        let change = try Change(diary)
        try change.allOrNothing("import \(format)")
        var paths: [String] = []
        for item in plan.entries {
            var draft = item.draft
            draft.body = item.finalBody(id: EntryWriter.freeID(for: draft, in: diary))
            let rel = try EntryWriter.create(draft, in: change)
            let folder = Attachments.folder(ofEntry: rel)
            for a in item.attachments { try change.copy(a.file, to: folder + "/" + a.name) }
            paths.append(rel)
            progress(paths.count, plan.entries.count)
        }
        let n = plan.entries.count
        try change.commit("import: \(n) entr\(n == 1 ? "y" : "ies") from \(format)")
        return paths
    }
}
