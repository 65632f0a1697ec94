// `daybook append`: a paragraph stamped with the time at the end of an entry; today's entry (made when there is none) by default.
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

    /// The title of the plain entry `append` makes for a day: "Saturday, 21 November 2026"
    /// (English, as the date phrases).
    public static func dayTitle(_ day: LocalDay) -> String {
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(weekdays[day.weekday - 1]), \(day.day) \(months[day.month - 1]) \(day.year)"
    }

    /// Today's entry: the newest entry dated today (on the diary's clock) made from the daily
    /// template, or the plain one `append` made (no template, titled by the day); nil when there
    /// is none. An entry file of today that cannot be read is an error:
    /// it may be today's entry, and a second one is not made beside it.
    public static func todaysEntry(in diary: Diary) throws -> String? { try todaysEntry(in: diary, seen: nil) }

    /// Today's entry as the walk `seen` (a change's) found the entry files.
    static func todaysEntry(in diary: Diary, seen: WorkTree?) throws -> String? {
        let today = diary.clock.today
        let snapshot = diary.scanEntries(seen: seen)
        var k = snapshot.count - 1
        while k >= 0, snapshot.date(k).day > today { k -= 1 }
        while k >= 0, snapshot.date(k).day == today {
            let e = snapshot.entry(k, parts: [.template, .title])
            if e.template == dailyTemplate || (e.template == nil && e.title == dayTitle(today)) { return snapshot.path(k) }
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
    /// `rel` nil today's entry; nil when a new one is to be made.
    public static func target(_ rel: String?, in diary: Diary) throws -> String? {
        guard let rel else { return try todaysEntry(in: diary) }
        let outcome = diary.readEntry(rel)
        guard outcome.entry != nil else {
            throw outcome.problems.first ?? DaybookError.input("the entry cannot be read", at: SourceLocation(path: diary.displayPath(rel)))
        }
        return rel
    }

    /// Appends `text` as a paragraph stamped with the time (now, on the diary's clock) at the end
    /// of the entry at `rel` (see `target`), or, with `rel` nil, of a new entry for today (see
    /// `write`), in one commit `append: TITLE`. Only bytes after the file's end change, unless the
    /// entry's template names a heading for the notes (`append_under`). Returns the entry's path
    /// and whether it was made.
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

    /// Appends the paragraph's lines to the entry at `rel`, or to a new one for today, and commits
    /// the change. The new entry is titled by the day. When the daily template names a heading
    /// for notes (`append_under`), it is made from the template (its fields at their defaults)
    /// with the notes under that heading; otherwise it is a plain entry of the notes alone (the
    /// template's other headings, and answers nobody gave, are not made up).
    private static func write(_ lines: [String], at now: LocalDateTime, to rel: String?, in change: Change) throws -> (rel: String, created: Bool) {
        let diary = change.diary
        if let rel {
            var title = ""
            try change.editEntry(rel) { text, entry in
                // Only a daily entry asks its template (the rest append at once, as before).
                let under = entry.template == dailyTemplate ? try TemplateLibrary(diary: diary).template(named: dailyTemplate)?.appendUnder : nil
                if let under, let body = insert(lines, under: under, in: text.body) {
                    text.setBody(body)
                } else {
                    text.appendParagraph(lines)
                }
                title = entry.title
            }
            try change.commit("append: \(title)")
            return (rel, false)
        }
        var draft = EntryDraft(date: now, title: dayTitle(now.day))
        if let daily = try TemplateLibrary(diary: diary).template(named: dailyTemplate), let under = daily.appendUnder {
            let start = try TemplateFill.prepare(dailyTemplate, diary: diary, draft: &draft, ask: nil) ?? ""
            draft.body = insert(lines, under: under, in: start) ?? EntryText(frontMatter: [], body: start).appending(lines).body
        } else {
            draft.body = EntryText(frontMatter: [], body: "").appending(lines).body
        }
        let made = try EntryWriter.create(draft, in: change)
        try change.commit("append: \(draft.displayTitle)")
        return (made, true)
    }

    /// The lines of the section under the heading `title` (any level, `#` to `######`, compared
    /// without case): from the line after the heading to the next heading of its level or
    /// higher, or the end; nil when no such heading is there (fenced code is not looked in).
    static func section(under title: String, in lines: [String]) -> Range<Int>? {
        func heading(_ line: String) -> (level: Int, text: String)? {
            let l = EntryText.withoutEnding(line)
            let level = l.prefix(while: { $0 == "#" }).count
            guard (1...6).contains(level), l.dropFirst(level).first == " " || l.count == level else { return nil }
            var text = l.dropFirst(level).trimmingCharacters(in: .whitespaces)
            while text.hasSuffix("#") { text.removeLast() }
            return (level, text.trimmingCharacters(in: .whitespaces))
        }
        var fence: String?
        var start: (index: Int, level: Int)?
        for (i, line) in lines.enumerated() {
            let l = EntryText.withoutEnding(line).trimmingCharacters(in: .whitespaces)
            if let f = fence { if l.hasPrefix(f) { fence = nil }; continue }
            if l.hasPrefix("```") || l.hasPrefix("~~~") { fence = String(l.prefix(3)); continue }
            guard let h = heading(line) else { continue }
            if let s = start, h.level <= s.level { return (s.index + 1)..<i }
            if start == nil, h.text.lowercased() == title.lowercased() { start = (i, h.level) }
        }
        return start.map { ($0.index + 1)..<lines.count }
    }

    /// `body` with the paragraph at the end of the section under the heading `title` (after its
    /// last line that is not blank, a blank line before and after it); nil without the heading.
    static func insert(_ paragraph: [String], under title: String, in body: String) -> String? {
        var lines = EntryText.splitLines(body)
        guard let range = section(under: title, in: lines) else { return nil }
        if let last = lines.last, !last.hasSuffix("\n") { lines[lines.count - 1] += "\n" }
        var end = range.upperBound
        while end > range.lowerBound, EntryText.withoutEnding(lines[end - 1]).trimmingCharacters(in: .whitespaces).isEmpty { end -= 1 }
        let blankAfter = end < lines.count
        let added = [""] + paragraph + (blankAfter ? [""] : [])
        // The blank lines that were there go; the paragraph brings its own.
        lines.replaceSubrange(end..<(blankAfter ? range.upperBound : lines.count), with: added.map { $0 + "\n" })
        return lines.joined()
    }
}

extension EntryText {
    /// This text with `paragraph` appended (see `appendParagraph`).
    func appending(_ paragraph: [String]) -> EntryText {
        var copy = self
        copy.appendParagraph(paragraph)
        return copy
    }
}
