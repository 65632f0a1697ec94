// `check`'s problems of one entry as LSP diagnostics, each at its range in the editor's text.
import DaybookCore
import Foundation

enum Diagnostics {
    static func of(_ doc: Document) -> [LSPDiagnostic] {
        guard let a = doc.analysis, let (context, _) = doc.place else { return [] }
        var out = a.check.problems.map { lsp($0, lines: a.lines, context: context) }
        if !doc.diskChanges.isEmpty {
            let top = lines0(a.lines)
            out.append(LSPDiagnostic(range: top, severity: 3, message: diskNotice(doc.diskChanges),
                                     data: .object([("diskChanged", .bool(true))])))
        }
        return out
    }

    /// The YAML value that starts at `from`: a quoted scalar to its closing quote, a plain one to
    /// the `,`, `]` or `}` that ends it in a flow list (or a comment, or the line's end); a
    /// flow collection to the line's end. So a bad tag in `tags: [ok, "bad tag!"]` is marked alone.
    static func valueRange(_ lines: TextLines, line n: Int, from start: String.Index) -> LSPRange {
        let whole = lines.contentRange(line: n, from: start)
        let end = lines.lineEnd(n)
        guard start < end else { return whole }
        let text = lines.text
        let first = text[start]
        var i = text.index(after: start)
        if first == "\"" || first == "'" {
            while i < end {
                if text[i] == "\\" && first == "\"" { i = text.index(after: i); if i < end { i = text.index(after: i) }; continue }
                if text[i] == first { return lines.range(start..<text.index(after: i)) }
                i = text.index(after: i)
            }
            return whole
        }
        if first == "[" || first == "{" { return whole }
        i = start
        var last = start
        while i < end, text[i] != ",", text[i] != "]", text[i] != "}" {
            if text[i] == "#", i > start, text[text.index(before: i)] == " " { break }
            if text[i] != " " && text[i] != "\t" { last = text.index(after: i) }
            i = text.index(after: i)
        }
        return last > start ? lines.range(start..<last) : whole
    }

    /// What the server says when the file changed on disk under the open buffer.
    static func diskNotice(_ changes: [String]) -> String {
        "the file changed on disk since it was opened (\(changes.joined(separator: ", "))): saving keeps that change "
            + "(merged as sync merges, or refused if it collides with yours); the code action “Take the change made on disk” brings it in now"
    }

    static func lines0(_ lines: TextLines) -> LSPRange { lines.contentRange(line: 0) }

    /// The range of a problem: its own where it has an end (a link), else from its column (or
    /// the line's first non-blank character) to the end of the line's content. Without a line, the first line (the `---` that opens the entry).
    static func lsp(_ d: DaybookCore.Diagnostic, lines: TextLines, context: DiaryContext) -> LSPDiagnostic {
        let line = max(1, d.location?.line ?? 1)
        var range: LSPRange
        if let column = d.location?.column, let endLine = d.location?.endLine, let endColumn = d.location?.endColumn {
            range = LSPRange(start: lines.position(line: line, scalarColumn: column), end: lines.position(line: endLine, scalarColumn: endColumn))
        } else if let column = d.location?.column, column > 1 {
            let start = lines.position(line: line, scalarColumn: column)
            range = valueRange(lines, line: line - 1, from: lines.index(of: start))
        } else {
            range = lines.contentRange(line: line - 1)
        }
        if range.start.line >= lines.count { range = lines.contentRange(line: lines.count - 1) }
        var out = LSPDiagnostic(range: range, severity: d.severity == .error ? 1 : 2, message: d.message)
        if let code = d.undefinedCode {
            // The code's name, not the whole list item.
            let l = lines.line(range.start.line)
            if let r = l.range(of: code, options: .caseInsensitive, range: (l.range(of: "code:")?.upperBound ?? l.startIndex)..<l.endIndex) {
                out.range = lines.range(r)
            }
            out.data = .object([("undefinedCode", .string(code))])
            let related = d.closeNames.compactMap { name -> LSPDiagnostic.Related? in
                guard let n = context.codebookLine(of: name) else { return nil }
                let at = LSPRange(start: Position(line: n, character: 0), end: Position(line: n, character: 0))
                return .init(location: Location(uri: context.codebookURI, range: at), message: "close: \(name)")
            }
            if !related.isEmpty { out.relatedInformation = related }
        }
        return out
    }
}
