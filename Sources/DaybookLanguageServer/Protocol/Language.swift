// LSP 3.17's language features as daybook answers them: diagnostics, completion, code actions,
// hover, symbols, inlay hints, highlights, colours.
import DaybookCore
import Foundation

struct LSPDiagnostic: Codable, Equatable {
    struct Related: Codable, Equatable {
        var location: Location
        var message: String
    }

    var range: LSPRange
    /// 1 error, 2 warning, 3 information, 4 hint.
    var severity: Int
    var source = "daybook"
    var message: String
    var relatedInformation: [Related]?
    /// `{"undefinedCode": NAME}` for a code the quick fix can define.
    var data: JSONValue?
}

struct PublishDiagnosticsParams: Encodable {
    var uri: String
    var version: Int?
    var diagnostics: [LSPDiagnostic]
}

struct CompletionItem: Encodable {
    var label: String
    /// 5 field, 10 property, 12 value, 13 enum, 14 keyword, 17 file, 20 enum member.
    var kind: Int?
    var detail: String?
    var documentation: MarkupContent?
    var sortText: String?
    var filterText: String?
    var textEdit: TextEdit?
}

struct CompletionList: Encodable {
    var isIncomplete = false
    var items: [CompletionItem]
}

struct CodeActionParams: Decodable {
    struct Context: Decodable {
        var diagnostics: [LSPDiagnostic]
    }

    var textDocument: TextDocumentIdentifier
    var range: LSPRange
    var context: Context
}

struct CodeAction: Encodable {
    var title: String
    var kind: String
    var diagnostics: [LSPDiagnostic]?
    var isPreferred: Bool?
    var edit: WorkspaceEdit?
    var command: Command?
}

struct ExecuteCommandParams: Decodable {
    var command: String
    var arguments: [JSONValue]?
}

struct ApplyWorkspaceEditParams: Encodable {
    var label: String
    var edit: WorkspaceEdit
}

struct Hover: Encodable {
    var contents: MarkupContent
    var range: LSPRange?
}

struct WorkspaceSymbolParams: Decodable {
    var query: String
}

struct SymbolInformation: Encodable {
    var name: String
    /// 1 file.
    var kind = 1
    var location: Location
    var containerName: String?
}

struct InlayHint: Encodable {
    var position: Position
    var label: String
    var paddingLeft = true
    var tooltip: String?
}

struct DocumentHighlight: Encodable {
    var range: LSPRange
    /// 1 text.
    var kind = 1
}

struct Color: Codable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double
}

struct ColorInformation: Encodable {
    var range: LSPRange
    var color: Color
}

struct ColorPresentationParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var color: Color
    var range: LSPRange
}

struct ColorPresentation: Encodable {
    var label: String
}

struct DocumentLink: Encodable {
    var range: LSPRange
    var target: String
    var tooltip: String?
}

struct DocumentSymbol: Encodable {
    var name: String
    var detail: String?
    /// 15 string (a heading).
    var kind: Int
    var range: LSPRange
    var selectionRange: LSPRange
    var children: [DocumentSymbol]
}

struct ReferenceParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var position: Position
}

/// The part of the client's capabilities the server reads.
struct InitializeParams: Decodable {
    struct Capabilities: Decodable {
        struct TextDocument: Decodable {
            struct Rename: Decodable { var prepareSupport: Bool? }
            var rename: Rename?
        }
        var textDocument: TextDocument?
    }
    var capabilities: Capabilities?
}

struct PrepareRenameResult: Encodable {
    var range: LSPRange
    var placeholder: String
}

struct RenameParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var position: Position
    var newName: String
}
