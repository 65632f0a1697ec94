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

    /// Where a link (or image) in entry `e`'s body leads on the page, when it names another entry
    /// by its file, relative to `e`'s file (`2026-11-02-2230-login-trouble.md`,
    /// `../10/ID.md#part`): that entry's page (its anchor in a single page, `/entries/ID` in the
    /// app). In the app, a link to another entry's attachment (`../10/ID/photo.jpg`) goes to where
    /// the app serves it. Nil keeps the destination as written (a web address, an anchor, an
    /// attachment of a site, which sits where the body's relative link looks for it).
    func bodyTarget(_ url: String, of e: Entry, isImage: Bool) -> String? {
        guard let (path, suffix) = HTMLLinks.resolve(url, from: e.path) else { return nil }
        if Diary.isEntryPath(path) {
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
        let parts = path.split(separator: "/")
        guard app, parts.count == 5, Diary.isEntryFileName(parts[3] + ".md") else { return nil }
        return "/entries/" + parts[3] + "/" + parts[4] + suffix
    }

    /// A relative destination resolved against the entry file's folder: the path below the
    /// diary (percent escapes undone) and what followed it (`#…`, `?…`); nil for a web address,
    /// an absolute path, an anchor, or one that leaves entries/.
    static func resolve(_ url: String, from entryPath: String) -> (String, String)? {
        guard !url.isEmpty, !url.hasPrefix("#"), !url.hasPrefix("/"),
              url.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) == nil else { return nil }
        let cut = url.firstIndex(where: { $0 == "#" || $0 == "?" }) ?? url.endIndex
        guard let relative = String(url[..<cut]).removingPercentEncoding, !relative.isEmpty else { return nil }
        var parts = entryPath.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        guard parts.first == "entries" else { return nil }
        return (parts.joined(separator: "/"), String(url[cut...]))
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
