// `export markdown`: the entries as one Markdown document, each under its own heading.
import Foundation

public struct MarkdownExport: ExportFormat {
    public static let name = "markdown"
    public static let summary = "one Markdown document, an entry per section, headings of entries moved two levels down"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        try out.write("# " + context.diaryName + "\n")
        let moodScales = context.diary.moodScales
        try context.forEachWithBody(entries) { e in
            let time = String(format: "%02d:%02d", e.date.hour, e.date.minute)
            try out.write("\n## \(e.date.day) \(time) · \(e.title.isEmpty ? e.id : e.title)\n\n")
            var meta: [String] = []
            if !e.tags.isEmpty { meta.append(e.tags.map { "#" + $0 }.joined(separator: " ")) }
            // On the entry's own scale (issue 43: an emotion entry's 7 said 7/5 here).
            if let m = moodScales.label(of: e) { meta.append(m) }
            let codes = e.codings.map { c in c.quote.map { "\(c.code) (“\($0)”)" } ?? c.code }
            if !codes.isEmpty { meta.append("codes: " + codes.joined(separator: ", ")) }
            if !meta.isEmpty { try out.write("*" + meta.joined(separator: " · ") + "*\n\n") }
            let body = MarkdownExport.demotingHeadings(e.body, by: 2)
            try out.write(body.hasSuffix("\n") ? body : body + "\n")
        }
    }

    /// The body with its ATX headings moved `levels` down (at most to level 6), so they nest under the entry's heading.
    static func demotingHeadings(_ body: String, by levels: Int) -> String {
        var headingLines = Set<Int>()
        func collect(_ n: MarkdownNode) {
            if case .heading = n.kind { headingLines.insert(n.startLine) }
            n.children.forEach(collect)
        }
        collect(Markdown.parse(body))
        guard !headingLines.isEmpty else { return body }
        var lines = EntryText.splitLines(body)
        for i in lines.indices where headingLines.contains(i + 1) {
            let trimmed = lines[i].drop { $0 == " " }
            guard trimmed.hasPrefix("#") else { continue } // a setext heading keeps its level
            let level = trimmed.prefix { $0 == "#" }.count
            lines[i] = String(repeating: "#", count: min(6, level + levels) - level) + trimmed
        }
        return lines.joined()
    }
}
