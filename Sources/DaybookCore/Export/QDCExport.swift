// `export qdc`: the codebook alone as a REFI-QDA codebook (QDA-XML codebook 1.0).
import Foundation

public struct QDCExport: ExportFormat {
    public static let name = "qdc"
    public static let summary = "the codebook alone, REFI-QDA codebook exchange (.qdc)"
    public static let destination = ExportDestinationKind.stream
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .stream(out) = destination else { return }
        let book = try context.codebook()
        guard let codes = REFIXML.codes(book, undefined: REFIXML.undefinedCodes(entries, book: book), indent: "  ") else {
            throw DaybookError.nothing("daybook: the codebook is empty and no entry is coded; nothing to export")
        }
        try out.write(REFIXML.header + "<CodeBook xmlns=\"urn:QDA-XML:codebook:1.0\" origin=\"daybook\">\n" + codes + "</CodeBook>\n")
    }
}
