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
        var first = true
        try context.forEachWithBody(entries) { e in
            try out.write((first ? "\n    " : ",\n    ") + e.json(includeBody: true).serialized(pretty: true, indent: 2))
            first = false
        }
        try out.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// A pretty value nested one level deep.
    private func indented(_ v: JSONValue) -> String {
        v.serialized(pretty: true, indent: 1)
    }
}
