// Removing codings from an entry, as `code rm`, the language server and the web app all do it.
import Foundation

public struct CodeRemoval {
    public let code: String
    public let quote: String?
    public let coder: String?
    /// The front-matter codings that will go.
    public let codings: [Coding]

    /// Checks the request: the entry has such a front-matter coding (a highlighter stroke's coding
    /// lives in the stroke file and is refused with where it is; none at all is `.nothing`).
    public init(code rawCode: String, quote: String?, coder: String?, entry: Entry, diary: Diary) throws {
        let code = try CodeApplication.codeName(rawCode)
        self.code = code
        self.quote = quote
        self.coder = coder
        let hits = entry.codings.filter { c in
            c.code == code && (quote == nil || c.quote == quote) && (coder == nil || c.coder == coder)
        }
        codings = hits.filter { $0.source == .frontMatter }
        guard !codings.isEmpty else {
            if !hits.isEmpty {
                throw DaybookError.input("this coding is a highlighter stroke: it lives in \(diary.displayPath(StrokeFile.path(ofEntry: entry.path))); remove the stroke's code there")
            }
            throw DaybookError.nothing("daybook: \(entry.title) has no coding `\(code)`\(quote.map { " on \"\($0)\"" } ?? "")\(coder.map { " by \($0)" } ?? "")")
        }
    }

    /// Removes the codings' lines from an entry's text (an editor's buffer); nothing else changes.
    public func apply(to text: inout EntryText) {
        var lines = CodingLines(text)
        lines.update { c in codings.contains(c) ? nil : c }
        text = lines.text
    }

    /// Removes the codings' lines from the entry file in `change`.
    public func write(entry rel: String, in change: Change) throws {
        try change.editEntry(rel) { text, _ in apply(to: &text) }
    }

    /// `frustration on TITLE`, with the number of codings when more than one goes.
    public func summary(title: String) -> String {
        "\(code) on \(title)" + (codings.count > 1 ? " (\(codings.count) codings)" : "")
    }
}
