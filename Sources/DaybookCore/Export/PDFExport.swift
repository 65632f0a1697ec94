// `export pdf`: the diary as a document to print: title page, contents, entries, the codings by code.
import Foundation

public struct PDFExport: ExportFormat {
    public static let name = "pdf"
    public static let summary = "a PDF typeset by daybook (title page, contents, bookmarks, entries, codings by code) in the file -o names"
    public static let destination = ExportDestinationKind.file
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .path(url) = destination else { return }
        context.index(entries)
        let setter = PDFTypesetter(paper: context.options.paper, title: context.diaryName)
        setter.created = context.diary.clock.nowLocal.description
        // The typesetter asks for the blocks twice (the first pass finds the pages the contents
        // name): each time every entry is read again, so memory holds a chunk of entries, never
        // the whole document. What the first pass warned about is said once.
        let progress = context.progress
        let warned = context.warnings.count, left = context.leftOut.count
        var pass = 0
        func produce(_ emit: (TypesetBlock) throws -> Void) throws {
            context.progress = { [pass] done, total in progress(pass * total + done, 2 * total) }
            if pass == 1 {
                context.warnings.removeSubrange(warned...)
                context.leftOut.removeSubrange(left...)
            }
            for b in titlePage(entries, context: context) { try emit(b) }
            for b in contents(entries) { try emit(b) }
            var builder = PDFEntryBlocks(context: context)
            try context.forEachWithBody(entries) { e in for b in builder.blocks(e) { try emit(b) } }
            for b in PDFCodingsAppendix(context: context).blocks(entries) { try emit(b) }
            pass += 1
        }
        let sink = try FileSink(url)
        defer { context.progress = progress }
        do {
            _ = try setter.write(produce, to: sink)
        } catch var e as DaybookError where e.location == nil {
            // Cairo's own failures name no file: this is the one it was writing.
            e.location = SourceLocation(path: url.path)
            throw e
        }
        try sink.finish()
    }

    // MARK: Title page

    func titlePage(_ entries: [Entry], context: ExportContext) -> [TypesetBlock] {
        var out: [TypesetBlock] = []
        var space = TypesetBlock(.text(StyledText(" ")))
        space.spaceAfter = 150
        space.header = ""
        space.unnumbered = true
        out.append(space)
        var name = TypesetBlock(.text(StyledText(context.diaryName)), font: .title)
        name.centered = true
        name.spaceAfter = 18
        name.anchor = "title"
        name.outline = [OutlineItem(level: 1, title: context.diaryName, anchor: "title")]
        out.append(name)
        let days = entries.map(\.date.day)
        if let first = days.min(), let last = days.max() {
            var range = TypesetBlock(.text(StyledText(first == last ? first.description : first.description + " – " + last.description)), font: .heading(3))
            range.centered = true
            range.spaceAfter = 30
            out.append(range)
        }
        let words = entries.reduce(0) { $0 + $1.words }
        let codings = entries.reduce(0) { $0 + $1.codings.count }
        let codes = Set(entries.flatMap { $0.codings.map(\.code) }).count
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
        for line in [count(entries.count, "entry", "entries"), count(words, "word", "words"),
                     count(codes, "code", "codes") + " in " + count(codings, "coding", "codings")] {
            var b = TypesetBlock(.text(StyledText(line)))
            b.centered = true
            b.spaceAfter = 3
            out.append(b)
        }
        if let heat = PDFHeatmap.drawing(days: days) {
            var b = TypesetBlock(.drawing(heat))
            b.centered = true
            b.spaceBefore = 30
            out.append(b)
        }
        return out
    }

    // MARK: Contents

    func contents(_ entries: [Entry]) -> [TypesetBlock] {
        var out: [TypesetBlock] = [TypesetBlock(.pageBreak)]
        var heading = TypesetBlock(.text(StyledText("Contents")), font: .heading(1))
        heading.anchor = "contents"
        heading.outline = [OutlineItem(level: 1, title: "Contents", anchor: "contents")]
        heading.spaceAfter = 10
        heading.header = ""
        out.append(heading)
        var month = ""
        for e in entries {
            let m = PDFEntryBlocks.monthName(e.date.day)
            if m != month {
                var b = TypesetBlock(.text(StyledText(m, TextStyle(bold: true))))
                b.spaceBefore = 6
                b.spaceAfter = 2
                b.keepWithNext = true
                out.append(b)
                month = m
            }
            var line = StyledText(e.date.day.description + "  ", TextStyle(color: RGB.gray))
            line.append(e.title.isEmpty ? e.id : e.title)
            var b = TypesetBlock(.contentsLine(line, anchor: PDFEntryBlocks.anchor(e.id)))
            b.spaceAfter = 1
            out.append(b)
        }
        // The entries begin on a page of their own, also with --flow.
        out.append(TypesetBlock(.pageBreak))
        return out
    }
}

/// One entry as blocks: the title (an anchor and bookmarks under its year and month), date,
/// tags, mood and fields, the body, strokes, images, and its codings.
struct PDFEntryBlocks {
    let context: ExportContext
    var year: Int?
    var month: Int?

    init(context: ExportContext) { self.context = context }

    static func anchor(_ id: String) -> String { "entry-" + id }

    static func monthName(_ d: LocalDay) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return names[d.month - 1] + " \(d.year)"
    }

    mutating func blocks(_ e: Entry) -> [TypesetBlock] {
        let diary = context.diary
        var out: [TypesetBlock] = []
        if !context.options.flow { out.append(TypesetBlock(.pageBreak)) }
        else if year != nil {
            // Flowing, a rule stands between one entry and the next.
            var rule = TypesetBlock(.rule)
            rule.spaceBefore = 10
            rule.spaceAfter = 0
            out.append(rule)
        }
        var title = TypesetBlock(.text(StyledText(e.title.isEmpty ? e.id : e.title)), font: .heading(1))
        title.anchor = PDFEntryBlocks.anchor(e.id)
        title.header = HTMLEntryArticle.readableDate(e.date)
        title.keepWithNext = true
        title.spaceBefore = 16
        title.spaceAfter = 3
        var items: [OutlineItem] = []
        let day = e.date.day
        if year != day.year {
            year = day.year; month = nil
            items.append(OutlineItem(level: 1, title: "\(day.year)", anchor: title.anchor ?? ""))
        }
        if month != day.month {
            month = day.month
            items.append(OutlineItem(level: 2, title: PDFEntryBlocks.monthName(day), anchor: title.anchor ?? ""))
        }
        items.append(OutlineItem(level: 3, title: day.description + " " + (e.title.isEmpty ? e.id : e.title), anchor: title.anchor ?? ""))
        title.outline = items
        out.append(title)

        var meta = StyledText(HTMLEntryArticle.readableDate(e.date), TextStyle(color: RGB.gray))
        if let m = diary.moodScales.label(of: e) { meta.append(" · " + m, TextStyle(color: RGB.gray)) }
        if let t = e.template { meta.append(" · " + t, TextStyle(color: RGB.gray)) }
        for t in e.tags { meta.append("  #" + t, TextStyle(color: RGB(r: 0.1, g: 0.45, b: 0.3))) }
        var metaBlock = TypesetBlock(.text(meta), font: .small)
        metaBlock.spaceAfter = 8
        out.append(metaBlock)
        if !e.fields.isEmpty {
            for (k, v) in e.fields {
                var line = StyledText(k + ": ", TextStyle(bold: true))
                line.append(v.readable)
                var b = TypesetBlock(.text(line), font: .small)
                b.spaceAfter = 1
                out.append(b)
            }
            out[out.count - 1].spaceAfter = 8
        }

        let found = context.codedSegments(of: e)
        let segments = found.map { CodedSegment(range: $0.range, code: $0.coding.code, color: context.codeColor($0.coding.code)) }
        let ctx = context
        let attachments = context.attachments(of: e)
        let rule = context.entryLinks
        let has = context.has
        let source = segments.isEmpty ? e.body : CodedSegmentMarker.marked(e.body, segments: segments)
        let tree = Markdown.tree(source, target: { url, _ in
            // A link to an entry the PDF holds goes to its page; a web link stays; the rest are text.
            guard let target = rule.resolve(url: url, from: e.path) else { return nil }
            if case let .entry(path, _) = target, has(path) { return PDFBody.anchorScheme + PDFEntryBlocks.anchor(Entry.id(ofPath: path)) }
            // The entry's own attachments (none when redacting: they cannot be redacted).
            if case let .attachment(path) = target, Attachments.folder(ofEntry: e.path) + "/" + ((path as NSString).lastPathComponent) == path,
               attachments.contains((path as NSString).lastPathComponent) {
                return PDFBody.fileScheme + ctx.diary.url(path).path
            }
            return .some(nil)
        }, wiki: { written, label in
            let isMarker = { (u: Unicode.Scalar) in u.value >= CodedSegmentMarker.startBase && u.value < CodedSegmentMarker.startBase + 0x10000 }
            let id = String(String.UnicodeScalarView(written.unicodeScalars.filter { !isMarker($0) }))
            guard case let .entry(path, _) = rule.resolve(id: id), has(path) else { return nil }
            let markers = String(String.UnicodeScalarView(written.unicodeScalars.filter(isMarker)))
            return (PDFBody.anchorScheme + PDFEntryBlocks.anchor(Entry.id(ofPath: path)), (label.isEmpty ? ctx.title(of: path) : label) + markers)
        })
        var body = PDFBody(segments: segments)
        out += body.blocks(tree)

        if let ink = strokes(e) {
            var b = TypesetBlock(.drawing(ink))
            b.spaceBefore = 6
            b.spaceAfter = 8
            out.append(b)
        }
        let files = attachments.filter { !body.shownImages.contains(diary.url(Attachments.folder(ofEntry: e.path) + "/" + $0).path) }
        if !files.isEmpty {
            var h = TypesetBlock(.text(StyledText("Attachments")), font: .heading(3))
            h.spaceBefore = 8
            h.keepWithNext = true
            out.append(h)
            for f in files {
                let ext = (f as NSString).pathExtension.lowercased()
                if PDFBody.embeddable.contains(ext) {
                    var img = TypesetBlock(.image(TypesetImage(path: diary.url(Attachments.folder(ofEntry: e.path) + "/" + f).path, caption: f)))
                    img.spaceBefore = 4
                    img.spaceAfter = 2
                    out.append(img)
                }
                var name = TypesetBlock(.text(StyledText(f, TextStyle(italic: true, color: RGB.gray))), font: .small)
                name.spaceAfter = 6
                out.append(name)
            }
        }
        if let from = context.linkIndex?.linking(to: e.path), !from.isEmpty {
            var line = StyledText("Linked from: ", TextStyle(bold: true))
            for (i, path) in from.enumerated() {
                if i > 0 { line.append(", ") }
                line.append(context.title(of: path), TextStyle(link: .anchor(PDFEntryBlocks.anchor(Entry.id(ofPath: path)))))
            }
            var b = TypesetBlock(.text(line), font: .small)
            b.spaceBefore = 6
            out.append(b)
        }
        if !e.codings.isEmpty {
            var h = TypesetBlock(.text(StyledText("Codings")), font: .heading(3))
            h.spaceBefore = 8
            h.keepWithNext = true
            out.append(h)
            for c in e.codings { out += PDFCodingsAppendix.coding(c, context: context, entry: nil) }
        }
        return out
    }

    /// The entry's strokes as vectors; a broken stroke file is a warning, as in every export.
    func strokes(_ e: Entry) -> TypesetDrawing? {
        guard e.hasInk else { return nil }
        do {
            guard let loaded = try StrokeFile.load(entry: context.source(e.path), in: context.diary), !loaded.file.strokes.isEmpty else { return nil }
            return PDFEntryBlocks.drawing(loaded.file)
        } catch let error as DaybookError {
            context.warn(error.message, path: context.diary.displayPath(e.path))
            return nil
        } catch {
            return nil
        }
    }

    /// Strokes with the SVG rendering's widths, colours and opacities (`InkRenderer`).
    static func drawing(_ file: StrokeFile) -> TypesetDrawing {
        var strokes: [TypesetDrawing.Stroke] = []
        for s in file.strokes {
            let color = s.color.flatMap(InkColor.init) ?? InkColor.ink
            var opacity = color.alpha
            switch s.tool {
            case .highlighter: if color.alpha == 1 { opacity = InkRenderer.highlighterOpacity }
            case .pencil: opacity *= 0.85
            case .pen, .marker: break
            }
            let outline = StrokeOutline(s)
            strokes.append(TypesetDrawing.Stroke(color: RGB(hex: color.rgb) ?? .black, alpha: opacity,
                                                 xs: outline.xs, ys: outline.ys, radii: outline.radii))
        }
        return TypesetDrawing(box: InkRenderer.viewBox(file), strokes: strokes)
    }
}

/// The appendix: the codebook with each code's description, then every coding by code with its
/// entry (a link to it), quote, coder and memo.
struct PDFCodingsAppendix {
    let context: ExportContext

    func blocks(_ entries: [Entry]) -> [TypesetBlock] {
        var byCode: [String: [(Entry, Coding)]] = [:]
        for e in entries { for c in e.codings { byCode[c.code, default: []].append((e, c)) } }
        guard !byCode.isEmpty else { return [] }
        var out: [TypesetBlock] = [TypesetBlock(.pageBreak)]
        var h = TypesetBlock(.text(StyledText("Codings by code")), font: .heading(1))
        h.anchor = "codings"
        h.header = "Codings by code"
        h.outline = [OutlineItem(level: 1, title: "Codings by code", anchor: "codings")]
        h.spaceAfter = 8
        out.append(h)
        let book = (try? context.codebook()) ?? Codebook()
        if !book.codes.isEmpty {
            var cb = TypesetBlock(.text(StyledText("Codebook")), font: .heading(2))
            cb.keepWithNext = true
            cb.spaceAfter = 4
            out.append(cb)
            for path in book.paths {
                guard let name = path.last else { continue }
                var line = StyledText("■ ", TextStyle(color: RGB(hex: context.codeColor(name)) ?? RGB.gray))
                line.append(name, TextStyle(bold: true))
                if let d = context.codeDescription(name) { line.append(" — " + d) }
                var b = TypesetBlock(.text(line))
                b.indent = Double(path.count - 1) * 16
                b.spaceAfter = 2
                out.append(b)
            }
        }
        // The codebook's order first, then codes it does not define, by name.
        let order = book.allCodes.filter { byCode[$0] != nil } + byCode.keys.filter { !book.contains($0) }.sorted()
        for code in order {
            guard let list = byCode[code] else { continue }
            var line = StyledText("■ ", TextStyle(color: RGB(hex: context.codeColor(code)) ?? RGB.gray))
            line.append(code + "  ")
            line.append("\(list.count) coding" + (list.count == 1 ? "" : "s"), TextStyle(color: RGB.gray))
            var b = TypesetBlock(.text(line), font: .heading(2))
            b.spaceBefore = 10
            b.spaceAfter = 4
            b.keepWithNext = true
            out.append(b)
            for (e, c) in list { out += PDFCodingsAppendix.coding(c, context: context, entry: e) }
        }
        return out
    }

    /// One coding: (the entry, linked,) the code and coder, its quote or place, its memo.
    static func coding(_ c: Coding, context: ExportContext, entry e: Entry?) -> [TypesetBlock] {
        var out: [TypesetBlock] = []
        var head = StyledText()
        if let e {
            head.append(e.date.day.description + " ", TextStyle(color: RGB.gray))
            head.append(e.title.isEmpty ? e.id : e.title, TextStyle(link: .anchor(PDFEntryBlocks.anchor(e.id))))
        } else {
            head.append("■ ", TextStyle(color: RGB(hex: context.codeColor(c.code)) ?? RGB.gray))
            head.append(c.code, TextStyle(bold: true))
        }
        if let coder = c.coder ?? context.diary.config.coder { head.append("  by " + coder, TextStyle(color: RGB.gray)) }
        if c.quote == nil { head.append("  " + c.unquotedPlace, TextStyle(color: RGB.gray)) }
        var h = TypesetBlock(.text(head), font: .small)
        h.spaceAfter = 2
        h.keepWithNext = c.quote != nil
        out.append(h)
        if let q = c.quote {
            var b = TypesetBlock(.text(StyledText(q, TextStyle(italic: true))))
            b.indent = 14
            b.quoteDepth = 1
            b.spaceAfter = 2
            out.append(b)
        }
        if let memo = c.memo {
            var line = StyledText("Memo: ", TextStyle(bold: true))
            line.append(memo)
            var b = TypesetBlock(.text(line), font: .small)
            b.indent = 14
            b.spaceAfter = 2
            out.append(b)
        }
        out[out.count - 1].spaceAfter = 7
        return out
    }
}

/// The calendar heatmap of the title page: a square for each day from the first entry's week
/// to the last's, darker for more entries (as `CalendarHeatmap` draws it for HTML).
enum PDFHeatmap {
    static func drawing(days: [LocalDay]) -> TypesetDrawing? {
        guard let first = days.min(), let last = days.max() else { return nil }
        var perDay: [LocalDay: Int] = [:]
        for d in days { perDay[d, default: 0] += 1 }
        let start = first.ordinal - (first.weekday - 1)
        let weeks = (last.ordinal - start) / 7 + 1
        // A heatmap of many years would be too fine to read: the last 53 weeks are shown.
        let shownFrom = max(0, weeks - 53)
        let most = perDay.values.max() ?? 1
        var strokes: [TypesetDrawing.Stroke] = []
        for w in shownFrom..<weeks {
            for d in 0..<7 {
                let ordinal = start + w * 7 + d
                guard ordinal >= first.ordinal, ordinal <= last.ordinal else { continue }
                let n = perDay[LocalDay(ordinal: ordinal)] ?? 0
                let green = RGB(r: 0.13, g: 0.55, b: 0.27)
                let color = n == 0 ? RGB.light : green.tint(0.75 * (1 - Double(n) / Double(most)))
                let x = Double(w - shownFrom) * 12 + 5, y = Double(d) * 12 + 5
                // A square as a short thick stroke: the drawing holds strokes only.
                strokes.append(TypesetDrawing.Stroke(color: color, alpha: 1, xs: [x - 0.5, x + 0.5], ys: [y, y], radii: [4.5, 4.5]))
            }
        }
        var heat = TypesetDrawing(box: (0, 0, Double(weeks - shownFrom) * 12, 7 * 12), strokes: strokes)
        heat.maxScale = 0.9
        heat.framed = false
        heat.squareEnds = true
        return heat
    }
}
