// The one place that calls Pango and Cairo: blocks laid out line by line onto PDF pages.
import Foundation
import CPangoCairo

/// Lays out blocks on pages and writes the PDF. Pango shapes the text (every script, right to
/// left where the text is) and breaks lines; Cairo draws vectors and embeds subsets of the fonts.
/// The document is laid out twice: the first pass finds the page of every anchor, so the
/// contents can give page numbers and links can point forward.
final class PDFTypesetter {
    struct Result {
        var pages: Int
        /// Each anchor's page (1-based).
        var anchors: [String: Int]
    }

    let paper: Paper
    let title: String
    /// When the document was made (ISO 8601), for its metadata: the caller's clock, so the same
    /// diary at the same time gives the same bytes.
    var created: String?
    let margin = (top: 64.0, bottom: 62.0, left: 64.0, right: 76.0)

    init(paper: Paper, title: String) {
        self.paper = paper
        self.title = title
    }

    var contentWidth: Double { paper.size.width - margin.left - margin.right }

    /// A JPEG's size (width, height) from its frame header; nil for anything else.
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? { ImageSource.jpegSize(bytes) }

    /// Writes the PDF to `sink` (the second pass; the first writes nowhere).
    func write(_ blocks: [TypesetBlock], to sink: FileSink) throws -> Result {
        try write({ emit in for b in blocks { try emit(b) } }, to: sink)
    }

    /// The blocks as `produce` gives them, once for each pass: it is called twice and must give
    /// the same blocks both times. Memory holds a block or two, not the document.
    func write(_ produce: (_ emit: (TypesetBlock) throws -> Void) throws -> Void, to sink: FileSink,
               passDone: (Int) -> Void = { _ in }) throws -> Result {
        let first = try Pass(self, anchors: [:], sink: nil).run(produce)
        passDone(1)
        let second = try Pass(self, anchors: first.anchors, sink: sink).run(produce)
        passDone(2)
        return second
    }
}

/// Where Cairo's bytes go: the sink, and the first error writing them.
private final class StreamTarget {
    let sink: FileSink?
    var error: Error?
    init(_ sink: FileSink?) { self.sink = sink }
}

/// One pass over the blocks onto one surface.
private final class Pass {
    let setter: PDFTypesetter
    /// Known pages of anchors (empty in the first pass).
    let known: [String: Int]
    let target: StreamTarget
    let surface: OpaquePointer
    let cr: OpaquePointer
    let pango: OpaquePointer

    var page = 1
    var y: Double
    var pageHasContent = false
    /// The running header as the blocks set it, and the one this page shows (the first set on it).
    var header = ""
    var pageHeader: String?
    var unnumbered = false
    var anchors: [String: Int] = [:]
    var outlineParents: [Int: Int32] = [:]
    var fonts: [String: OpaquePointer] = [:]
    /// Where the last margin label ended on this page, so labels on one line do not overlap.
    var noteBottom = 0.0

    var width: Double { setter.paper.size.width }
    var height: Double { setter.paper.size.height }
    var left: Double { setter.margin.left }
    var bottom: Double { height - setter.margin.bottom }

    init(_ setter: PDFTypesetter, anchors: [String: Int], sink: FileSink?) throws {
        self.setter = setter
        self.known = anchors
        target = StreamTarget(sink)
        let size = setter.paper.size
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_SUCCESS }
            let target = Unmanaged<StreamTarget>.fromOpaque(closure).takeUnretainedValue()
            // The first pass throws its bytes away.
            guard let sink = target.sink, target.error == nil else { return CAIRO_STATUS_SUCCESS }
            do { try sink.write(bytes: Array(UnsafeBufferPointer(start: data, count: Int(length)))) } catch {
                target.error = error
                return CAIRO_STATUS_WRITE_ERROR
            }
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(target).toOpaque(), size.width, size.height)
        cr = cairo_create(surface)
        pango = pango_cairo_create_context(cr)
        y = setter.margin.top
        // Metrics not hinted: a line is as long in the first pass as in the second, at any scale.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(pango, options)
        cairo_font_options_destroy(options)
        // Left to right where a layout does not take its direction from its text (a line of the
        // contents); a paragraph takes it from its first strong letter, so Arabic sets right to left.
        pango_context_set_base_dir(pango, PANGO_DIRECTION_LTR)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, setter.title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "daybook")
        if let created = setter.created { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created) }
    }

    deinit {
        for (_, f) in fonts { pango_font_description_free(f) }
        g_object_unref(UnsafeMutableRawPointer(pango))
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    var drawing: Bool { target.sink != nil }

    func run(_ produce: (_ emit: (TypesetBlock) throws -> Void) throws -> Void) throws -> PDFTypesetter.Result {
        // One block is held back, so a heading can see what follows it.
        var held: TypesetBlock?
        try produce { b in
            if let h = held { try block(h, next: b) }
            held = b
        }
        if let h = held { try block(h, next: nil) }
        finishPage()
        cairo_surface_finish(surface)
        if let error = target.error { throw error }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DaybookError.io("cannot write the PDF: " + String(cString: cairo_status_to_string(status)))
        }
        return PDFTypesetter.Result(pages: page, anchors: anchors)
    }

    // MARK: Pages

    func newPage() {
        finishPage()
        cairo_show_page(cr)
        page += 1
        y = setter.margin.top
        pageHasContent = false
        pageHeader = header
        unnumbered = false
        noteBottom = 0
    }

    /// The running header (the date of the entry the page starts in or opens with) and the page number.
    func finishPage() {
        guard drawing else { return }
        let shown = pageHeader ?? header
        if !shown.isEmpty {
            let l = layout(StyledText(shown, TextStyle(color: .gray)), font: .small, width: setter.contentWidth)
            pango_layout_set_alignment(l, PANGO_ALIGN_RIGHT)
            show(l, x: left, y: 34)
            g_object_unref(UnsafeMutableRawPointer(l))
            cairo_set_source_rgb(cr, 0.8, 0.8, 0.8)
            cairo_set_line_width(cr, 0.5)
            cairo_move_to(cr, left, 48); cairo_line_to(cr, left + setter.contentWidth, 48); cairo_stroke(cr)
        }
        if !unnumbered {
            let l = layout(StyledText("\(page)", TextStyle(color: .gray)), font: .small, width: setter.contentWidth)
            pango_layout_set_alignment(l, PANGO_ALIGN_CENTER)
            show(l, x: left, y: height - 40)
            g_object_unref(UnsafeMutableRawPointer(l))
        }
    }

    func ensure(_ needed: Double) {
        if pageHasContent && y + needed > bottom { newPage() }
    }

    // MARK: Blocks

    func block(_ b: TypesetBlock, next: TypesetBlock?) throws {
        if case .pageBreak = b.content {
            if pageHasContent { newPage() }
            return
        }
        if b.unnumbered { unnumbered = true }
        if pageHasContent { y += b.spaceBefore }
        if b.keepWithNext, let next {
            // The heading and the first two lines of what follows (a line of anything else), or a new page.
            var follow = 16.0
            if case let .text(t) = next.content {
                let l = layout(t, font: next.font, width: width(of: next))
                let count = max(1, Int(pango_layout_get_line_count(l)))
                var rect = PangoRectangle()
                pango_layout_get_extents(l, nil, &rect)
                g_object_unref(UnsafeMutableRawPointer(l))
                follow = Double(rect.height) / Double(PANGO_SCALE) / Double(count) * Double(min(2, count))
            }
            ensure(height(of: b) + b.spaceAfter + next.spaceBefore + follow)
        }
        if b.anchor != nil { ensure(40) }
        if let h = b.header {
            header = h
            // A page this block opens shows its header; a page begun before keeps the one it had.
            if !pageHasContent { pageHeader = h }
        }
        let w = width(of: b)
        let x = left + setter.contentWidth - w
        if let anchor = b.anchor {
            anchors[anchor] = page
            if drawing {
                cairo_tag_begin(cr, "cairo.dest", "name='\(escape(anchor))' x=\(format(left)) y=\(format(max(0, y - 8)))")
                cairo_tag_end(cr, "cairo.dest")
            }
            if drawing { outline(b.outline) }
        }
        switch b.content {
        case let .text(t): text(t, block: b, x: x, width: w)
        case let .contentsLine(t, anchor): contentsLine(t, anchor: anchor, block: b, x: x, width: w)
        case let .table(rows, header, align): table(rows, header: header, align: align, x: x, width: w)
        case .rule:
            ensure(8)
            if drawing {
                cairo_set_source_rgb(cr, 0.75, 0.75, 0.75)
                cairo_set_line_width(cr, 0.6)
                cairo_move_to(cr, x, y + 4); cairo_line_to(cr, x + w, y + 4); cairo_stroke(cr)
            }
            y += 8
            pageHasContent = true
        case let .image(img): image(img, x: x, width: w)
        case let .drawing(d):
            let shown = d.box.width * min(d.maxScale, fit(d.box.width, d.box.height, width: w))
            strokes(d, x: b.centered ? x + (w - shown) / 2 : x, width: w)
        case .pageBreak: break
        }
        y += b.spaceAfter
    }

    /// The width a block's text has: lists and quotes nested deeper than half the text's width go no further right.
    func width(of b: TypesetBlock) -> Double {
        setter.contentWidth - min(max(0, b.indent), setter.contentWidth / 2)
    }

    /// The block's height when it is one layout (for keeping a heading with what follows).
    func height(of b: TypesetBlock) -> Double {
        guard case let .text(t) = b.content else { return 0 }
        let l = layout(t, font: b.font, width: width(of: b))
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        var rect = PangoRectangle()
        pango_layout_get_extents(l, nil, &rect)
        return Double(rect.height) / Double(PANGO_SCALE)
    }

    /// Outline items, nested by level under the last item of the level above.
    func outline(_ items: [OutlineItem]) {
        for item in items {
            let parent = item.level <= 1 ? Int32(CAIRO_PDF_OUTLINE_ROOT) : outlineParents[item.level - 1] ?? Int32(CAIRO_PDF_OUTLINE_ROOT)
            let flags = item.level < 3 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(rawValue: 0)
            let id = cairo_pdf_surface_add_outline(surface, parent, item.title, "dest='\(escape(item.anchor))'", flags)
            outlineParents[item.level] = id
            for deeper in (item.level + 1)...9 { outlineParents[deeper] = nil }
        }
    }

    // MARK: Text

    func font(_ role: FontRole) -> OpaquePointer {
        if let f = fonts[role.description] { return f }
        let f = pango_font_description_from_string(role.description)!
        fonts[role.description] = f
        return f
    }

    /// A Pango layout of the styled text at `width` points, its runs as attributes.
    func layout(_ t: StyledText, font role: FontRole, width: Double) -> OpaquePointer {
        let l = pango_layout_new(pango)!
        pango_layout_set_font_description(l, font(role))
        pango_layout_set_width(l, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_spacing(l, Int32(1.5 * Double(PANGO_SCALE)))
        // Pango takes no NUL inside a text: it becomes a space, one byte for one, so the runs' offsets hold.
        var bytes = Array(t.text.utf8)
        for i in bytes.indices where bytes[i] == 0 { bytes[i] = 0x20 }
        bytes.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { pango_layout_set_text(l, $0.baseAddress, Int32($0.count)) }
        }
        let attrs = pango_attr_list_new()
        func add(_ a: UnsafeMutablePointer<PangoAttribute>?, _ r: Range<Int>) {
            guard let a else { return }
            a.pointee.start_index = guint(r.lowerBound)
            a.pointee.end_index = guint(r.upperBound)
            pango_attr_list_insert(attrs, a)
        }
        func color(_ c: RGB) -> (UInt16, UInt16, UInt16) { (UInt16(c.r * 65535), UInt16(c.g * 65535), UInt16(c.b * 65535)) }
        for (r, s) in t.runs {
            if s.bold { add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), r) }
            if s.italic { add(pango_attr_style_new(PANGO_STYLE_ITALIC), r) }
            if s.mono { add(pango_attr_family_new("DejaVu Sans Mono,Noto Sans Mono,monospace"), r); add(pango_attr_scale_new(0.86), r) }
            if s.strike { add(pango_attr_strikethrough_new(1), r) }
            if s.underline || s.link != nil { add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), r) }
            if let scale = s.scale { add(pango_attr_scale_new(scale), r) }
            if s.superscript { add(pango_attr_scale_new(0.7), r); add(pango_attr_rise_new(Int32(3.5 * Double(PANGO_SCALE))), r) }
            if let c = s.color ?? (s.link != nil ? RGB.link : nil) { let (r16, g16, b16) = color(c); add(pango_attr_foreground_new(r16, g16, b16), r) }
            if let c = s.background { let (r16, g16, b16) = color(c); add(pango_attr_background_new(r16, g16, b16), r) }
        }
        pango_layout_set_attributes(l, attrs)
        pango_attr_list_unref(attrs)
        return l
    }

    func show(_ l: OpaquePointer, x: Double, y: Double) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, l)
    }

    /// A paragraph line by line: a line that does not fit goes to the next page.
    func text(_ t: StyledText, block b: TypesetBlock, x: Double, width: Double) {
        let l = layout(t, font: b.font, width: width)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        if b.centered { pango_layout_set_alignment(l, PANGO_ALIGN_CENTER) }
        let iter = pango_layout_get_iter(l)
        defer { pango_layout_iter_free(iter) }
        var firstLine = true
        let pad = b.fill == nil ? 0.0 : 4.0
        if pad > 0 { y += pad }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let lineHeight = Double(logical.height) / Double(PANGO_SCALE) + 1.5
            let baseline = Double(pango_layout_iter_get_baseline(iter) - logical.y) / Double(PANGO_SCALE)
            ensure(lineHeight)
            if drawing {
                let top = y
                if let fill = b.fill {
                    cairo_set_source_rgb(cr, fill.r, fill.g, fill.b)
                    cairo_rectangle(cr, x - 4, top - (firstLine ? pad : 0), width + 8, lineHeight + (firstLine ? pad : 0) + 0.5)
                    cairo_fill(cr)
                }
                // A bar for each quote level, as many as the indent has room for.
                let bars = min(b.quoteDepth, max(0, Int((x - left + 2) / 12)))
                for d in 0..<bars {
                    cairo_set_source_rgb(cr, 0.78, 0.8, 0.83)
                    cairo_rectangle(cr, x - 10 - Double(bars - 1 - d) * 12, top, 2.5, lineHeight)
                    cairo_fill(cr)
                }
                if firstLine, let marker = b.marker {
                    let m = layout(marker, font: b.font, width: 40)
                    pango_layout_set_alignment(m, PANGO_ALIGN_RIGHT)
                    let mb = Double(pango_layout_get_baseline(m)) / Double(PANGO_SCALE)
                    show(m, x: x - 44, y: top + baseline - mb)
                    g_object_unref(UnsafeMutableRawPointer(m))
                }
                cairo_set_source_rgb(cr, 0, 0, 0)
                cairo_move_to(cr, x + Double(logical.x) / Double(PANGO_SCALE), top + baseline)
                pango_cairo_show_layout_line(cr, line)
                let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
                links(t, line: line, lineStart: start, lineEnd: end, x: x, top: top, height: lineHeight)
                for n in t.notes where n.offset >= start && (n.offset < end || n.offset == end && end == t.text.utf8.count) {
                    marginNote(n, top: top)
                }
            }
            y += lineHeight
            pageHasContent = true
            firstLine = false
        } while pango_layout_iter_next_line(iter) != 0
        if pad > 0 { y += pad }
    }

    /// Link areas over the parts of the line that carry a link (several for text that runs both ways).
    func links(_ t: StyledText, line: UnsafeMutablePointer<PangoLayoutLine>, lineStart: Int, lineEnd: Int, x: Double, top: Double, height: Double) {
        for (r, s) in t.runs {
            guard let link = s.link, r.lowerBound < lineEnd, r.upperBound > lineStart else { continue }
            var ranges: UnsafeMutablePointer<Int32>?
            var n: Int32 = 0
            pango_layout_line_get_x_ranges(line, Int32(max(r.lowerBound, lineStart)), Int32(min(r.upperBound, lineEnd)), &ranges, &n)
            guard let ranges else { continue }
            defer { g_free(ranges) }
            for i in 0..<Int(n) {
                let x0 = x + Double(ranges[2 * i]) / Double(PANGO_SCALE), x1 = x + Double(ranges[2 * i + 1]) / Double(PANGO_SCALE)
                guard x1 > x0 else { continue }
                linkArea(link, x: x0, y: top, width: x1 - x0, height: height)
            }
        }
    }

    func linkArea(_ link: TypesetLink, x: Double, y: Double, width: Double, height: Double) {
        let rect = "rect=[\(format(x)) \(format(y)) \(format(width)) \(format(height))]"
        switch link {
        case let .uri(uri): cairo_tag_begin(cr, "Link", rect + " uri='\(escape(uri))'")
        case let .anchor(name):
            // A link to a place the document does not hold would be a dead annotation.
            guard known[name] != nil else { return }
            cairo_tag_begin(cr, "Link", rect + " dest='\(escape(name))'")
        }
        cairo_tag_end(cr, "Link")
    }

    /// A code's name in the right margin, level with the line where its segment starts.
    func marginNote(_ n: MarginNote, top: Double) {
        let l = layout(StyledText(n.text, TextStyle(bold: true, color: n.color)), font: .small, width: setter.margin.right - 12)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        pango_layout_set_wrap(l, PANGO_WRAP_CHAR)
        var rect = PangoRectangle()
        pango_layout_get_pixel_extents(l, nil, &rect)
        let at = max(top, noteBottom)
        cairo_set_source_rgb(cr, n.color.r, n.color.g, n.color.b)
        cairo_rectangle(cr, width - setter.margin.right + 6, at + 1, 1.5, Double(rect.height) - 2)
        cairo_fill(cr)
        show(l, x: width - setter.margin.right + 10, y: at)
        noteBottom = at + Double(rect.height)
    }

    /// A line of the contents: its text, dots, the page; the whole line links to the anchor.
    func contentsLine(_ t: StyledText, anchor: String, block b: TypesetBlock, x: Double, width: Double) {
        let number = known[anchor].map(String.init) ?? "000"
        let l = layout(t, font: b.font, width: width - 36)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END)
        // A line of the contents reads left to right (date, title) even when the title is Arabic.
        pango_layout_set_auto_dir(l, 0)
        var rect = PangoRectangle()
        pango_layout_get_extents(l, nil, &rect)
        let h = Double(rect.height) / Double(PANGO_SCALE) + 1.5
        ensure(h)
        if drawing {
            show(l, x: x, y: y)
            let n = layout(StyledText(number), font: b.font, width: 34)
            pango_layout_set_alignment(n, PANGO_ALIGN_RIGHT)
            show(n, x: x + width - 34, y: y)
            g_object_unref(UnsafeMutableRawPointer(n))
            linkArea(.anchor(anchor), x: x, y: y, width: width, height: h)
        }
        y += h
        pageHasContent = true
    }

    // MARK: Tables

    /// Columns as wide as their widest cell, narrowed in proportion when the table is wider than
    /// the page; a row that does not fit goes to the next page.
    func table(_ rows: [[StyledText]], header: [Bool], align: [String], x: Double, width: Double) {
        let columns = rows.map(\.count).max() ?? 0
        guard columns > 0 else { return }
        let padding = 4.0
        var natural = [Double](repeating: 20, count: columns)
        for (i, row) in rows.enumerated() {
            for (c, cell) in row.enumerated() {
                var cell = cell
                if i < header.count && header[i] { cell.runs.append((0..<cell.text.utf8.count, TextStyle(bold: true))) }
                let l = layout(cell, font: .body, width: -1)
                pango_layout_set_width(l, -1)
                var rect = PangoRectangle()
                pango_layout_get_extents(l, nil, &rect)
                natural[c] = max(natural[c], Double(rect.width) / Double(PANGO_SCALE) + 2 * padding + 1)
                g_object_unref(UnsafeMutableRawPointer(l))
            }
        }
        // A table too wide for the page even with its columns narrowed to a word's width goes on
        // in column groups, one below the other, each as wide as the page allows.
        let least = natural.map { min($0, 48) }
        var groups: [Range<Int>] = []
        var start = 0, sum = 0.0
        for c in 0..<columns {
            if c > start && sum + least[c] > width { groups.append(start..<c); start = c; sum = 0 }
            sum += least[c]
        }
        groups.append(start..<columns)
        if groups.count > 1 {
            for (g, cols) in groups.enumerated() {
                if g > 0 { y += 6 }
                table(rows.map { Array($0[min(cols.lowerBound, $0.count)..<min(cols.upperBound, $0.count)]) }, header: header,
                      align: Array(align[min(cols.lowerBound, align.count)..<min(cols.upperBound, align.count)]), x: x, width: width)
            }
            return
        }
        let total = natural.reduce(0, +)
        let widths = total > width ? natural.map { $0 * width / total } : natural
        for (i, row) in rows.enumerated() {
            let bold = i < header.count && header[i]
            var layouts: [OpaquePointer] = []
            var rowHeight = 0.0
            for (c, cell) in row.enumerated() {
                var cell = cell
                if bold { cell.runs.append((0..<cell.text.utf8.count, TextStyle(bold: true))) }
                let l = layout(cell, font: .body, width: widths[c] - 2 * padding)
                if c < align.count, align[c] == "r" { pango_layout_set_alignment(l, PANGO_ALIGN_RIGHT) }
                if c < align.count, align[c] == "c" { pango_layout_set_alignment(l, PANGO_ALIGN_CENTER) }
                var rect = PangoRectangle()
                pango_layout_get_extents(l, nil, &rect)
                rowHeight = max(rowHeight, Double(rect.height) / Double(PANGO_SCALE) + 2 * padding)
                layouts.append(l)
            }
            ensure(rowHeight)
            if drawing {
                var cx = x
                for (c, l) in layouts.enumerated() {
                    if bold {
                        cairo_set_source_rgb(cr, RGB.light.r, RGB.light.g, RGB.light.b)
                        cairo_rectangle(cr, cx, y, widths[c], rowHeight); cairo_fill(cr)
                    }
                    cairo_set_source_rgb(cr, 0.7, 0.7, 0.7)
                    cairo_set_line_width(cr, 0.5)
                    cairo_rectangle(cr, cx, y, widths[c], rowHeight); cairo_stroke(cr)
                    show(l, x: cx + padding, y: y + padding)
                    drawLinks(row[c], layout: l, x: cx + padding, y: y + padding)
                    cx += widths[c]
                }
            }
            for l in layouts { g_object_unref(UnsafeMutableRawPointer(l)) }
            y += rowHeight
            pageHasContent = true
        }
    }

    /// The link areas of a layout drawn whole at (x, y).
    func drawLinks(_ t: StyledText, layout l: OpaquePointer, x: Double, y: Double) {
        guard t.runs.contains(where: { $0.style.link != nil }) else { return }
        let iter = pango_layout_get_iter(l)
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let start = Int(line.pointee.start_index)
            links(t, line: line, lineStart: start, lineEnd: start + Int(line.pointee.length), x: x,
                  top: y + Double(logical.y) / Double(PANGO_SCALE), height: Double(logical.height) / Double(PANGO_SCALE))
        } while pango_layout_iter_next_line(iter) != 0
    }

    // MARK: Images and strokes

    /// The largest a picture may be: the text's width, and most of a page's height.
    func fit(_ w: Double, _ h: Double, width: Double) -> Double {
        guard w > 0, h > 0 else { return 0 }
        return min(width / w, (bottom - setter.margin.top - 30) / h)
    }

    func image(_ img: TypesetImage, x: Double, width: Double) {
        guard let source = ImageSource(path: img.path) else { return }
        defer { source.release() }
        let scale = fit(source.width, source.height, width: width)
        let h = source.height * scale
        ensure(h)
        if drawing {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, source.surface, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        y += h
        pageHasContent = true
    }

    /// Strokes as filled shapes along their points: each segment as wide as the pressure there,
    /// round ends and joints; a translucent stroke is drawn opaque into a group, then the group
    /// laid on with the stroke's opacity, so its own overlaps do not darken.
    func strokes(_ d: TypesetDrawing, x: Double, width: Double) {
        let scale = min(d.maxScale, fit(d.box.width, d.box.height, width: width))
        let h = d.box.height * scale
        guard h > 0 else { return }
        ensure(h)
        if drawing {
            cairo_save(cr)
            cairo_rectangle(cr, x, y, d.box.width * scale, h)
            cairo_clip(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, scale, scale)
            cairo_translate(cr, -d.box.x, -d.box.y)
            cairo_set_line_cap(cr, d.squareEnds ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            for s in d.strokes where !s.xs.isEmpty {
                if s.alpha < 1 { cairo_push_group(cr) }
                cairo_set_source_rgb(cr, s.color.r, s.color.g, s.color.b)
                if s.xs.count == 1 {
                    cairo_arc(cr, s.xs[0], s.ys[0], max(s.radii[0], 0.05), 0, 2 * .pi)
                    cairo_fill(cr)
                } else {
                    for i in 1..<s.xs.count {
                        cairo_set_line_width(cr, max(0.1, s.radii[i - 1] + s.radii[i]))
                        cairo_move_to(cr, s.xs[i - 1], s.ys[i - 1])
                        cairo_line_to(cr, s.xs[i], s.ys[i])
                        cairo_stroke(cr)
                    }
                }
                if s.alpha < 1 {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, s.alpha)
                }
            }
            cairo_restore(cr)
            if d.framed {
                cairo_set_source_rgb(cr, 0.85, 0.85, 0.85)
                cairo_set_line_width(cr, 0.5)
                cairo_rectangle(cr, x, y, d.box.width * scale, h)
                cairo_stroke(cr)
            }
        }
        y += h
        pageHasContent = true
    }

    // MARK: Helpers

    /// A value inside a Cairo tag's single quotes: backslash and quote escaped.
    func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }

    func format(_ d: Double) -> String { String(format: "%.2f", d) }
}

/// An image Cairo can draw: a PNG decoded, or a JPEG whose bytes go into the PDF unchanged
/// (Cairo reads no JPEG; the surface stands in for its size and carries the file as its data).
private struct ImageSource {
    let surface: OpaquePointer
    let width: Double, height: Double

    init?(path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "png" {
            guard let s = cairo_image_surface_create_from_png(path) else { return nil }
            guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { cairo_surface_destroy(s); return nil }
            surface = s
            width = Double(cairo_image_surface_get_width(s)); height = Double(cairo_image_surface_get_height(s))
        } else if ext == "jpg" || ext == "jpeg", let data = FileManager.default.contents(atPath: path),
                  let size = ImageSource.jpegSize([UInt8](data)) {
            guard let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(size.0), Int32(size.1)) else { return nil }
            let copy = malloc(data.count)!
            data.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, data.count) }
            cairo_surface_set_mime_data(s, "image/jpeg", copy.assumingMemoryBound(to: UInt8.self), UInt(data.count), { free($0) }, copy)
            surface = s
            width = Double(size.0); height = Double(size.1)
        } else {
            return nil
        }
    }

    func release() { cairo_surface_destroy(surface) }

    /// A baseline or progressive JPEG's size from its frame header; nil for anything else.
    static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6]), w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return w > 0 && h > 0 ? (w, h) : nil
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}
