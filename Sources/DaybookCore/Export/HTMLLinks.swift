// Where the HTML export's pages link to: files of a site, or anchors of a single page.
import Foundation

struct HTMLLinks {
    /// True for `--single-file`: every link is an anchor in the one page.
    var singleFile: Bool
    /// The way back to the site's root from the page being written (`../../../` from an entry page).
    var root = ""
    /// True for the pages of `daybook serve`: entries at `/entries/ID`, tags and codes as filters.
    var app = false

    func entry(_ e: Entry) -> String {
        if app { return "/entries/" + e.id }
        return singleFile ? "#entry-" + e.id : root + String(e.path.dropLast(3)) + ".html"
    }

    func tag(_ t: String) -> String {
        if app { return "/?tag=" + HTMLLinks.queryValue(t) }
        return singleFile ? "#tag-" + HTMLText.pageName(t) : root + "tags/" + HTMLText.pageName(t) + ".html"
    }

    func code(_ c: String) -> String {
        if app { return "/?code=" + HTMLLinks.queryValue(c) }
        return singleFile ? "#code-" + HTMLText.pageName(c) : root + "codes/" + HTMLText.pageName(c) + ".html"
    }

    var index: String { app ? "/" : singleFile ? "#top" : root + "index.html" }

    static func queryValue(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_/"))) ?? s
    }

    /// Relative path of an entry's page within the site.
    static func page(of e: Entry) -> String { String(e.path.dropLast(3)) + ".html" }

    /// The same links as seen from `page` (a path relative to the site's root).
    func from(page: String) -> HTMLLinks {
        var l = self
        l.root = String(repeating: "../", count: page.split(separator: "/").count - 1)
        return l
    }
}
