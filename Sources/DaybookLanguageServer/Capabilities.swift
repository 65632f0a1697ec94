// What `daybook lsp` tells the editor it can do, and the names of its commands.
import DaybookCore
import Foundation

enum Capabilities {
    static let codeAs = "daybook.codeAs"
    static let defineCode = "daybook.defineCode"

    /// `prepareRename` is offered only to a client that says it supports it, as the protocol asks.
    static func initializeResult(prepareRename: Bool) -> JSONValue {
        .object([
            ("capabilities", .object([
                ("positionEncoding", .string("utf-16")),
                ("textDocumentSync", .object([
                    ("openClose", .bool(true)),
                    ("change", .int(2)), // incremental; full text is taken too
                    ("save", .object([("includeText", .bool(false))])),
                ])),
                ("completionProvider", .object([("triggerCharacters", .array(["#", ":", " ", "[", ",", "-"].map(JSONValue.string)))])),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix"), .string("refactor")]))])),
                ("executeCommandProvider", .object([("commands", .array([.string(codeAs), .string(defineCode)]))])),
                ("hoverProvider", .bool(true)),
                ("definitionProvider", .bool(true)),
                ("referencesProvider", .bool(true)),
                ("documentLinkProvider", .object([("resolveProvider", .bool(false))])),
                ("documentSymbolProvider", .bool(true)),
                ("renameProvider", prepareRename ? .object([("prepareProvider", .bool(true))]) : .bool(true)),
                ("workspaceSymbolProvider", .bool(true)),
                ("inlayHintProvider", .bool(true)),
                ("documentHighlightProvider", .bool(true)),
                ("colorProvider", .bool(true)),
            ])),
            ("serverInfo", .object([("name", .string("daybook"))])),
        ])
    }
}
