// `daybook append`: a paragraph stamped with the time at the end of an entry; today's entry (made from the `daily` template) by default.
import Foundation

public enum EntryAppend {
    /// The template today's entry is made from, and by which it is found among the day's entries.
    public static let dailyTemplate = "daily"

    /// The paragraph's lines (without endings): `**HH:MM** ` before the first line of the text,
    /// the text without the blank space around it. Empty text is refused, nothing appended.
    public static func paragraph(_ text: String, at time: LocalDateTime) throws -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DaybookError.nothing("daybook: the text is empty; nothing appended") }
        let lines = EntryText.splitLines(trimmed).map(EntryText.withoutEnding)
        let stamp = "**" + LocalDay.padded(time.hour, 2) + ":" + LocalDay.padded(time.minute, 2) + "**"
        return [stamp + " " + lines[0]] + lines.dropFirst()
    }

    /// Today's entry: the newest entry dated today (on the diary's clock) made from the daily
    /// template; nil when there is none. An entry file of today that cannot be read is an error:
    /// it may be today's entry, and a second one is not made beside it.
    public static func todaysEntry(in diary: Diary) throws -> String? { try todaysEntry(in: diary, seen: nil) }

    /// Today's entry as the walk `seen` (a change's) found the entry files.
    static func todaysEntry(in diary: Diary, seen: WorkTree?) throws -> String? {
        let today = diary.clock.today
        let snapshot = diary.scanEntries(seen: seen)
        var k = snapshot.count - 1
        while k >= 0, snapshot.date(k).day > today { k -= 1 }
        while k >= 0, snapshot.date(k).day == today {
            if snapshot.entry(k, parts: .template).template == dailyTemplate { return snapshot.path(k) }
            k -= 1
        }
        let prefix = today.description
        if let broken = snapshot.diagnostics.first(where: { d in
            guard let path = d.location?.path, path.hasSuffix(".md") else { return false }
            return (path as NSString).lastPathComponent.hasPrefix(prefix)
        }) {
            throw DaybookError.input("an entry of today cannot be read, so it may be today's entry: \(broken.message) "
                                     + "(fix it, see `daybook check`, or name the entry to append to)", at: broken.location)
        }
        return nil
    }

    /// Where the text goes, found before the text is asked for (so that a wrong entry costs no
    /// typing): the entry at `rel`, which must read (else its first problem is thrown), or with
    /// `rel` nil today's entry; nil when a new one is to be made from the daily template.
    public static func target(_ rel: String?, in diary: Diary) throws -> String? {
        guard let rel else {
            if let today = try todaysEntry(in: diary) { return today }
            try requireDailyTemplate(diary)
            return nil
        }
        let outcome = diary.readEntry(rel)
        guard outcome.entry != nil else {
            throw outcome.problems.first ?? DaybookError.input("the entry cannot be read", at: SourceLocation(path: diary.displayPath(rel)))
        }
        return rel
    }

    /// Appends `text` as a paragraph stamped with the time (now, on the diary's clock) at the end
    /// of the entry at `rel` (see `target`), or, with `rel` nil, of a new entry made from the
    /// daily template (its fields at their defaults), in one commit `append: TITLE`. Only bytes
    /// after the file's end change. Returns the entry's path and whether it was made.
    public static func commit(_ text: String, to rel: String?, in diary: Diary) throws -> (rel: String, created: Bool) {
        let now = diary.clock.nowLocal
        let lines = try paragraph(text, at: now)
        return try write(lines, at: now, to: rel, in: try Change(diary))
    }

    /// `commit` for a text that is there before the entry is looked for (given with -m, or from
    /// stdin): the entry `ref` names (an ENTRY argument; nil for today's entry, made when there is
    /// none) is found within the change, from the walk it made for the outside edits, so the
    /// working folder is walked once (issue 19). An entry that does not read is an error, as with
    /// `target`; empty text is refused before the change begins.
    public static func commit(_ text: String, toEntryNamed ref: String?, in diary: Diary) throws -> (rel: String, created: Bool) {
        let now = diary.clock.nowLocal
        let lines = try paragraph(text, at: now)
        let change = try Change(diary)
        let rel = try ref.map { try EntryReference(change).resolve($0) } ?? todaysEntry(in: diary, seen: change.seen)
        return try write(lines, at: now, to: rel, in: change)
    }

    /// Appends the paragraph's lines to the entry at `rel`, or to a new one made from the daily
    /// template when `rel` is nil, and commits the change.
    private static func write(_ lines: [String], at now: LocalDateTime, to rel: String?, in change: Change) throws -> (rel: String, created: Bool) {
        let diary = change.diary
        if let rel {
            var title = ""
            try change.editEntry(rel) { text, entry in
                text.appendParagraph(lines)
                title = entry.title
            }
            try change.commit("append: \(title)")
            return (rel, false)
        }
        try requireDailyTemplate(diary)
        var draft = EntryDraft(date: now, title: nil)
        var start = EntryText(frontMatter: [], body: try TemplateFill.prepare(dailyTemplate, diary: diary, draft: &draft, ask: nil) ?? "")
        start.appendParagraph(lines)
        draft.body = start.body
        let made = try EntryWriter.create(draft, in: change)
        try change.commit("append: \(draft.displayTitle)")
        return (made, true)
    }

    /// A diary without a daily template (none in templates/, and a binary without its built-in
    /// templates) gets no entry made up: the command fails and names the way out.
    static func requireDailyTemplate(_ diary: Diary) throws {
        guard try TemplateLibrary(diary: diary).template(named: dailyTemplate) == nil else { return }
        throw DaybookError.usage("there is no entry of today to append to and no `\(dailyTemplate)` template to make one from "
                                 + "(templates/\(dailyTemplate).md, or the built-in one): name the entry, or write the template")
    }
}
