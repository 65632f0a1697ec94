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
        s += "<aside class=\"panel\" aria-label=\"Coding\">\n<section class=\"codebook\" aria-labelledby=\"codebook-heading\"><h2 id=\"codebook-heading\">Codebook</h2>\n"
        s += "<p class=\"meta\" id=\"coding-help\">Select text in the entry, then choose a code. Without a mouse: "
        s += "<button type=\"button\" id=\"keyboard-select\" aria-describedby=\"keys-help\">Select text with the keyboard</button></p>\n"
        s += "<p class=\"meta\" id=\"keys-help\" hidden>In the entry, arrows move, Shift with arrows selects (Ctrl for whole words), "
        s += "Enter codes the selection, Escape leaves.</p>\n"
        s += "<form id=\"coding-form\" class=\"coding-form\" hidden aria-labelledby=\"coding-form-heading\">\n"
        s += "<h3 id=\"coding-form-heading\">Code the selection</h3>\n"
        s += "<p class=\"selection\" id=\"selection-text\"></p>\n"
        s += "<label>Code <input name=\"code\" id=\"code-input\" list=\"code-names\" autocomplete=\"off\" required></label>\n"
        s += "<label>Memo <input name=\"memo\" id=\"memo-input\" autocomplete=\"off\"></label>\n"
        s += "<button type=\"submit\">Code</button> <button type=\"button\" id=\"coding-cancel\">Cancel</button>\n"
        // Said in the page's one status region (app.js), not a live region of its own.
        s += "<p class=\"error\" id=\"coding-error\"></p></form>\n"
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
        s += "</section>\n"
        s += codingList()
        s += "</aside>\n</div>\n"
        s += ink()
        return s
    }

    /// Each coding of the entry as a control, named by its code and where it starts and ends, that
    /// opens its memo and Remove; the highlights in the text open the same.
    func codingList() -> String {
        let e = AppLayout.escape
        var s = "<section class=\"codings-list\" aria-labelledby=\"codings-heading\"><h2 id=\"codings-heading\" tabindex=\"-1\">Change a coding</h2>\n"
        if entry.codings.isEmpty { s += "<p class=\"meta\">None yet.</p>\n" }
        s += "<ul id=\"coding-list\">"
        for (i, c) in entry.codings.enumerated() {
            s += "<li><button type=\"button\" class=\"coding-open\" data-coding=\"\(i)\" aria-expanded=\"false\" aria-controls=\"coding-detail\">"
            s += "<span class=\"swatch\" style=\"background: \(view.codeColor(c.code))\"></span>\(e(EntryPage.name(of: c)))</button></li>"
        }
        s += "</ul>\n<div id=\"coding-detail\" class=\"coding-detail\" hidden></div>\n</section>\n"
        return s
    }

    /// What a coding is called on the page: `code X: from “first words” to “last words”`.
    static func name(of c: Coding) -> String {
        if case let .ink(stroke) = c.source { return "code \(c.code): highlighter stroke \(stroke + 1)" }
        guard let quote = c.quote else { return "code \(c.code): the whole entry" }
        let words = quote.split(whereSeparator: \.isWhitespace)
        guard words.count > 1 else { return "code \(c.code): “\(words.first.map(String.init) ?? quote)”" }
        let k = min(3, words.count / 2)
        return "code \(c.code): from “\(words.prefix(k).joined(separator: " "))” to “\(words.suffix(k).joined(separator: " "))”"
    }

    func ink() -> String {
        var s = "<section class=\"ink-editor\" id=\"ink-editor\" aria-labelledby=\"draw-heading\"><h2 id=\"draw-heading\">Draw</h2>\n<div class=\"toolbar\" role=\"group\" aria-label=\"Pen\">\n"
        for (tool, label) in [("pen", "Pen"), ("pencil", "Pencil"), ("marker", "Marker"), ("highlighter", "Highlighter"), ("eraser", "Eraser")] {
            s += "<label><input type=\"radio\" name=\"tool\" value=\"\(tool)\"\(tool == "pen" ? " checked" : "")> \(label)</label>\n"
        }
        s += "<label>Colour <input type=\"color\" id=\"ink-color\" value=\"#1f2328\"></label>\n"
        s += "<label>Code <input id=\"ink-code\" list=\"code-names\" placeholder=\"highlighter only\"></label>\n"
        s += "<span class=\"meta\" id=\"ink-status\"></span>\n</div>\n"
        s += "<canvas id=\"ink-canvas\" width=\"768\" height=\"600\" aria-label=\"Drawing area: draw with a pen or a mouse\"></canvas>\n"
        // The strokes as a list, each with Delete: the eraser without a pointer.
        s += "<h3 id=\"strokes-heading\" tabindex=\"-1\">Strokes</h3>\n<ol id=\"stroke-list\" aria-labelledby=\"strokes-heading\"></ol>\n</section>\n"
        return s
    }

    var data: [String: String] {
        ["entry": entry.id, "version": version, "strict": diary.config.strictCodebook ? "true" : "false"]
    }
}
