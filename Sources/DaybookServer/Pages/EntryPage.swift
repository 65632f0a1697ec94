// One entry as `export html` shows it, with the codebook to code a selection, and a canvas to draw on.
import DaybookCore
import Foundation

struct EntryPage {
    let diary: Diary
    let view: HTMLEntryView
    let entry: Entry
    let version: String
    /// The number of codings of each code in the diary (kept by the server until an entry changes).
    let codingCounts: [String: Int]

    /// Codes of the codebook and in use, with the number of codings of each in the diary.
    func codebook() -> [(code: String, count: Int, description: String?)] {
        let book = (try? Codebook.load(diary)) ?? Codebook()
        var names = book.allCodes
        for name in codingCounts.keys.sorted() where !names.contains(name) { names.append(name) }
        return names.map { ($0, codingCounts[$0] ?? 0, book.code($0)?.description) }
    }

    func html() -> String {
        var s = "<p class=\"actions\"><a href=\"/entries/\(AppLayout.escape(entry.id))/edit\">Edit</a></p>\n"
        s += "<div class=\"entry-app\">\n"
        s += "<div class=\"reading\" id=\"reading\">\n" + view.article(entry) + "</div>\n"
        s += "<aside class=\"panel\">\n<section class=\"codebook\"><h2>Codebook</h2>\n"
        s += "<p class=\"meta\">Select text in the entry, then choose a code.</p>\n"
        s += "<form id=\"coding-form\" class=\"coding-form\" hidden>\n"
        s += "<p class=\"selection\" id=\"selection-text\"></p>\n"
        s += "<label>Code <input name=\"code\" id=\"code-input\" list=\"code-names\" autocomplete=\"off\" required></label>\n"
        s += "<label>Memo <input name=\"memo\" id=\"memo-input\" autocomplete=\"off\"></label>\n"
        s += "<button type=\"submit\">Code</button> <button type=\"button\" id=\"coding-cancel\">Cancel</button>\n"
        s += "<p class=\"error\" role=\"alert\" id=\"coding-error\"></p></form>\n"
        s += "<datalist id=\"code-names\">"
        let codes = codebook()
        for c in codes { s += "<option value=\"\(AppLayout.escape(c.code))\">" }
        s += "</datalist>\n<ul class=\"codes\" id=\"codebook\">"
        for c in codes {
            s += "<li><button type=\"button\" class=\"code-pick\" data-code=\"\(AppLayout.escape(c.code))\">"
            s += "<span class=\"swatch\" style=\"background: \(view.codeColor(c.code))\"></span> \(AppLayout.escape(c.code))</button>"
            s += " <span class=\"meta\">\(c.count)</span> <a class=\"code-page\" href=\"/codes/\(AppLayout.escape(c.code.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? c.code))\" title=\"every highlight of this code\">all</a></li>"
        }
        s += "</ul>\n"
        s += "<div id=\"coding-detail\" class=\"coding-detail\" hidden></div>\n"
        s += "</section>\n</aside>\n</div>\n"
        s += ink()
        return s
    }

    func ink() -> String {
        var s = "<section class=\"ink-editor\" id=\"ink-editor\"><h2>Draw</h2>\n<div class=\"toolbar\" role=\"toolbar\">\n"
        for (tool, label) in [("pen", "Pen"), ("pencil", "Pencil"), ("marker", "Marker"), ("highlighter", "Highlighter"), ("eraser", "Eraser")] {
            s += "<label><input type=\"radio\" name=\"tool\" value=\"\(tool)\"\(tool == "pen" ? " checked" : "")> \(label)</label>\n"
        }
        s += "<label>Colour <input type=\"color\" id=\"ink-color\" value=\"#1f2328\"></label>\n"
        s += "<label>Code <input id=\"ink-code\" list=\"code-names\" placeholder=\"highlighter only\"></label>\n"
        s += "<span class=\"meta\" id=\"ink-status\" role=\"status\"></span>\n</div>\n"
        s += "<canvas id=\"ink-canvas\" width=\"768\" height=\"600\" aria-label=\"Drawing area: draw with a pen or a mouse\"></canvas>\n</section>\n"
        return s
    }

    var data: [String: String] {
        ["entry": entry.id, "version": version, "strict": diary.config.strictCodebook ? "true" : "false"]
    }
}
