// `export jrnl`: the entries as a jrnl journal file, which `jrnl --import` reads, so people leave as easily as they came.
import Foundation

/// jrnl 4 imports only its own plain-text journal format (`jrnl --import` has no JSON reader), so
/// that is what this writes: `[2026-11-02 10:30:00 PM] Title` (jrnl's default `timeformat`,
/// `%F %r`), a ` *` for a starred entry, then the body; entries one after another. jrnl takes
/// the first sentence as the title, so the title line comes first. Front-matter tags go on a last
/// line as `@tag` (jrnl's tag symbol; a body's `#tags` are jrnl tags already). A body line that
/// starts with `[` is written as `\[`, which Markdown shows the same, so jrnl never takes it for
/// the start of another entry. What jrnl has no place for (mood, fields, codings, strokes) is
/// left out: `export json` keeps it.
public struct JrnlExport: ExportFormat {
    public static let name = "jrnl"
    public static let summary = "a jrnl journal file (jrnl --import --file FILE reads it): dates, titles, bodies, tags, stars"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        var first = true
        try context.forEachWithBody(entries) { e in
            if !first { try out.write("\n") }
            first = false
            try out.write(JrnlExport.text(of: e))
        }
    }

    /// One entry as jrnl writes it in its journal file.
    static func text(of e: Entry) -> String {
        var head = "[" + timestamp(e.date) + "] " + (e.title.isEmpty ? e.id : e.title)
        if e.isStarred { head += " *" }
        var lines = EntryText.splitLines(e.body).map { line in line.hasPrefix("[") ? "\\" + line : line }
        while let last = lines.last, last.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { lines.removeLast() }
        var body = lines.joined()
        if !body.isEmpty, !body.hasSuffix("\n") { body += "\n" }
        let extra = e.frontTags.filter { !e.inlineTags.contains($0) }.map { "@" + $0 }
        if !extra.isEmpty { body += (body.isEmpty ? "" : "\n") + extra.joined(separator: " ") + "\n" }
        return head + "\n" + body
    }

    /// `%F %r` in the C locale: `2026-11-02 10:30:00 PM`, the entry's own wall-clock time.
    static func timestamp(_ d: LocalDateTime) -> String {
        let s = d.secondOfDay
        let hour = s / 3600, hour12 = hour % 12 == 0 ? 12 : hour % 12
        return d.day.description + String(format: " %02d:%02d:%02d ", hour12, (s / 60) % 60, s % 60) + (hour < 12 ? "AM" : "PM")
    }
}
