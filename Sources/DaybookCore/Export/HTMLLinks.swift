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

    /// For `show --html`, a page of one entry that stands alone: the diary's folder, where its
    /// links to other entries lead (the absolute paths of their `.md` files).
    var standaloneDiary: URL?

    /// Where a link (or image) in an entry's body leads on the page, from where it leads in the
    /// diary (`EntryLinks`): another entry's page (its anchor in a single page, `/entries/ID` in
    /// the app; `has` says which entries the pages hold). In the app, an attachment goes to where
    /// the app serves it. Nil keeps the destination as written (an attachment of a site or a
    /// single page, which sits where the body's relative link looks for it); `.some(nil)` shows
    /// the link's text without a destination: a link to nothing, out of the entries, or to an
    /// entry the pages do not have.
    func bodyTarget(_ target: LinkTarget, has: (String) -> Bool) -> String?? {
        switch target {
        case let .entry(path, fragment):
            return has(path) ? entry(path: path, fragment) : .some(nil)
        case let .attachment(path):
            let parts = path.split(separator: "/")
            guard has(parts.dropLast().joined(separator: "/") + ".md") else { return .some(nil) }
            guard app else { return nil }
            return "/entries/" + parts[3] + "/" + parts[4]
        case .noEntry, .noAttachment, .ambiguous, .outside:
            return .some(nil)
        }
    }

    /// The page of the entry at `path` (relative to the diary), with `#part` or `?…` after it.
    func entry(path: String, _ suffix: String) -> String {
        let id = Entry.id(ofPath: path)
        if app { return "/entries/" + id + suffix }
        if let standaloneDiary {
            // An absolute path, not a file: URL (cmark blanks those as unsafe): a page opened
            // from a file resolves it to the entry's file wherever the page was saved.
            let full = standaloneDiary.appendingPathComponent(path).path
            return (full.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? full) + suffix
        }
        if singleFile { return "#entry-" + id }
        return root + String(path.dropLast(3)) + ".html" + suffix
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
