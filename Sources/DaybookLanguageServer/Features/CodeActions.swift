// Code actions: "Code as CODE" on a selection, remove a coding, add a tag, define an unknown code.
import DaybookCore
import Foundation

enum CodeActions {
    /// How many "Code as" actions a selection gets: the codes most used.
    static let codesOffered = 5

    static func actions(_ doc: Document, params p: CodeActionParams) -> [CodeAction] {
        guard let a = doc.analysis, let (context, rel) = doc.place else { return [] }
        var out: [CodeAction] = []
        // Quick fixes on the diagnostics the editor sends back.
        for d in p.context.diagnostics {
            guard case let .string(code)? = d.data?["undefinedCode"] else { continue }
            out.append(CodeAction(title: "Define `\(code)` in the codebook", kind: "quickfix", diagnostics: [d], isPreferred: true,
                                  command: Command(title: "Define \(code)", command: Capabilities.defineCode, arguments: [.string(doc.uri), .string(code)])))
        }
        // The file changed on disk under the buffer: bring that change in (merged with the buffer's).
        if !doc.diskChanges.isEmpty, let disk = doc.diskText, let base = doc.base,
           let merged = try? EditMerge.keep(disk, base: base.text, edited: doc.text, path: rel).text,
           let e = TextDiff.edit(from: a.lines, to: merged) {
            out.append(CodeAction(title: "Take the change made on disk", kind: "quickfix", isPreferred: true,
                                  edit: WorkspaceEdit(changes: [doc.uri: [e]])))
        }
        guard let entry = a.check.usable, let entryText = a.entryText else { return out }
        let lo = a.lines.index(of: p.range.start), hi = a.lines.index(of: p.range.end)
        let bodyStart = a.lines.starts.count > entryText.closing + 1 ? a.lines.starts[entryText.closing + 1] : a.lines.text.endIndex
        func edit(_ change: (inout EntryText) throws -> Void) -> WorkspaceEdit? {
            var text = entryText
            guard (try? change(&text)) != nil, let e = TextDiff.edit(from: a.lines, to: text.text) else { return nil }
            return WorkspaceEdit(changes: [doc.uri: [e]])
        }
        // A selection in the body: code it.
        if let sel = selection(a, lo..<hi, bodyStart: bodyStart) {
            for code in context.entries.codesByUse(context.codebook).prefix(codesOffered) {
                guard let coding = try? codeAs(code, doc: doc, range: a.lines.range(sel)) else { continue }
                out.append(CodeAction(title: "Code as \(code)", kind: "refactor", edit: coding.edit))
            }
            let word = Tag.normalize(String(a.lines.text[sel]))
            if Tag.isValid(word), !entry.frontTags.contains(word),
               let e = edit({ var t = TagLines($0); t.add([word]); $0 = t.text }) {
                out.append(CodeAction(title: "Add tag \(word)", kind: "refactor", edit: e))
            }
        }
        // Codings whose segment holds the position, or whose lines it is on: remove them.
        let position = lo >= bodyStart ? a.lines.text.unicodeScalars.distance(from: bodyStart, to: lo) : nil
        let onLines = CodingLines(entryText).located.filter { p.range.start.line + 1 >= $0.line }.last?.coding
        for (k, c) in entry.codings.enumerated() where c.source == .frontMatter {
            let inSegment = position.map { pos in c.quote != nil && entry.anchor(k).map { $0.start <= pos && pos <= $0.end } == true } ?? false
            let onItsLines = position == nil && onLines == c && entryText.span(of: "codes")?.contains(p.range.start.line) == true
            guard inSegment || onItsLines,
                  let removal = try? CodeRemoval(code: c.code, quote: c.quote, coder: c.coder, entry: entry, diary: context.diary),
                  let e = edit({ removal.apply(to: &$0) }) else { continue }
            let what = c.quote.map { " on \"\(CodeApplication.short($0))\"" } ?? ""
            if !out.contains(where: { $0.title == "Remove coding \(c.code)\(what)" }) {
                out.append(CodeAction(title: "Remove coding \(c.code)\(what)", kind: "refactor", edit: e))
            }
        }
        return out
    }

    /// The selected part of the body without the blank space around it; nil when nothing of the
    /// body is selected.
    static func selection(_ a: Document.Analysis, _ r: Range<String.Index>, bodyStart: String.Index) -> Range<String.Index>? {
        let text = a.lines.text
        var lo = max(r.lowerBound, bodyStart), hi = r.upperBound
        while lo < hi, text[lo].isWhitespace { lo = text.index(after: lo) }
        while hi > lo, text[text.index(before: hi)].isWhitespace { hi = text.index(before: hi) }
        return lo < hi ? lo..<hi : nil
    }

    /// The coding of `code` on the selection as `code add --quote` writes it (the quote, its
    /// occurrence, the coder), as an edit of the front matter of the editor's text.
    static func codeAs(_ code: String, doc: Document, range: LSPRange) throws -> (edit: WorkspaceEdit, addsCode: Bool) {
        guard let a = doc.analysis, let (context, _) = doc.place else { throw DaybookError.input("not an entry of a diary") }
        guard let entry = a.check.usable, let entryText = a.entryText else {
            throw DaybookError.input("the entry has problems to fix first (see its diagnostics)")
        }
        let bodyStart = a.lines.starts.count > entryText.closing + 1 ? a.lines.starts[entryText.closing + 1] : a.lines.text.endIndex
        guard let sel = selection(a, a.lines.index(of: range.start)..<a.lines.index(of: range.end), bodyStart: bodyStart) else {
            throw DaybookError.usage("select the words to code in the body")
        }
        let quote = String(a.lines.text[sel])
        let offset = a.lines.text.unicodeScalars.distance(from: bodyStart, to: sel.lowerBound)
        let occurrence = QuoteAnchor.occurrence(of: quote, startingAt: offset, in: entry.body)
        let application = try CodeApplication(code: code, quote: quote, occurrence: occurrence, memo: nil, coder: nil,
                                              entry: entry, diary: context.diary, codebook: context.codebook)
        var text = entryText
        application.apply(to: &text)
        guard let e = TextDiff.edit(from: a.lines, to: text.text) else { throw DaybookError.nothing("nothing to change") }
        return (WorkspaceEdit(changes: [doc.uri: [e]]), application.addsCode)
    }
}
