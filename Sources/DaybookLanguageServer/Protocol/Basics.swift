// LSP 3.17's basic structures: positions (UTF-16 code units), ranges, locations, text edits.
// (The protocol's types are grouped by area, one file each, as the specification groups them.)
import DaybookCore
import Foundation

struct Position: Codable, Equatable, Comparable {
    /// 0-based line.
    var line: Int
    /// 0-based offset in UTF-16 code units within the line.
    var character: Int

    static func < (a: Position, b: Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
}

struct LSPRange: Codable, Equatable {
    var start: Position
    var end: Position
}

struct Location: Codable, Equatable {
    var uri: String
    var range: LSPRange
}

struct TextDocumentIdentifier: Codable {
    var uri: String
}

struct TextDocumentItem: Codable {
    var uri: String
    var languageId: String?
    var version: Int?
    var text: String
}

struct VersionedTextDocumentIdentifier: Codable {
    var uri: String
    var version: Int?
}

struct TextEdit: Codable, Equatable {
    var range: LSPRange
    var newText: String
}

struct WorkspaceEdit: Codable, Equatable {
    var changes: [String: [TextEdit]]
}

struct Command: Codable {
    var title: String
    var command: String
    var arguments: [JSONValue]?
}

struct MarkupContent: Codable {
    var kind = "markdown"
    var value: String
}
