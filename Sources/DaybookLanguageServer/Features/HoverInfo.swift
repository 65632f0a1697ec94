// Hover: a code (description, colour, codings and entries), a tag (entries), a date (weekday, how long ago).
import DaybookCore
import Foundation

enum HoverInfo {
    static func hover(_ doc: Document, at p: Position) -> Hover? {
        guard let a = doc.analysis, let (context, _) = doc.place, let at = EntryPlace(a, p) else { return nil }
        if at.inFrontMatter && at.key == "date", let value = a.value(of: "date") {
            return date(value, context: context)
        }
        if let code = code(doc, at: p) {
            let book = context.codebook
            let def = book.code(code)
            let used = context.entries.codes[code]
            var lines = ["**\(code)**" + (def == nil ? " (not in the codebook)" : "")]
            if let path = book.path(of: code), path.count > 1 { lines.append("under " + path.dropLast().joined(separator: " › ")) }
            if let d = def?.description { lines.append(d) }
            if let c = book.color(of: code) { lines.append("colour `\(c)`") }
            lines.append("\(used?.codings ?? 0) coding\(used?.codings == 1 ? "" : "s") in " + Completion.entries(used?.entries ?? 0))
            return Hover(contents: MarkupContent(value: lines.joined(separator: "\n\n")))
        }
        if let tag = tag(a, at) {
            let n = context.entries.tags.first { $0.name == tag }?.entries ?? 0
            return Hover(contents: MarkupContent(value: "**#\(tag)**\n\n" + Completion.entries(n)))
        }
        return nil
    }

    /// The code named at the position: a word in the `codes:` of the front matter, or a segment
    /// of the body that a coding quotes.
    static func code(_ doc: Document, at p: Position) -> String? {
        guard let a = doc.analysis, let at = EntryPlace(a, p) else { return nil }
        if at.inFrontMatter {
            guard at.key == "codes", !at.before.contains("quote:"), !at.before.contains("memo:"), !at.before.contains("coder:") else { return nil }
            let w = word(a, at)
            return w.isEmpty || w == "code" ? nil : w
        }
        let i = a.lines.index(of: p)
        return CodedSegments.segments(doc).first { $0.range.contains(i) }?.coding.code
    }

    static func tag(_ a: Document.Analysis, _ at: EntryPlace) -> String? {
        let w = word(a, at)
        guard !w.isEmpty else { return nil }
        if at.inFrontMatter { return at.key == "tags" ? w : nil }
        return at.charBeforeWord(a.lines) == "#" ? w : nil
    }

    /// The whole word (tag characters) around the position, lowercase.
    static func word(_ a: Document.Analysis, _ at: EntryPlace) -> String {
        String(a.lines.text[wordRange(a, at)]).lowercased()
    }

    /// Where that word lies in the text.
    static func wordRange(_ a: Document.Analysis, _ at: EntryPlace) -> Range<String.Index> {
        let scalars = a.lines.text.unicodeScalars
        var end = at.cursor
        while end < scalars.endIndex, Tag.isTagCharacter(scalars[end]) { end = scalars.index(after: end) }
        return at.wordStart..<end
    }

    static func date(_ value: String, context: DiaryContext) -> Hover? {
        let tz = context.diary.config.timeZone
        guard let d = LocalDateTime.parse(value, timeZone: tz) else { return nil }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEEE d MMMM yyyy, HH:mm"
        f.timeZone = TimeZone(secondsFromGMT: d.offset)
        let now = context.diary.clock.nowLocal
        let days = now.day.ordinal - d.day.ordinal
        let ago = days == 0 ? "today" : days == 1 ? "yesterday" : days > 0 ? "\(days) days ago" : days == -1 ? "tomorrow" : "in \(-days) days"
        return Hover(contents: MarkupContent(value: "**\(f.string(from: d.instant))**\n\n\(ago)"))
    }
}
