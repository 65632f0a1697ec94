// `export jsonl`: one entry (with its body) per line, streamed; `import jsonl` reads it back.
import Foundation

public struct JSONLinesExport: ExportFormat {
    public static let name = "jsonl"
    public static let summary = "JSON Lines, one entry with its body per line (import jsonl reads it back)"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        let asked = FieldsAsked(diary: context.diary)
        try context.forEachWithBody(entries, prepare: { e -> [UInt8] in
            var line = JSONExport.bytes(of: e, pretty: false, notAsked: asked.notAsked(in: e))
            line.append(0x0A)
            return line
        }) { try out.write(bytes: $0) }
    }
}
