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
        let asked = FieldsAsked(diary: context.diary)
        try context.forEachWithBody(entries, prepare: { JSONExport.bytes(of: $0, pretty: true, notAsked: asked.notAsked(in: $0)) }) { json in
            try out.write(first ? "\n    " : ",\n    ")
            try out.write(bytes: json)
            first = false
        }
        try out.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// An entry with its body as JSON (`Entry.json`): one line, or pretty at the depth of the
    /// document's `entries` list. Formats call it on every core. `notAsked` are the template's
    /// fields its `when:` left out, listed as `not_asked` (a field missing from `fields` and not
    /// listed there was asked and not answered).
    static func bytes(of e: Entry, pretty: Bool, notAsked: [String] = []) -> [UInt8] {
        var w = JSONWriter(capacity: e.body.utf8.count + 1024)
        var json = e.json(includeBody: true)
        if !notAsked.isEmpty, case var .object(o) = json {
            o.append(("not_asked", .array(notAsked.map(JSONValue.string))))
            json = .object(o)
        }
        w.write(json, pretty: pretty, indent: pretty ? 2 : 0)
        return w.bytes
    }

    /// A pretty value nested one level deep.
    private func indented(_ v: JSONValue) -> String {
        v.serialized(pretty: true, indent: 1)
    }
}
