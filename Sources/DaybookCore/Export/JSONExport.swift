// `export json`: {"diary": {...}, "codebook": {...}, "entries": [entry with body]}, one entry at a time.
import Foundation

public struct JSONExport: ExportFormat {
    public static let name = "json"
    public static let summary = "one JSON document: {\"diary\", \"codebook\", \"entries\": [...]}"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        try out.write("{\n  \"diary\": " + indented(context.diaryJSON) + ",\n")
        try out.write("  \"codebook\": " + indented(try context.codebookJSON()) + ",\n")
        try out.write("  \"entries\": [")
        for (i, e) in entries.enumerated() {
            try out.write((i == 0 ? "\n    " : ",\n    ") + e.json(includeBody: true).serialized(pretty: true)
                .replacingOccurrences(of: "\n", with: "\n    "))
            context.progress(i + 1, entries.count)
        }
        try out.write(entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// A pretty value nested one level deep.
    private func indented(_ v: JSONValue) -> String {
        v.serialized(pretty: true).replacingOccurrences(of: "\n", with: "\n  ")
    }
}
