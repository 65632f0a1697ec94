// `export csv`: RFC 4180 rows, one per entry (with a column per other field) or, with --codings, one per coding.
import Foundation

public struct CSVExport: ExportFormat {
    public static let name = "csv"
    public static let summary = "RFC 4180 CSV, one row per entry; --codings: one row per coding"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    /// `mood_scale` is the scale the row's mood is on (`1-10` for an emotion entry), as `mood 7/10` says it.
    public static let entryColumns = ["id", "date", "title", "tags", "mood", "mood_scale", "words", "codes"]
    public static let codingColumns = ["entry", "date", "title", "code", "category", "quote", "memo", "coder"]

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        if context.options.codings { return try exportCodings(entries, context: context, to: out) }
        // The other fields' columns: every key any exported entry has, in the order first seen.
        var fieldKeys: [String] = []
        var seen = Set(CSVExport.entryColumns)
        for e in entries { for (k, _) in e.fields where seen.insert(k).inserted { fieldKeys.append(k) } }
        // An empty cell is a question not answered; a `not_asked` column (when some entry has
        // one) names the fields a template's `when:` left out, so the two are told apart.
        let asked = FieldsAsked(diary: context.diary)
        let notAsked = asked.isEmpty ? [] : entries.map { asked.notAsked(in: $0) }
        // A template with conditions has a column for each of its fields, answered by any entry or not.
        for e in entries { for k in asked.declared(by: e) where seen.insert(k).inserted { fieldKeys.append(k) } }
        let notAskedColumn = notAsked.contains { !$0.isEmpty }
        try out.write(CSVExport.row(CSVExport.entryColumns + fieldKeys + (notAskedColumn ? ["not_asked"] : [])))
        let moodScales = context.diary.moodScales
        for (i, e) in entries.enumerated() {
            var cells = [e.id, e.date.description, e.title, e.tags.joined(separator: ";"), e.mood.map(String.init) ?? "",
                         e.mood == nil ? "" : MoodScales.text(moodScales.scale(of: e)), String(e.words), unique(e.codings.map(\.code)).joined(separator: ";")]
            cells += fieldKeys.map { key in e.fields.first { $0.0 == key }.map { CSVExport.cell($0.1) } ?? "" }
            if notAskedColumn { cells.append(notAsked[i].joined(separator: ";")) }
            try out.write(CSVExport.row(cells))
            context.progress(i + 1, entries.count)
        }
    }

    private func exportCodings(_ entries: [Entry], context: ExportContext, to out: TextSink) throws {
        _ = try context.codebook() // a broken codebook.yml is an error here, not an empty column
        try out.write(CSVExport.row(CSVExport.codingColumns))
        // Who made a coding that names no one: the same rule as the QDPX export (`Coding.madeBy`).
        let defaultCoder = context.defaultCoder
        for (i, e) in entries.enumerated() {
            for c in e.codings {
                let coder = c.madeBy(defaultCoder: defaultCoder) ?? ""
                try out.write(CSVExport.row([e.id, e.date.description, e.title, c.code, context.codeCategoryPath(c.code) ?? "",
                                             c.quote ?? "", c.memo ?? "", coder]))
            }
            context.progress(i + 1, entries.count)
        }
    }

    private func unique(_ xs: [String]) -> [String] {
        var seen = Set<String>()
        return xs.filter { seen.insert($0).inserted }
    }

    /// A field value as one cell: scalars as written, lists of scalars joined with `;`, the rest as JSON.
    public static func cell(_ v: JSONValue) -> String {
        switch v {
        case .null: return ""
        case let .array(items) where items.allSatisfy({ $0.stringValue != nil }):
            return items.compactMap(\.stringValue).joined(separator: ";")
        default: return v.stringValue ?? v.serialized()
        }
    }

    /// One RFC 4180 record: cells quoted when they hold a comma, quote, CR or LF; CRLF at the end.
    public static func row(_ cells: [String]) -> String {
        cells.map(field).joined(separator: ",") + "\r\n"
    }

    /// One RFC 4180 field: quoted when it holds a comma, quote, CR or LF.
    public static func field(_ c: String) -> String {
        c.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            ? "\"" + c.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : c
    }
}
