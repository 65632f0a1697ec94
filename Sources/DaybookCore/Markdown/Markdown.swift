// The one place that calls cmark-gfm: parse Markdown into Swift values, render HTML, free the tree.
import Foundation
import CCmarkGFM

/// A Markdown node as a plain Swift value: no C pointer outlives a call into this file.
public struct MarkdownNode: Sendable {
    public enum Kind: Sendable, Equatable {
        case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading(level: Int)
        case thematicBreak, footnoteDefinition, table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image
        case footnoteReference, strikethrough, other
    }

    public var kind: Kind
    /// Text of leaf nodes (text, code, code blocks, HTML).
    public var literal: String
    /// Destination of links and images.
    public var url: String
    /// 1-based line in the parsed text where the node starts (0 when cmark does not know).
    public var startLine: Int
    public var children: [MarkdownNode]

    /// The text of this node and its descendants, as a reader sees it.
    public var plainText: String {
        switch kind {
        case .text, .code: return literal
        case .softBreak, .lineBreak: return " "
        default: return children.map(\.plainText).joined()
        }
    }
}

public enum Markdown {
    static let extensions = ["table", "strikethrough", "tasklist", "autolink"]

    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// Parses `text` with the GFM extensions and returns the document as Swift values.
    public static func parse(_ text: String) -> MarkdownNode {
        withDocument(text, options: CMARK_OPT_SOURCEPOS | CMARK_OPT_FOOTNOTES) { doc, _ in convert(doc) }
    }

    /// Renders `text` to HTML. Raw HTML in the text is shown as text unless `unsafe` is set.
    /// `target` may give a link's or image's destination another address (nil keeps it): an
    /// entry's links to other entries point to their pages, not to `.md` files.
    public static func html(_ text: String, unsafe: Bool = false, target: ((_ url: String, _ isImage: Bool) -> String?)? = nil) -> String {
        let options = CMARK_OPT_FOOTNOTES | CMARK_OPT_GITHUB_PRE_LANG | (unsafe ? CMARK_OPT_UNSAFE : 0)
        return withDocument(text, options: options) { doc, parser in
            if !unsafe { escapeRawHTML(doc) }
            if let target { retarget(doc, target) }
            guard let cstr = cmark_render_html(doc, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
            defer { free(cstr) }
            return String(cString: cstr)
        }
    }

    private static func withDocument<T>(_ text: String, options: Int32,
                                        _ body: (OpaquePointer, OpaquePointer?) -> T) -> T {
        _ = registered
        guard let parser = cmark_parser_new(options) else { return body(cmark_node_new(CMARK_NODE_DOCUMENT)!, nil) }
        defer { cmark_parser_free(parser) }
        for name in extensions {
            if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
        }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buf.count, 1)) {
                cmark_parser_feed(parser, $0, buf.count)
            }
        }
        let doc = cmark_parser_finish(parser)!
        defer { cmark_node_free(doc) }
        return body(doc, parser)
    }

    /// Sets every link's and image's destination to what `target` makes of it.
    private static func retarget(_ doc: OpaquePointer, _ target: (String, Bool) -> String?) {
        guard let iter = cmark_iter_new(doc) else { return }
        defer { cmark_iter_free(iter) }
        while cmark_iter_next(iter) != CMARK_EVENT_DONE {
            guard let n = cmark_iter_get_node(iter) else { continue }
            let t = cmark_node_get_type(n)
            guard t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE, cmark_iter_get_event_type(iter) == CMARK_EVENT_ENTER,
                  let url = cmark_node_get_url(n).map({ String(cString: $0) }), let new = target(url, t == CMARK_NODE_IMAGE) else { continue }
            cmark_node_set_url(n, new)
        }
    }

    /// Raw HTML becomes literal text, so `<script>` in an entry is shown, never run; comments go.
    private static func escapeRawHTML(_ doc: OpaquePointer) {
        var found: [OpaquePointer] = []
        // cmark's iterator, not recursion: a quote nested 12,000 deep would overflow the stack.
        guard let iter = cmark_iter_new(doc) else { return }
        defer { cmark_iter_free(iter) }
        while cmark_iter_next(iter) != CMARK_EVENT_DONE {
            guard let n = cmark_iter_get_node(iter) else { continue }
            let t = cmark_node_get_type(n)
            if t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK { found.append(n) }
        }
        for node in found {
            let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            // A comment (templates carry prompts as comments) is invisible in any browser: drop it.
            let trimmed = literal.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("<!--") && trimmed.hasSuffix("-->") && !trimmed.dropFirst(4).dropLast(3).contains("-->") {
                cmark_node_unlink(node)
                cmark_node_free(node)
                continue
            }
            let text = cmark_node_new(CMARK_NODE_TEXT)!
            cmark_node_set_literal(text, literal.hasSuffix("\n") ? String(literal.dropLast()) : literal)
            if cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK {
                let para = cmark_node_new(CMARK_NODE_PARAGRAPH)!
                cmark_node_append_child(para, text)
                cmark_node_replace(node, para)
            } else {
                cmark_node_replace(node, text)
            }
            cmark_node_free(node)
        }
    }

    /// How deep the Swift tree goes. Deeper blocks (a quote in a quote … 12,000 times) are read as
    /// the plain text they hold, so that every walk of the tree (words, tags, exports) stays
    /// within the stack; their words and tags still count.
    public static let maxDepth = 64

    /// Builds the Swift tree with cmark's iterator and a stack of its own: no recursion, however
    /// deep the document nests.
    private static func convert(_ root: OpaquePointer) -> MarkdownNode {
        guard let iter = cmark_iter_new(root) else { return node(root, children: []) }
        defer { cmark_iter_free(iter) }
        var stack: [MarkdownNode] = []
        var done: MarkdownNode?
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { break }
            guard let n = cmark_iter_get_node(iter) else { continue }
            if event == CMARK_EVENT_ENTER {
                if isLeaf(n) {
                    let leaf = node(n, children: [])
                    if stack.isEmpty { done = leaf } else { stack[stack.count - 1].children.append(leaf) }
                } else if stack.count >= maxDepth {
                    let flat = MarkdownNode(kind: .paragraph, literal: "", url: "", startLine: Int(cmark_node_get_start_line(n)),
                                            children: [MarkdownNode(kind: .text, literal: flatText(n), url: "", startLine: 0, children: [])])
                    stack[stack.count - 1].children.append(flat)
                    // On to the node after this one: its subtree has been read.
                    cmark_iter_reset(iter, n, CMARK_EVENT_EXIT)
                } else {
                    stack.append(node(n, children: []))
                }
            } else if event == CMARK_EVENT_EXIT, !isLeaf(n) {
                guard let finished = stack.popLast() else { continue }
                if stack.isEmpty { done = finished } else { stack[stack.count - 1].children.append(finished) }
            }
        }
        return done ?? node(root, children: [])
    }

    /// Whether cmark's iterator visits the node once (no exit event).
    private static func isLeaf(_ n: OpaquePointer) -> Bool {
        switch cmark_node_get_type(n) {
        case CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_CODE_BLOCK, CMARK_NODE_TEXT,
             CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
            return true
        default:
            return false
        }
    }

    /// The text a reader sees in a subtree: text and code spans, a space for a line break, a new
    /// line between blocks. Code blocks and raw HTML hold no prose (as in `Prose`).
    private static func flatText(_ top: OpaquePointer) -> String {
        guard let iter = cmark_iter_new(top) else { return "" }
        defer { cmark_iter_free(iter) }
        var text = ""
        while cmark_iter_next(iter) != CMARK_EVENT_DONE {
            guard let n = cmark_iter_get_node(iter) else { continue }
            switch cmark_node_get_type(n) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += cmark_node_get_literal(n).map { String(cString: $0) } ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING: if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
            default: break
            }
        }
        return text
    }

    /// One node as a Swift value with the given children.
    private static func node(_ n: OpaquePointer, children: [MarkdownNode]) -> MarkdownNode {
        let type = cmark_node_get_type(n)
        var kind = kindOf(type, n)
        var literal = ""
        switch kind {
        case .text, .code, .codeBlock, .htmlBlock, .htmlInline:
            literal = cmark_node_get_literal(n).map { String(cString: $0) } ?? ""
        default: break
        }
        var url = ""
        if kind == .link || kind == .image { url = cmark_node_get_url(n).map { String(cString: $0) } ?? "" }
        if kind == .other, let name = cmark_node_get_type_string(n).map({ String(cString: $0) }) {
            switch name {
            case "table": kind = .table
            case "table_row", "table_header": kind = .tableRow
            case "table_cell": kind = .tableCell
            case "strikethrough": kind = .strikethrough
            default: break
            }
        }
        return MarkdownNode(kind: kind, literal: literal, url: url, startLine: Int(cmark_node_get_start_line(n)), children: children)
    }

    private static func kindOf(_ t: cmark_node_type, _ n: OpaquePointer) -> MarkdownNode.Kind {
        switch t {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(n)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_FOOTNOTE_DEFINITION: return .footnoteDefinition
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        case CMARK_NODE_FOOTNOTE_REFERENCE: return .footnoteReference
        default: return .other
        }
    }
}
