// LSP 3.17's text synchronisation messages: open, change (full or incremental), save, close.
import Foundation

struct DidOpenParams: Decodable {
    var textDocument: TextDocumentItem
}

struct DidChangeParams: Decodable {
    struct Change: Decodable {
        /// Absent: `text` is the whole document.
        var range: LSPRange?
        var text: String
    }

    var textDocument: VersionedTextDocumentIdentifier
    var contentChanges: [Change]
}

struct DidSaveParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var text: String?
}

struct DidCloseParams: Decodable {
    var textDocument: TextDocumentIdentifier
}

struct TextDocumentParams: Decodable {
    var textDocument: TextDocumentIdentifier
}

struct TextDocumentPositionParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var position: Position
}

struct TextDocumentRangeParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var range: LSPRange
}
