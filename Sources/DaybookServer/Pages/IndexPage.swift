// The first page: the filters of SPEC §3 as a form, search as you type, the calendar and the entries.
import DaybookCore
import Foundation

struct IndexPage {
    let diary: Diary
    /// The entries as the server last walked them: the filter decodes only what it looks at, and
    /// only the page's hundred entries are decoded whole.
    let snapshot: EntrySnapshot
    let view: HTMLEntryView
    /// The query's filters, by name (repeated names give several values).
    let query: [(String, String)]
    static let pageSize = 100

    /// A filter's values; a form field may hold several, separated by commas.
    func values(_ name: String) -> [String] {
        query.filter { $0.0 == name }.flatMap { $0.1.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    func value(_ name: String) -> String? { values(name).first }

    func filter() throws -> CompiledFilter {
        var f = EntryFilter()
        f.from = value("from"); f.to = value("to"); f.on = value("on")
        f.wheres = query.filter { $0.0 == "where" && !$0.1.isEmpty }.map(\.1)
        f.tags = values("tag"); f.notTags = values("not-tag"); f.anyTags = values("any-tag")
        f.codes = values("code"); f.mood = value("mood"); f.template = value("template")
        f.hasInk = value("has-ink") != nil; f.onThisDay = value("on-this-day") != nil
        let book = f.codes.isEmpty ? Codebook() : ((try? Codebook.load(diary)) ?? Codebook())
        return try f.compile(clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday, expandCode: { book.descendants(of: $0) })
    }

    func html() throws -> String {
        var problem: String?
        var positions: [Int] = []
        do {
            positions = try filter().positions(snapshot)
        } catch let e as DaybookError {
            problem = e.message
        }
        let page = max(1, Int(value("page") ?? "") ?? 1)
        let newest = Array(positions.reversed())
        let shown = snapshot.entries(newest.dropFirst((page - 1) * IndexPage.pageSize).prefix(IndexPage.pageSize), parts: [.title, .tags])
        let pages = max(1, (newest.count + IndexPage.pageSize - 1) / IndexPage.pageSize)
        // Headings and skip links, so a keyboard or a screen reader gets past the filters and the
        // hundred links of a page without a hundred Tabs.
        var s = "<h1>Entries</h1>\n<ul class=\"skips\"><li><a class=\"skip\" href=\"#list-heading\">Skip to the entries</a></li>"
        s += "<li><a class=\"skip\" href=\"#pages\">Skip to the pages</a></li></ul>\n"
        s += form(problem: problem)
        s += "<section id=\"search-results\" class=\"search-results\" hidden aria-labelledby=\"found-heading\"><h2 id=\"found-heading\">Found</h2><ol></ol></section>\n"
        s += "<section class=\"overview\" aria-labelledby=\"calendar-heading\"><h2 id=\"calendar-heading\">Calendar</h2><p class=\"meta\">\(positions.count) entr\(positions.count == 1 ? "y" : "ies")</p>\n"
        s += view.heatmap(days: positions.map { snapshot.date($0).day }) + "</section>\n"
        s += unparsed()
        s += "<h2 id=\"list-heading\" tabindex=\"-1\">Newest first\(pages > 1 ? ", page \(page) of \(pages)" : "")</h2>\n"
        s += "<ul class=\"entry-list\" id=\"entries\" aria-labelledby=\"list-heading\">\n"
        for e in shown {
            s += "<li><time datetime=\"\(e.date)\">\(HTMLEntryView.readableDate(e.date))</time> "
            s += "<a href=\"\(view.entryLink(e))\">\(AppLayout.escape(e.title.isEmpty ? e.id : e.title))</a>"
            for t in e.tags { s += " <a class=\"tag\" href=\"\(view.tagLink(t))\">#\(AppLayout.escape(t))</a>" }
            if e.hasInk { s += " <span class=\"meta\" title=\"has pen strokes\">✎</span>" }
            s += "</li>\n"
        }
        s += "</ul>\n"
        s += pagination(page: page, pages: pages)
        return s
    }

    /// The pages of the list as a navigation landmark: newer, where this page is, older.
    func pagination(page: Int, pages: Int) -> String {
        func link(_ n: Int, _ text: String, _ rel: String) -> String {
            let rest = query.filter { $0.0 != "page" } + (n == 1 ? [] : [("page", "\(n)")])
            return "<a rel=\"\(rel)\" href=\"/?\(IndexPage.encode(rest))\">\(text)</a>"
        }
        var s = "<nav class=\"pages\" id=\"pages\" aria-label=\"Pages of entries\" tabindex=\"-1\"><p>"
        if page > 1 { s += link(page - 1, "Newer entries", "prev") + " " }
        s += "<span aria-current=\"page\">Page \(min(page, pages)) of \(pages)</span>"
        if page < pages { s += " " + link(page + 1, "Older entries", "next") }
        return s + "</p></nav>\n"
    }

    /// Entry files that do not read, whatever the filters: named with their first problem and a
    /// link to the page that shows all of them and edits the raw text (they were left out unsaid).
    func unparsed() -> String {
        let files = snapshot.unparsed
        guard !files.isEmpty else { return "" }
        var s = "<section class=\"unparsed\" id=\"unparsed\"><h2>Entries that do not read</h2><ul>\n"
        for (path, problems) in files {
            let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            s += "<li><a href=\"/entries/\(AppLayout.escape(id))\">\(AppLayout.escape(id))</a> "
            s += "<span class=\"error\">\(AppLayout.escape(problems.first?.description ?? "cannot be read"))</span></li>\n"
        }
        return s + "</ul></section>\n"
    }

    func form(problem: String?) -> String {
        func field(_ name: String, _ label: String, placeholder: String = "") -> String {
            "<label>\(label) <input name=\"\(name)\" value=\"\(AppLayout.escape(values(name).joined(separator: ",")))\" placeholder=\"\(AppLayout.escape(placeholder))\"></label>"
        }
        var s = "<form class=\"filters\" method=\"get\" action=\"/\" role=\"search\">\n"
        s += "<label class=\"search\">Search <input type=\"search\" name=\"q\" id=\"q\" autocomplete=\"off\" value=\"\(AppLayout.escape(value("q") ?? ""))\" placeholder=\"words in titles and bodies\"></label>\n"
        s += field("from", "From", placeholder: "last month") + field("to", "To", placeholder: "today")
        s += field("tag", "Tag") + field("not-tag", "Not tag") + field("code", "Code")
        s += field("mood", "Mood", placeholder: ">=3") + field("where", "Where", placeholder: "key=value") + field("template", "Template")
        s += "<label><input type=\"checkbox\" name=\"has-ink\" value=\"1\"\(value("has-ink") != nil ? " checked" : "")> with pen strokes</label>\n"
        s += "<button type=\"submit\">Filter</button> <a href=\"/\">Clear</a>\n"
        if let problem { s += "<p class=\"error\" role=\"alert\">\(AppLayout.escape(problem))</p>\n" }
        return s + "</form>\n"
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.~"))
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }
}
