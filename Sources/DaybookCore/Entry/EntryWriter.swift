// Creating entry files under a free id.
import Foundation

public enum EntryWriter {
    /// Writes a new entry (with a free id) and copies its attachments; returns its relative path.
    public static func create(_ draft: EntryDraft, in change: Change, attachments: [URL] = []) throws -> String {
        let id = freeID(for: draft, in: change.diary)
        let rel = Diary.entryPath(id: id, day: draft.date.day)
        var draft = draft
        if !attachments.isEmpty {
            // Audio is transcribed before anything is written (see Change.attach).
            let transcripts = try VoiceNote.transcripts(of: attachments, in: change.diary)
            let names = try Attachments.copy(attachments, entryPath: rel, in: change)
            let notes = VoiceNote.notes(names: names, files: attachments, transcripts: transcripts)
            draft.body = Attachments.appendLinks(names, id: id, to: draft.body, notes: notes)
        }
        try change.write(try draft.text(), to: rel)
        return rel
    }
}

extension EntryWriter {
    /// Saves a new entry as `new` does, in one commit (`new: TITLE`), with its attachments and
    /// strokes; returns its relative path. An empty body saves nothing, unless `answered`: the
    /// answers given at a template's prompts, or a one-line entry's title, are the entry then
    /// (issue 43: in experience sampling the ratings are the entry).
    @discardableResult
    public static func commitNew(_ draft: EntryDraft, in diary: Diary, attachments: [URL] = [], strokes: StrokeFile? = nil,
                                 answered: Bool = false) throws -> String {
        guard answered || !draft.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DaybookError.nothing("daybook: the body is empty; nothing saved")
        }
        let change = try Change(diary)
        let rel = try create(draft, in: change, attachments: attachments)
        if let strokes { try change.write(StrokeFileWriter.text(strokes), to: StrokeFile.path(ofEntry: rel)) }
        try change.commit("new: \(draft.displayTitle)")
        return rel
    }
}

extension EntryWriter {
    /// The id `create` gives the draft: its date and slug, with `-2`, `-3`, … while taken.
    public static func freeID(for draft: EntryDraft, in diary: Diary) -> String {
        let base = Slug.id(date: draft.date, title: draft.title)
        var id = base
        var n = 1
        while FileManager.default.fileExists(atPath: diary.url(Diary.entryPath(id: id, day: draft.date.day)).path)
                || FileManager.default.fileExists(atPath: diary.url(Diary.entryPath(id: id, day: draft.date.day)).deletingPathExtension().path) {
            n += 1
            id = "\(base)-\(n)"
        }
        return id
    }
}
