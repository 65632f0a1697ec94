// Links between entries as zk's server offers them: `[[` completion, go to the linked entry, its
// preview on hover, backlinks as references, document links, the headings as an outline.
import DaybookCore
import Foundation

enum LinkFeatures {
    /// The links of the open entry (the library's rule: `[[ID]]`, `[[ID|label]]`, relative
    /// links), each with its range in the editor's text.
    static func links(_ doc: Document) -> [(link: EntryLink, range: LSPRange)] {
        guard let a = doc.analysis, let (context, rel) = doc.place, let entry = a.check.usable else { return [] }
        return context.entryLinks.links(inBody: entry.body, ofEntry: rel, bodyStartLine: entry.bodyStartLine).compactMap { l in
            guard let line = l.range.line, let column = l.range.column, let endLine = l.range.endLine, let endColumn = l.range.endColumn else { return nil }
            return (l, LSPRange(start: a.lines.position(line: line, scalarColumn: column), end: a.lines.position(line: endLine, scalarColumn: endColumn)))
        }
    }

    static func link(_ doc: Document, at p: Position) -> EntryLink? {
        links(doc).first { $0.range.start <= p && p <= $0.range.end }?.link
    }

    /// The file a link leads to, when it leads to one that is there.
    static func file(of target: LinkTarget) -> String? {
        switch target {
        case let .entry(path, _): return path
        case let .attachment(path): return path
        default: return nil
        }
    }

    static func uri(_ rel: String, in diary: Diary) -> String { URL(fileURLWithPath: diary.url(rel).path).absoluteString }

    static func definition(_ doc: Document, at p: Position) -> Location? {
        guard let (context, _) = doc.place, let l = link(doc, at: p), let path = file(of: l.target) else { return nil }
        let zero = Position(line: 0, character: 0)
        return Location(uri: uri(path, in: context.diary), range: LSPRange(start: zero, end: zero))
    }

    /// How many lines of the linked entry's body a hover shows.
    static let previewLines = 6

    /// The linked entry's title, date, tags and first lines.
    static func hover(_ doc: Document, at p: Position) -> Hover? {
        guard let (context, _) = doc.place, let found = links(doc).first(where: { $0.range.start <= p && p <= $0.range.end }) else { return nil }
        switch found.link.target {
        case let .entry(path, _):
            guard let e = context.diary.readEntry(path).entry else { return nil }
            var text = "**\(e.title.isEmpty ? e.id : e.title)**\n\n\(e.date.description)"
            if !e.tags.isEmpty { text += " · " + e.tags.map { "#" + $0 }.joined(separator: " ") }
            let lines = EntryText.splitLines(e.body).map { $0.trimmingCharacters(in: .newlines) }.filter { !$0.isEmpty }.prefix(previewLines)
            if !lines.isEmpty { text += "\n\n---\n\n" + lines.joined(separator: "\n") }
            return Hover(contents: MarkupContent(value: text), range: found.range)
        case let .attachment(path):
            return Hover(contents: MarkupContent(value: "attachment `\(path)`"), range: found.range)
        default:
            return found.link.problem.map { Hover(contents: MarkupContent(value: $0), range: found.range) }
        }
    }

    static func documentLinks(_ doc: Document) -> [DocumentLink] {
        guard let (context, _) = doc.place else { return [] }
        return links(doc).compactMap { l, r in
            file(of: l.target).map { DocumentLink(range: r, target: uri($0, in: context.diary), tooltip: $0) }
        }
    }

    /// The entries that link to the entry at the position's link, else to the open entry.
    static func references(_ doc: Document, at p: Position) -> [Location] {
        guard let (context, rel) = doc.place else { return [] }
        let target = link(doc, at: p).flatMap { l -> String? in
            if case let .entry(path, _) = l.target { return path }
            return nil
        } ?? rel
        var out: [Location] = []
        var texts: [String: TextLines] = [:]
        for b in context.backlinks(to: target) {
            if texts[b.from] == nil {
                texts[b.from] = TextLines(context.diary.regularFileContents(b.from).flatMap { String(validatingUTF8Data: $0) } ?? "")
            }
            guard let lines = texts[b.from], let line = b.link.range.line, let column = b.link.range.column else { continue }
            let start = lines.position(line: line, scalarColumn: column)
            let end = lines.position(line: b.link.range.endLine ?? line, scalarColumn: b.link.range.endColumn ?? column)
            out.append(Location(uri: uri(b.from, in: context.diary), range: LSPRange(start: start, end: end)))
        }
        return out
    }

    /// The body's headings, nested by level.
    static func symbols(_ doc: Document) -> [DocumentSymbol] {
        guard let a = doc.analysis, let entry = a.check.usable else { return [] }
        var flat: [(level: Int, symbol: DocumentSymbol)] = []
        func walk(_ n: MarkdownNode) {
            if case let .heading(level) = n.kind, n.startLine > 0 {
                let line = entry.bodyStartLine - 1 + n.startLine - 1
                let r = a.lines.contentRange(line: line)
                let name = n.plainText.isEmpty ? String(a.lines.line(line)) : n.plainText
                flat.append((level, DocumentSymbol(name: name, kind: 15, range: r, selectionRange: r, children: [])))
                return
            }
            n.children.forEach(walk)
        }
        walk(Markdown.parse(entry.body))
        // Each heading goes under the nearest one before it of a smaller level.
        func nest(_ items: ArraySlice<(level: Int, symbol: DocumentSymbol)>) -> [DocumentSymbol] {
            var out: [DocumentSymbol] = []
            var i = items.startIndex
            while i < items.endIndex {
                var j = items.index(after: i)
                while j < items.endIndex, items[j].level > items[i].level { j = items.index(after: j) }
                var s = items[i].symbol
                s.children = nest(items[items.index(after: i)..<j])
                out.append(s)
                i = j
            }
            return out
        }
        return nest(flat[...])
    }

    /// How many entries a `[[` completion offers at most (the list is marked incomplete past it,
    /// so the editor asks again as more is typed).
    static let offered = 100

    /// Inside `[[` (before any `|`): the diary's entries whose title or id holds what is typed,
    /// newest first, inserting the id (and the closing `]]` when it is not there yet).
    static func completion(_ doc: Document, at p: Position) -> CompletionList? {
        guard let a = doc.analysis, let (context, rel) = doc.place, let entry = a.check.usable else { return nil }
        guard p.line >= entry.bodyStartLine - 1 else { return nil }
        let cursor = a.lines.index(of: p)
        let lineStart = a.lines.starts[min(p.line, a.lines.count - 1)]
        let before = a.lines.text[lineStart..<cursor]
        guard let open = before.range(of: "[[", options: .backwards) else { return nil }
        let typed = before[open.upperBound...]
        guard !typed.contains("]"), !typed.contains("|") else { return nil }
        let query = typed.trimmingCharacters(in: .whitespaces).lowercased()
        let after = a.lines.text[cursor..<a.lines.lineEnd(p.line)]
        let closes = after.hasPrefix("]]") || after.hasPrefix("|")
        let range = LSPRange(start: a.lines.position(of: open.upperBound), end: p)
        var items: [CompletionItem] = []
        var more = false
        let ownID = Entry.id(ofPath: rel)
        for (k, e) in context.entries.entries.reversed().enumerated() where e.id != ownID {
            guard query.isEmpty || e.title.lowercased().contains(query) || e.id.contains(query) else { continue }
            if items.count == offered { more = true; break }
            let label = e.title.isEmpty ? e.id : e.title
            items.append(CompletionItem(label: label, kind: 18, detail: "\(e.date.description.prefix(16).replacingOccurrences(of: "T", with: " ")) · \(e.id)",
                                        sortText: String(format: "%06d", k), filterText: typed + " " + e.id + " " + label,
                                        textEdit: TextEdit(range: range, newText: e.id + (closes ? "" : "]]"))))
        }
        // Always incomplete: the editor asks again at each keystroke, and the server filters by title
        // as well as id (an editor filters by the start of `filterText` only).
        _ = more
        return CompletionList(isIncomplete: true, items: items)
    }
}
