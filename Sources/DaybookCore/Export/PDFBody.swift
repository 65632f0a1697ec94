// An entry's Markdown as the typesetter's blocks: the tree from Markdown/, coded segments as highlights.
import Foundation

/// Turns the Markdown tree of a body into blocks, as the HTML export shows it: headings one
/// level below the entry's title, quotes with bars, lists with bullets, numbers and boxes, code
/// on grey, tables, footnotes at the end. Coded segments arrive as private-use markers in the
/// text (`CodedSegmentMarker`'s) and become highlights in the code's colour with its name in the
/// margin where the segment starts.
struct PDFBody {
    /// The address of a link that goes to a place inside the PDF.
    static let anchorScheme = "daybook-pdf-anchor:"
    /// The address of an image file among the entry's attachments (its absolute path follows).
    static let fileScheme = "daybook-pdf-file:"
    /// The image types the typesetter embeds.
    static let embeddable: Set<String> = ["png", "jpg", "jpeg"]

    /// The attachments' images the body showed (absolute paths), so the list after it does not repeat them.
    private(set) var shownImages: Set<String> = []

    var segments: [CodedSegment] = []
    private var open: [Int] = []
    private var footnotes: [String: Int] = [:]
    private var definitions = 0
    private var footnoteBlocks: [TypesetBlock] = []

    init(segments: [CodedSegment]) { self.segments = segments }

    mutating func blocks(_ doc: MarkdownNode) -> [TypesetBlock] {
        var out: [TypesetBlock] = []
        for child in doc.children { block(child, indent: 0, quote: 0, into: &out) }
        if !footnoteBlocks.isEmpty {
            var rule = TypesetBlock(.rule)
            rule.spaceBefore = 4
            out.append(rule)
            out += footnoteBlocks
        }
        return out
    }

    private mutating func block(_ n: MarkdownNode, indent: Double, quote: Int, into out: inout [TypesetBlock]) {
        func add(_ b: TypesetBlock) {
            var b = b
            b.indent += indent
            b.quoteDepth = quote
            out.append(b)
        }
        switch n.kind {
        case .paragraph where !n.children.isEmpty && n.children.allSatisfy({ $0.kind == .image && image($0) != nil || $0.kind == .softBreak || $0.kind == .lineBreak }):
            // A paragraph of attachments' images (as `new --attach` writes them): the pictures themselves.
            for c in n.children {
                guard let path = image(c) else { continue }
                shownImages.insert(path)
                var b = TypesetBlock(.image(TypesetImage(path: path, caption: c.plainText)))
                b.spaceAfter = 2
                add(b)
                var caption = TypesetBlock(.text(StyledText(c.plainText.isEmpty ? (path as NSString).lastPathComponent : c.plainText,
                                                            TextStyle(italic: true, color: RGB.gray))), font: .small)
                caption.spaceAfter = 6
                add(caption)
            }
        case .paragraph:
            var b = TypesetBlock(.text(inline(n.children)))
            b.spaceAfter = 6
            add(b)
        case let .heading(level):
            var b = TypesetBlock(.text(inline(n.children)), font: .heading(min(6, level + 1)))
            b.spaceBefore = 6
            b.spaceAfter = 4
            b.keepWithNext = true
            add(b)
        case .blockQuote:
            var inner: [TypesetBlock] = []
            for c in n.children { block(c, indent: 0, quote: 0, into: &inner) }
            for var b in inner {
                b.indent += indent + 14
                b.quoteDepth += quote + 1
                if case var .text(t) = b.content {
                    t.runs.insert((0..<t.text.utf8.count, TextStyle(color: RGB(r: 0.25, g: 0.27, b: 0.3))), at: 0)
                    b.content = .text(t)
                }
                out.append(b)
            }
        case .list:
            var number = n.listStart ?? 1
            for item in n.children {
                var mark: StyledText
                if let checked = item.taskChecked { mark = StyledText(checked ? "☑" : "☐") }
                else if n.listStart != nil { mark = StyledText("\(number).") }
                else { mark = StyledText(["•", "◦", "▪"][min(2, Int(indent / 22) % 3)]) }
                number += 1
                var inner: [TypesetBlock] = []
                for c in item.children { block(c, indent: 0, quote: 0, into: &inner) }
                if inner.isEmpty { inner.append(TypesetBlock(.text(StyledText(" ")))) }
                for (i, var b) in inner.enumerated() {
                    b.indent += indent + 22
                    b.quoteDepth += quote
                    if i == 0 { b.marker = mark }
                    b.spaceAfter = min(b.spaceAfter, 3)
                    out.append(b)
                }
            }
            if var last = out.popLast() { last.spaceAfter = 6; out.append(last) }
        case .codeBlock:
            var text = n.literal
            if text.hasSuffix("\n") { text.removeLast() }
            var b = TypesetBlock(.text(StyledText(text.isEmpty ? " " : text)), font: .mono)
            b.fill = RGB.light
            b.spaceBefore = 2
            b.spaceAfter = 8
            add(b)
        case .htmlBlock:
            add(TypesetBlock(.text(StyledText(n.literal, TextStyle(mono: true)))))
        case .thematicBreak:
            add(TypesetBlock(.rule))
        case .table:
            var rows: [[StyledText]] = []
            var header: [Bool] = []
            for row in n.children {
                rows.append(row.children.map { inline($0.children) })
                header.append(row.isHeader)
            }
            var b = TypesetBlock(.table(rows: rows, header: header, align: n.columnAlignments))
            b.spaceAfter = 8
            add(b)
        case .footnoteDefinition:
            // cmark puts the definitions at the end in the order they are first referred to.
            definitions += 1
            let number = definitions
            var inner: [TypesetBlock] = []
            for c in n.children { block(c, indent: 0, quote: 0, into: &inner) }
            for (i, var b) in inner.enumerated() {
                b.indent += 22
                b.font = b.font == .body ? .small : b.font
                if i == 0 { b.marker = StyledText("\(number)") }
                b.spaceAfter = 3
                footnoteBlocks.append(b)
            }
        default:
            if !n.children.isEmpty {
                if n.children.allSatisfy(isInline) { add(TypesetBlock(.text(inline(n.children)))) }
                else { for c in n.children { block(c, indent: indent, quote: quote, into: &out) } }
            } else if !n.literal.isEmpty {
                add(TypesetBlock(.text(StyledText(n.literal))))
            }
        }
    }

    /// The absolute path of an image node's file when it is an attachment the typesetter can embed.
    private func image(_ n: MarkdownNode) -> String? {
        guard n.url.hasPrefix(PDFBody.fileScheme) else { return nil }
        let path = String(n.url.dropFirst(PDFBody.fileScheme.count))
        return PDFBody.embeddable.contains((path as NSString).pathExtension.lowercased()) ? path : nil
    }

    private func isInline(_ n: MarkdownNode) -> Bool {
        switch n.kind {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .emphasis, .strong, .link, .image, .footnoteReference, .strikethrough: return true
        default: return false
        }
    }

    private mutating func footnoteNumber(_ label: String) -> Int {
        if let n = footnotes[label] { return n }
        footnotes[label] = footnotes.count + 1
        return footnotes.count
    }

    // MARK: Inline

    mutating func inline(_ nodes: [MarkdownNode]) -> StyledText {
        var out = StyledText()
        for n in nodes { inline(n, style: TextStyle(), into: &out) }
        return out
    }

    private mutating func inline(_ n: MarkdownNode, style: TextStyle, into out: inout StyledText) {
        var style = style
        switch n.kind {
        case .text, .htmlInline: text(n.literal, style, into: &out)
        case .softBreak: text(" ", style, into: &out)
        case .lineBreak: text("\u{2028}", style, into: &out)
        case .code:
            style.mono = true
            if style.background == nil { style.background = RGB.light }
            text(n.literal, style, into: &out)
        case .emphasis: style.italic = true
        case .strong: style.bold = true
        case .strikethrough: style.strike = true
        case .link:
            if n.url.hasPrefix(PDFBody.anchorScheme) { style.link = .anchor(String(n.url.dropFirst(PDFBody.anchorScheme.count))) }
            else if PDFBody.isWebAddress(n.url) { style.link = .uri(n.url) }
        case .image:
            // An image in the body stands as its description; attachments' images follow the body.
            var alt = StyledText()
            for c in n.children { inline(c, style: TextStyle(italic: true, color: RGB.gray), into: &alt) }
            out.append("[image: ", TextStyle(italic: true, color: RGB.gray))
            out.append(alt)
            out.append("]", TextStyle(italic: true, color: RGB.gray))
            return
        case .footnoteReference:
            style.superscript = true
            text("\(footnoteNumber(n.literal))", style, into: &out)
            return
        default: break
        }
        for c in n.children { inline(c, style: style, into: &out) }
    }

    static func isWebAddress(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
    }

    /// Text with coded segments' markers taken out: what lies inside open segments is highlighted
    /// in the innermost one's colour, and each segment's start carries its code's name.
    private mutating func text(_ s: String, _ style: TextStyle, into out: inout StyledText) {
        guard !segments.isEmpty else { return out.append(s, style) }
        var run = ""
        func flush(_ out: inout StyledText) {
            guard !run.isEmpty else { return }
            var st = style
            if let i = open.last { st.background = RGB(hex: segments[i].color)?.tint(0.68) ?? st.background }
            out.append(run, st)
            run = ""
        }
        for u in s.unicodeScalars {
            guard u.value >= CodedSegmentMarker.startBase && u.value < CodedSegmentMarker.startBase + 0x10000 else {
                run.unicodeScalars.append(u)
                continue
            }
            flush(&out)
            let isStart = u.value < CodedSegmentMarker.endBase
            let i = Int(u.value - (isStart ? CodedSegmentMarker.startBase : CodedSegmentMarker.endBase))
            guard i < segments.count else { continue }
            if isStart {
                open.append(i)
                out.note(segments[i].code, color: RGB(hex: segments[i].color) ?? RGB.gray)
            } else {
                open.removeAll { $0 == i }
            }
        }
        flush(&out)
    }
}
