// The HTML export's overview (calendar, entry list, tags, codes) and its tag and code sections.
import Foundation

struct HTMLIndex {
    var context: ExportContext
    var links: HTMLLinks

    func overview(_ entries: [Entry], tags: [String]) -> String {
        var s = "<h1>\(HTMLText.escape(context.diaryName))</h1>\n"
        s += "<p class=\"meta\">\(entries.count) entr\(entries.count == 1 ? "y" : "ies")"
        if let first = entries.first, let last = entries.last { s += ", \(first.date.day) to \(last.date.day)" }
        s += "</p>\n"
        var perDay: [LocalDay: Int] = [:]
        for e in entries { perDay[e.date.day, default: 0] += 1 }
        s += CalendarHeatmap.svg(entriesPerDay: perDay, mondayFirst: context.diary.config.weekStartsOnMonday) + "\n"
        if !perDay.isEmpty { s += CalendarHeatmap.legend + "\n" }
        s += "<h2>Entries</h2>\n"
        if HTMLIndex.pagedByYear(entries, links: links) {
            // Thousands of entries on one page are no list to read: a page per year instead.
            s += "<ul class=\"year-list\">\n"
            for (year, those) in HTMLIndex.byYear(entries).reversed() {
                s += "<li><a href=\"\(links.root)\(HTMLIndex.yearPage(year))\">\(year)</a> <span class=\"meta\">\(those.count) entr\(those.count == 1 ? "y" : "ies")</span></li>\n"
            }
            s += "</ul>\n"
        } else {
            s += entryList(entries)
        }
        if !tags.isEmpty {
            s += "<h2>Tags</h2>\n<p>" + tags.map { "<a class=\"tag\" href=\"\(links.tag($0))\">#\(HTMLText.escape($0))</a>" }.joined(separator: " ") + "</p>\n"
        }
        let codes = HTMLIndex.byCode(entries)
        if !codes.isEmpty {
            s += "<h2>Codes</h2>\n<ul>"
            for (code, segments) in codes {
                s += "<li><span class=\"swatch\" style=\"background: \(context.codeColor(code))\"></span> "
                s += "<a href=\"\(links.code(code))\">\(HTMLText.escape(code))</a> <span class=\"meta\">\(segments.count) coding\(segments.count == 1 ? "" : "s")</span></li>"
            }
            s += "</ul>\n"
        }
        return s
    }

    /// The entries, newest first, with their dates and tags.
    func entryList(_ entries: [Entry]) -> String {
        var s = "<ul class=\"entry-list\">\n"
        for e in entries.reversed() {
            s += "<li><time datetime=\"\(e.date)\">\(HTMLEntryArticle.readableDate(e.date))</time> "
            s += "<a href=\"\(links.entry(e))\">\(HTMLText.escape(e.title.isEmpty ? e.id : e.title))</a>"
            for t in e.tags { s += " <a class=\"tag\" href=\"\(links.tag(t))\">#\(HTMLText.escape(t))</a>" }
            s += "</li>\n"
        }
        return s + "</ul>\n"
    }

    /// A site's index lists at most this many entries itself; past it, a page per year does.
    static let entriesOnIndex = 500

    static func pagedByYear(_ entries: [Entry], links: HTMLLinks) -> Bool {
        !links.singleFile && !links.app && entries.count > entriesOnIndex
    }

    /// The entries by year, oldest year first (the entries are in date order).
    static func byYear(_ entries: [Entry]) -> [(Int, [Entry])] {
        var out: [(Int, [Entry])] = []
        for e in entries {
            if out.last?.0 == e.date.day.year { out[out.count - 1].1.append(e) } else { out.append((e.date.day.year, [e])) }
        }
        return out
    }

    static func yearPage(_ year: Int) -> String { "years/\(year).html" }

    static func tagSection(_ tag: String, _ entries: [Entry], links: HTMLLinks) -> String {
        var s = "<section class=\"tag-page\" id=\"tag-\(HTMLText.escape(HTMLText.pageName(tag)))\"><h1>#\(HTMLText.escape(tag))</h1>\n<ul class=\"entry-list\">\n"
        for e in entries {
            s += "<li><time datetime=\"\(e.date)\">\(HTMLEntryArticle.readableDate(e.date))</time> <a href=\"\(links.entry(e))\">\(HTMLText.escape(e.title.isEmpty ? e.id : e.title))</a></li>\n"
        }
        return s + "</ul></section>\n"
    }

    /// Every code used by the entries with its codings, by name.
    static func byCode(_ entries: [Entry]) -> [(String, [(Entry, Coding)])] {
        var map: [String: [(Entry, Coding)]] = [:]
        for e in entries { for c in e.codings { map[c.code, default: []].append((e, c)) } }
        return map.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func codeSection(_ code: String, _ codings: [(Entry, Coding)], context: ExportContext, links: HTMLLinks) -> String {
        let color = context.codeColor(code)
        var s = "<section class=\"code-page\" id=\"code-\(HTMLText.escape(HTMLText.pageName(code)))\" style=\"--code: \(color)\">"
        s += "<h1><span class=\"swatch\" style=\"background: \(color)\"></span> \(HTMLText.escape(code))</h1>\n"
        if let path = context.codeCategoryPath(code), path != code { s += "<p class=\"meta\">in \(HTMLText.escape(path))</p>\n" }
        if let d = context.codeDescription(code) { s += "<p>\(HTMLText.escape(d))</p>\n" }
        s += "<ul class=\"segments\">\n"
        for (e, c) in codings {
            s += "<li><a href=\"\(links.entry(e))\">\(HTMLText.escape(e.title.isEmpty ? e.id : e.title))</a> <span class=\"meta\">\(e.date.day)"
            if let coder = c.madeBy(defaultCoder: context.defaultCoder) { s += " · \(HTMLText.escape(coder))" }
            s += "</span>"
            s += c.quote.map { "<blockquote>\(HTMLText.escape($0))</blockquote>" } ?? " <span class=\"meta\">\(c.unquotedPlace)</span>"
            if let memo = c.memo { s += "<p class=\"memo\">Memo: \(HTMLText.escape(memo))</p>" }
            s += "</li>\n"
        }
        return s + "</ul></section>\n"
    }
}
