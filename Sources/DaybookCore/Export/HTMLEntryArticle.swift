// One entry as an HTML <article>: header, body with coded segments marked, strokes, attachments, codings.
import Foundation

struct HTMLEntryArticle {
    var context: ExportContext
    var links: HTMLLinks

    func html(_ e: Entry) -> String {
        let diary = context.diary
        var s = "<article class=\"entry\" id=\"entry-\(HTMLText.escape(e.id))\">\n<header>"
        s += "<h1><a href=\"\(links.entry(e))\">\(HTMLText.escape(e.title.isEmpty ? e.id : e.title))</a></h1>\n<p class=\"meta\">"
        s += "<time datetime=\"\(e.date)\">\(HTMLEntryArticle.readableDate(e.date))</time>"
        if let m = diary.moodScales.label(of: e) { s += " · " + m }
        if let t = e.template { s += " · " + HTMLText.escape(t) }
        for t in e.tags { s += " <a class=\"tag\" href=\"\(links.tag(t))\">#\(HTMLText.escape(t))</a>" }
        s += "</p>\n"
        if !e.fields.isEmpty {
            s += "<dl class=\"fields\">"
            for (k, v) in e.fields { s += "<dt>\(HTMLText.escape(k))</dt><dd>\(HTMLText.escape(v.readable))</dd>" }
            s += "</dl>\n"
        }
        s += "</header>\n<div class=\"body\">\n"
        // The segments come in the order of `codes:`, orphaned quotes left out: each is found
        // from where the last one was, so two equal codings still get their own places.
        var next = e.codings.startIndex
        let segments = context.codedSegments(of: e).map { found -> CodedSegment in
            let place = e.codings[next...].firstIndex(of: found.coding)
            if let place { next = place + 1 }
            return CodedSegment(range: found.range, code: found.coding.code, color: context.codeColor(found.coding.code), coding: place)
        }
        let rule = context.entryLinks
        var body = HTMLEntryArticle.demotingHeadings(CodedSegmentMarker.render(
            e.body, segments: segments, unsafe: context.options.unsafeHTML,
            target: { url, _ in
                guard let target = rule.resolve(url: url, from: e.path) else { return nil }
                return links.bodyTarget(target, has: context.has)
            },
            wiki: { written, label in wikiLink(written, label) }))
        let files = context.attachments(of: e)
        if links.singleFile { body = inlineImages(body, entry: e, files: files) }
        s += body + "</div>\n"
        if let ink = context.strokesSVG(of: e) { s += "<figure class=\"ink\">\(ink)<figcaption>Pen strokes</figcaption></figure>\n" }
        if !files.isEmpty {
            s += "<section class=\"attachments\"><h2>Attachments</h2><ul>"
            for f in files {
                let src = attachmentTarget(e, f)
                let isImage = Attachments.imageExtensions.contains((f as NSString).pathExtension.lowercased())
                if links.singleFile { s += "<li>\(HTMLText.escape(f))</li>" }
                else if isImage && !body.contains("src=\"\(src)\"") { s += "<li><a href=\"\(src)\"><img src=\"\(src)\" alt=\"\(HTMLText.escape(f))\"></a></li>" }
                else { s += "<li><a href=\"\(src)\">\(HTMLText.escape(f))</a></li>" }
            }
            s += "</ul></section>\n"
        }
        if let from = context.linkIndex?.linking(to: e.path), !from.isEmpty {
            s += "<section class=\"backlinks\"><h2>Linked from</h2><ul>"
            for path in from { s += "<li><a href=\"\(links.entry(path: path, ""))\">\(HTMLText.escape(context.title(of: path)))</a></li>" }
            s += "</ul></section>\n"
        }
        if !e.codings.isEmpty {
            s += "<section class=\"codings\"><h2>Codings</h2><ul>"
            for c in e.codings {
                s += "<li style=\"--code: \(context.codeColor(c.code))\"><span class=\"swatch\" style=\"background: \(context.codeColor(c.code))\"></span> "
                s += "<a href=\"\(links.code(c.code))\">\(HTMLText.escape(c.code))</a>"
                if let coder = c.madeBy(defaultCoder: context.defaultCoder) { s += " <span class=\"meta\">by \(HTMLText.escape(coder))</span>" }
                // A quote and a memo are Markdown as the body is (`**` shows as bold, not as stars);
                // raw HTML in them stays text, as `Markdown.html` keeps it without `unsafe`.
                s += c.quote.map { "<blockquote>\(Markdown.html($0))</blockquote>" } ?? " <span class=\"meta\">\(c.unquotedPlace)</span>"
                if let memo = c.memo { s += "<div class=\"memo\">Memo: \(Markdown.html(memo))</div>" }
                s += "</li>"
            }
            s += "</ul></section>\n"
        }
        return s + "</article>\n"
    }

    /// A `[[…]]` link as a link to the entry's page, its text the label or else the entry's
    /// title; nil (left as written) when it leads to no entry the pages have. Coded segments'
    /// markers in it stay in the text, so the segment's marks stay balanced.
    func wikiLink(_ written: String, _ label: String) -> (url: String, text: String)? {
        let isMarker = { (u: Unicode.Scalar) in u.value >= CodedSegmentMarker.startBase && u.value < CodedSegmentMarker.startBase + 0x10000 }
        let id = String(String.UnicodeScalarView(written.unicodeScalars.filter { !isMarker($0) }))
        guard case let .entry(path, fragment) = context.entryLinks.resolve(id: id), context.has(path) else { return nil }
        let markers = String(String.UnicodeScalarView(written.unicodeScalars.filter(isMarker)))
        return (links.entry(path: path, fragment), (label.isEmpty ? context.title(of: path) : label) + markers)
    }

    /// The attachment as the entry's body links it (`<id>/<name>`): a site keeps attachments beside
    /// the entry's page, so the body's own links work unchanged.
    func attachmentTarget(_ e: Entry, _ name: String) -> String {
        let rel = e.id + "/" + name
        return HTMLText.escape(rel.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "()"))) ?? rel)
    }

    /// In one page, the body's images of attachments become data URLs, so the page stands alone.
    func inlineImages(_ html: String, entry e: Entry, files: [String]) -> String {
        var html = html
        for f in files {
            let ext = (f as NSString).pathExtension.lowercased()
            let target = "src=\"" + attachmentTarget(e, f) + "\""
            guard Attachments.imageExtensions.contains(ext), html.contains(target),
                  let data = FileManager.default.contents(atPath: context.diary.url(Attachments.folder(ofEntry: e.path) + "/" + f).path)
            else { continue }
            let type = ext == "svg" ? "image/svg+xml" : ext == "jpg" ? "image/jpeg" : "image/" + ext
            html = html.replacingOccurrences(of: target, with: "src=\"data:\(type);base64,\(data.base64EncodedString())\"")
        }
        return html
    }

    /// The body's headings one level down, under the entry's own `<h1>` (`<h1>` → `<h2>`, … `<h6>` stays).
    static func demotingHeadings(_ html: String) -> String {
        var bytes = Array(html.utf8)
        var i = 0
        while i + 2 < bytes.count {
            defer { i += 1 }
            guard bytes[i] == UInt8(ascii: "<") else { continue }
            let h = bytes[i + 1] == UInt8(ascii: "/") ? i + 2 : i + 1
            guard h + 1 < bytes.count, bytes[h] == UInt8(ascii: "h"), (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[h + 1]),
                  h + 2 < bytes.count, bytes[h + 2] == UInt8(ascii: ">") || bytes[h + 2] == UInt8(ascii: " ") else { continue }
            bytes[h + 1] += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func readableDate(_ d: LocalDateTime) -> String {
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return names[d.day.weekday - 1] + " " + d.day.description + String(format: " %02d:%02d", d.hour, d.minute)
    }
}
