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
    /// An ordered list's first number; nil for a bullet list and every other node.
    public var listStart: Int? = nil
    /// A task list item's box: true when ticked; nil for every other node.
    public var taskChecked: Bool? = nil
    /// A table's header row.
    public var isHeader = false
    /// A table's columns as its delimiter row aligns them: "l", "c", "r", or "" for none.
    public var columnAlignments: [String] = []

    /// The text of this node and its descendants, as a reader sees it.
    public var plainText: String {
        switch kind {
        case .text, .code: return literal
        case .softBreak, .lineBreak: return " "
        default: return children.map(\.plainText).joined()
        }
    }
}

/// A link as written in Markdown: a link or image (cmark's), or a `[[…]]` link (daybook's, found
/// in cmark's text nodes, so none is seen in code, raw HTML or another link's destination).
public struct MarkdownLink: Sendable, Equatable {
    public enum Form: String, Sendable { case link, image, wiki }
    public var form: Form
    /// A link's or image's destination; for `[[…]]`, what stands before `|`, trimmed.
    public var destination: String
    /// The text a reader sees: the link's text, an image's description; for `[[…]]`, what
    /// follows `|`, trimmed (empty without one).
    public var label: String
    /// Where it is in the parsed text: 1-based lines and 1-based byte columns, the end column
    /// on its last byte (cmark's source positions); 0 where cmark does not know.
    public var startLine: Int, startColumn: Int, endLine: Int, endColumn: Int
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

    /// Every link, image and `[[…]]` link of `text`, in the order they start.
    public static func links(_ text: String) -> [MarkdownLink] {
        withDocument(text, options: CMARK_OPT_SOURCEPOS | CMARK_OPT_FOOTNOTES) { doc, _ in
            var out: [MarkdownLink] = []
            forEachNode(doc) { n in
                let t = cmark_node_get_type(n)
                guard t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE else { return }
                out.append(MarkdownLink(form: t == CMARK_NODE_IMAGE ? .image : .link,
                                        destination: cmark_node_get_url(n).map { String(cString: $0) } ?? "",
                                        label: flatText(n).trimmingCharacters(in: .newlines),
                                        startLine: Int(cmark_node_get_start_line(n)), startColumn: Int(cmark_node_get_start_column(n)),
                                        endLine: Int(cmark_node_get_end_line(n)), endColumn: Int(cmark_node_get_end_column(n))))
            }
            for w in wikiLinks(doc, source: Array(text.utf8)) {
                out.append(MarkdownLink(form: .wiki, destination: w.destination, label: w.label,
                                        startLine: w.line, startColumn: w.startColumn, endLine: w.line, endColumn: w.endColumn))
            }
            return out.sorted { ($0.startLine, $0.startColumn) < ($1.startLine, $1.startColumn) }
        }
    }

    /// What a `[[…]]` link becomes in HTML: its address and its text; nil leaves it as text.
    public typealias WikiTarget = (_ destination: String, _ label: String) -> (url: String, text: String)?
    /// What a link to nowhere becomes in HTML: nil keeps it, `.some(nil)` shows its text
    /// without a destination (in a `<span class="broken-link">`), else the new destination.
    public typealias LinkTarget = (_ url: String, _ isImage: Bool) -> String??

    /// The document as Swift values after the same passes as `html`: raw HTML becomes text
    /// (comments go), `target` gives links new destinations, `wiki` makes `[[…]]` links into
    /// links. For formats that lay the body out themselves (`export pdf`).
    public static func tree(_ text: String, target: LinkTarget? = nil, wiki: WikiTarget? = nil) -> MarkdownNode {
        withDocument(text, options: CMARK_OPT_SOURCEPOS | CMARK_OPT_FOOTNOTES) { doc, _ in
            escapeRawHTML(doc)
            if let target { retarget(doc, target) }
            if let wiki { makeWikiLinks(doc, source: Array(text.utf8), wiki) }
            return convert(doc)
        }
    }

    /// Renders `text` to HTML. Raw HTML in the text is shown as text unless `unsafe` is set.
    /// `target` may give a link's or image's destination another address (nil keeps it): an
    /// entry's links to other entries point to their pages, not to `.md` files; `wiki` makes
    /// `[[…]]` links into links.
    public static func html(_ text: String, unsafe: Bool = false, target: LinkTarget? = nil, wiki: WikiTarget? = nil) -> String {
        let options = CMARK_OPT_FOOTNOTES | CMARK_OPT_GITHUB_PRE_LANG | (unsafe ? CMARK_OPT_UNSAFE : 0)
        return withDocument(text, options: options | CMARK_OPT_SOURCEPOS) { doc, parser in
            if !unsafe { escapeRawHTML(doc) }
            if let target { retarget(doc, target) }
            if let wiki { makeWikiLinks(doc, source: Array(text.utf8), wiki) }
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

    /// Calls `body` with every node as cmark's iterator enters it; `body` must not change the tree.
    private static func forEachNode(_ doc: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        guard let iter = cmark_iter_new(doc) else { return }
        defer { cmark_iter_free(iter) }
        while cmark_iter_next(iter) != CMARK_EVENT_DONE {
            guard cmark_iter_get_event_type(iter) == CMARK_EVENT_ENTER, let n = cmark_iter_get_node(iter) else { continue }
            body(n)
        }
    }

    /// Sets every link's and image's destination to what `target` makes of it; a link to
    /// nowhere becomes its text in a `<span class="broken-link">`, an image its description.
    private static func retarget(_ doc: OpaquePointer, _ target: LinkTarget) {
        var broken: [OpaquePointer] = []
        forEachNode(doc) { n in
            let t = cmark_node_get_type(n)
            guard t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE,
                  let url = cmark_node_get_url(n).map({ String(cString: $0) }), let new = target(url, t == CMARK_NODE_IMAGE) else { return }
            if let new { cmark_node_set_url(n, new) } else { broken.append(n) }
        }
        for n in broken {
            guard let span = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { continue }
            let isImage = cmark_node_get_type(n) == CMARK_NODE_IMAGE
            cmark_node_set_on_enter(span, "<span class=\"broken-link\">")
            cmark_node_set_on_exit(span, "</span>")
            if isImage {
                let text = cmark_node_new(CMARK_NODE_TEXT)!
                cmark_node_set_literal(text, flatText(n))
                cmark_node_append_child(span, text)
            } else {
                while let child = cmark_node_first_child(n) { cmark_node_append_child(span, child) }
            }
            cmark_node_replace(n, span)
            cmark_node_free(n)
        }
    }

    /// A `[[…]]` link found in a text node: where it is in the node's text (UTF-8 offsets) and
    /// in the source (line, first and last byte's column).
    private struct WikiMatch {
        var node: OpaquePointer
        var inText: Range<Int>
        var destination: String
        var label: String
        var line: Int, startColumn: Int, endColumn: Int
    }

    /// The `[[…]]` links of a document: `[[`, text without brackets or a line break, `]]`, in a
    /// text node outside links (so never in code, raw HTML or a link's destination), and written
    /// so in the source: a bracket written `\[` or `&#91;` is text, not a link.
    private static func wikiLinks(_ doc: OpaquePointer, source: [UInt8]) -> [WikiMatch] {
        // Most texts have no `[[` at all: their text nodes are not looked at.
        guard source.withUnsafeBytes({ b -> Bool in
            guard let base = b.baseAddress else { return false }
            var at = 0
            while at + 1 < b.count, let hit = memchr(base + at, Int32(UInt8(ascii: "[")), b.count - 1 - at) {
                at = base.distance(to: hit) + 1
                if b[at] == UInt8(ascii: "[") { return true }
            }
            return false
        }) else { return [] }
        let lineStarts = Markdown.lineStarts(source)
        var cursor: [Int: Int] = [:] // per line, where the last link found on it ended
        var out: [WikiMatch] = []
        guard let iter = cmark_iter_new(doc) else { return [] }
        defer { cmark_iter_free(iter) }
        var insideLink = 0
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { break }
            guard let n = cmark_iter_get_node(iter) else { continue }
            let t = cmark_node_get_type(n)
            if t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE { insideLink += event == CMARK_EVENT_ENTER ? 1 : -1; continue }
            guard t == CMARK_NODE_TEXT, insideLink == 0, let lit = cmark_node_get_literal(n) else { continue }
            let text = Array(String(cString: lit).utf8)
            let line = Int(cmark_node_get_start_line(n))
            guard line >= 1, line <= lineStarts.count else { continue }
            let lineEnd = line < lineStarts.count ? lineStarts[line] - 1 : source.count
            let raw = source[lineStarts[line - 1]..<lineEnd]
            var from = 0
            while let (range, inner) = nextWikiLink(in: text, from: from) {
                from = range.upperBound
                // The same link as written on the node's line, at or after the node's start
                // (cmark's columns may fall short of it, never beyond) and the last link found.
                let searchStart = max(cursor[line] ?? raw.startIndex, raw.startIndex + max(0, Int(cmark_node_get_start_column(n)) - 1))
                guard let at = written(inner, in: raw, from: min(searchStart, raw.endIndex)) else { continue }
                cursor[line] = at.upperBound
                let innerText = String(decoding: inner, as: UTF8.self)
                let parts = innerText.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
                let destination = parts[0].trimmingCharacters(in: .whitespaces)
                guard !destination.isEmpty else { continue }
                out.append(WikiMatch(node: n, inText: range, destination: destination,
                                     label: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "",
                                     line: line, startColumn: at.lowerBound - raw.startIndex + 1, endColumn: at.upperBound - raw.startIndex))
            }
        }
        return out
    }

    /// Where each line of a text starts (UTF-8 offsets; the first is 0), found with memchr.
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        bytes.withUnsafeBytes { b in
            guard let base = b.baseAddress else { return }
            var at = 0
            while at < b.count, let hit = memchr(base + at, Int32(UInt8(ascii: "\n")), b.count - at) {
                at = base.distance(to: hit) + 1
                starts.append(at)
            }
        }
        return starts
    }

    /// The next `[[inner]]` in a text from `from`: its range and the inner bytes.
    private static func nextWikiLink(in text: [UInt8], from: Int) -> (Range<Int>, ArraySlice<UInt8>)? {
        let open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        var i = from
        while i + 4 < text.count {
            guard text[i] == open, text[i + 1] == open else { i += 1; continue }
            var j = i + 2
            while j < text.count, text[j] != open, text[j] != close, text[j] != UInt8(ascii: "\n") { j += 1 }
            if j + 1 < text.count, j > i + 2, text[j] == close, text[j + 1] == close { return (i..<(j + 2), text[(i + 2)..<j]) }
            i += 1
        }
        return nil
    }

    /// Where `[[inner]]` stands in a source line from `from`: `[[`, not after a backslash, then
    /// the inner text (a backslash before punctuation in it stands for the character), then `]]`.
    private static func written(_ inner: ArraySlice<UInt8>, in raw: ArraySlice<UInt8>, from: Int) -> Range<Int>? {
        let open = UInt8(ascii: "["), close = UInt8(ascii: "]"), backslash = UInt8(ascii: "\\")
        var i = from
        while i + 1 < raw.endIndex {
            defer { i += 1 }
            guard raw[i] == open, raw[i + 1] == open, i == raw.startIndex || raw[i - 1] != backslash else { continue }
            var j = i + 2, k = inner.startIndex
            while k < inner.endIndex, j < raw.endIndex {
                if raw[j] == backslash, j + 1 < raw.endIndex, raw[j + 1] == inner[k], raw[j + 1] != backslash { j += 1 }
                guard raw[j] == inner[k] else { break }
                j += 1; k += 1
            }
            if k == inner.endIndex, j + 1 < raw.endIndex, raw[j] == close, raw[j + 1] == close { return i..<(j + 2) }
        }
        return nil
    }

    /// Replaces each `[[…]]` link that `wiki` resolves with a link node, between the text before
    /// and after it.
    private static func makeWikiLinks(_ doc: OpaquePointer, source: [UInt8], _ wiki: WikiTarget) {
        // Last first, so that the text offsets of earlier links in the same node still hold.
        for w in wikiLinks(doc, source: source).reversed() {
            guard let (url, text) = wiki(w.destination, w.label), let lit = cmark_node_get_literal(w.node),
                  let link = cmark_node_new(CMARK_NODE_LINK), let label = cmark_node_new(CMARK_NODE_TEXT),
                  let after = cmark_node_new(CMARK_NODE_TEXT) else { continue }
            let bytes = Array(String(cString: lit).utf8)
            cmark_node_set_url(link, url)
            cmark_node_set_literal(label, text)
            cmark_node_append_child(link, label)
            cmark_node_set_literal(after, String(decoding: bytes[w.inText.upperBound...], as: UTF8.self))
            cmark_node_set_literal(w.node, String(decoding: bytes[..<w.inText.lowerBound], as: UTF8.self))
            cmark_node_insert_after(w.node, link)
            cmark_node_insert_after(link, after)
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
    static func flatText(_ top: OpaquePointer) -> String {
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
        case .text, .code, .codeBlock, .htmlBlock, .htmlInline, .footnoteReference, .footnoteDefinition:
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
        var node = MarkdownNode(kind: kind, literal: literal, url: url, startLine: Int(cmark_node_get_start_line(n)), children: children)
        if kind == .list, cmark_node_get_list_type(n) == CMARK_ORDERED_LIST { node.listStart = Int(cmark_node_get_list_start(n)) }
        if kind == .item, cmark_node_get_type_string(n).map({ String(cString: $0) }) == "tasklist" {
            node.taskChecked = cmark_gfm_extensions_get_tasklist_item_checked(n)
        }
        if kind == .tableRow { node.isHeader = cmark_gfm_extensions_get_table_row_is_header(n) != 0 }
        if kind == .table, let aligns = cmark_gfm_extensions_get_table_alignments(n) {
            node.columnAlignments = (0..<Int(cmark_gfm_extensions_get_table_columns(n))).map {
                aligns[$0] == 0 ? "" : String(UnicodeScalar(aligns[$0]))
            }
        }
        return node
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
