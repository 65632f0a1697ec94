// A code's page, as Taguette's highlights view: every highlight of the code with its entry, coder, memo and context; the code's settings.
import DaybookCore
import Foundation

struct CodePage {
    let code: String
    let book: Codebook
    let color: String
    let highlights: [CodeHighlight]
    /// Everyone who made a coding of the code (before the coder filter), for the filter's choices.
    let coders: [String]
    let query: [String: String]

    func html() -> String {
        let e = AppLayout.escape
        let path = book.path(of: code)
        var s = "<h1><span class=\"swatch\" style=\"background: \(e(color))\"></span> \(e(code))</h1>\n"
        if let path, path.count > 1 { s += "<p class=\"meta\">under \(e(path.dropLast().joined(separator: " › ")))</p>\n" }
        if let d = book.code(code)?.description { s += "<p class=\"description\">\(e(d))</p>\n" }
        s += "<form class=\"filters\" method=\"get\" action=\"\">\n<label>Coder <select name=\"coder\"><option value=\"\">(everyone)</option>"
        for c in coders { s += "<option\(query["coder"] == c ? " selected" : "")>\(e(c))</option>" }
        s += "</select></label>\n"
        s += "<label>From <input name=\"from\" value=\"\(e(query["from"] ?? ""))\" placeholder=\"last month\"></label>\n"
        s += "<label>To <input name=\"to\" value=\"\(e(query["to"] ?? ""))\" placeholder=\"today\"></label>\n"
        s += "<button type=\"submit\">Filter</button> <a id=\"csv\" href=\"?\(IndexPage.encode(query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + [("format", "csv")]))\">CSV</a></form>\n"
        s += "<p class=\"meta\" id=\"highlight-count\">\(highlights.count) highlight\(highlights.count == 1 ? "" : "s")</p>\n<ol class=\"highlights\" id=\"highlights\">\n"
        for h in highlights {
            s += "<li><p class=\"meta\"><a href=\"/entries/\(e(h.entryID))\">\(e(h.title.isEmpty ? h.entryID : h.title))</a> · "
            s += "<time datetime=\"\(h.date)\">\(HTMLEntryView.readableDate(h.date))</time>"
            if h.code != code { s += " · \(e(h.code))" }
            s += " · <span class=\"coder\">\(e(h.coder ?? "unnamed coder"))</span></p>\n"
            if let q = h.quote {
                s += "<blockquote>…\(e(h.before))<mark class=\"coded\" style=\"--code: \(e(color))\">\(e(q))</mark>\(e(h.after))…</blockquote>\n"
            } else {
                s += "<blockquote class=\"meta\">(the whole entry)</blockquote>\n"
            }
            if let m = h.memo { s += "<p class=\"memo\">\(e(m))</p>\n" }
            s += "</li>\n"
        }
        s += "</ol>\n"
        s += manage()
        return s
    }

    /// Rename, merge, move, describe, recolour: each the CLI's core function, one commit each.
    func manage() -> String {
        let e = AppLayout.escape
        var s = "<section class=\"manage\" id=\"manage\"><h2>Change the code</h2>\n<p class=\"error\" role=\"alert\" id=\"code-error\"></p>\n"
        func form(_ action: String, _ label: String, _ field: String, _ button: String, value: String = "", type: String = "text") -> String {
            "<form class=\"code-action\" data-action=\"\(action)\"><label>\(label) <input type=\"\(type)\" name=\"\(field)\" value=\"\(e(value))\" autocomplete=\"off\"\(type == "color" ? "" : " list=\"code-names\"")></label> <button type=\"submit\">\(button)</button></form>\n"
        }
        s += form("rename", "New name", "to", "Rename")
        s += form("merge", "Merge into", "into", "Merge")
        s += form("move", "Move under", "parent", "Move", value: book.path(of: code).flatMap { $0.count > 1 ? $0[$0.count - 2] : nil } ?? "")
        s += form("describe", "Description", "description", "Describe", value: book.code(code)?.description ?? "")
        s += form("recolour", "Colour", "color", "Recolour", value: color, type: "color")
        s += "<datalist id=\"code-names\">" + book.allCodes.map { "<option value=\"\(e($0))\">" }.joined() + "</datalist>\n"
        return s + "</section>\n"
    }
}
