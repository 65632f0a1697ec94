// An entry file that does not read as an entry: its problems, each at its line, and a form on its raw text.
import DaybookCore
import Foundation

struct UnreadableEntryPage {
    let id: String
    let problems: [DaybookError]
    /// The file's text; nil when it is not UTF-8 (a text area would change its bytes, so it is
    /// edited in an editor instead).
    let text: String?

    func html() -> String {
        let e = AppLayout.escape
        var s = "<h1>\(e(id))</h1>\n<section class=\"problems\" role=\"alert\"><p>This entry does not read, so it is in no list, search or export until it is fixed:</p><ul>\n"
        for p in problems { s += "<li class=\"error\">\(e(p.description))</li>\n" }
        s += "</ul></section>\n"
        guard let text else {
            return s + "<p>The file is not UTF-8 text: fix it in an editor (<code>daybook edit \(e(id))</code>).</p>\n"
        }
        s += "<form id=\"raw-form\" class=\"entry-form\" novalidate>\n<p class=\"error\" role=\"alert\" id=\"form-error\"></p>\n"
        s += "<p class=\"conflict\" role=\"alert\" id=\"form-conflict\" hidden>This file changed on disk since you opened it. "
        s += "Nothing was overwritten, and your text is still here. <a href=\"\" id=\"conflict-reload\">Open the new version</a> (copy your text first).</p>\n"
        // The newline after <textarea> is dropped by the HTML parser, so the text's own first line stays.
        s += "<div class=\"control\" data-field=\"text\"><label>The file, front matter and body <textarea name=\"text\" rows=\"24\">\n\(e(text))</textarea></label></div>\n"
        s += "<button type=\"submit\">Save</button>\n</form>\n"
        return s
    }
}
