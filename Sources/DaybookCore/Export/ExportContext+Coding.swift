// What exports ask about codes: the codebook, where each coded segment is, which colour a code has.
import Foundation

extension ExportContext {
    /// Drawn for a code the codebook gives no colour.
    public static let defaultCodeColor = "#bf8700"

    /// The diary's codebook, read once per export.
    public func codebook() throws -> Codebook {
        if let loaded = loadedCodebook { return loaded }
        var book = try Codebook.load(diary)
        if let redaction, let data = FileManager.default.contents(atPath: diary.codebookFile.path),
           let text = String(validatingUTF8Data: data) {
            book = try Codebook.parse(redaction.text(text), path: diary.displayPath(Codebook.fileName))
        }
        loadedCodebook = book
        return book
    }

    /// The codebook for colours and categories: a broken codebook.yml is warned about once and
    /// the export goes on without it (qdpx, qdc and csv --codings stop instead).
    private var book: Codebook {
        do { return try codebook() } catch {
            let e = error as? DaybookError
            warnings.append(Diagnostic(.warning, (e?.message ?? "\(error)") + "; exported without the codebook's colours",
                                       at: e?.location ?? SourceLocation(path: diary.displayPath("codebook.yml"))))
            loadedCodebook = Codebook()
            return Codebook()
        }
    }

    /// The code's colour, else the nearest category's, so a category colours its whole branch.
    public func codeColor(_ code: String) -> String {
        HTMLText.color(book.color(of: code)) ?? ExportContext.defaultCodeColor
    }

    public func codeDescription(_ code: String) -> String? { book.code(code)?.description }

    /// The code's ancestors joined with ` > ` (`emotions > frustration` gives `emotions`); nil for an undefined or top-level code.
    public func codeCategoryPath(_ code: String) -> String? {
        // A top-level code has no category: nil, not "" (which a page would show as a stray "in ").
        book.path(of: code).flatMap { $0.count > 1 ? $0.dropLast().joined(separator: " > ") : nil }
    }

    /// The entry's codings that quote a segment, with where it is; an orphaned quote is left out with a warning.
    public func codedSegments(of e: Entry) -> [(coding: Coding, anchor: QuoteAnchor, range: Range<String.Index>)] {
        var out: [(Coding, QuoteAnchor, Range<String.Index>)] = []
        guard e.codings.contains(where: { $0.quote != nil }) else { return out }
        // Offsets become indices through one table, not a walk from the start per coding.
        let scalars = e.body.unicodeScalars
        let index = Array(scalars.indices) + [scalars.endIndex]
        var search = QuoteSearch(e.body)
        for c in e.codings where c.quote != nil {
            guard let a = search.anchor(of: c) else {
                warn("the quote of the coding `\(c.code)` no longer occurs in the entry (orphaned); exported without its position (qdpx: as a coding of the whole entry, the quote in its description)",
                     path: diary.displayPath(e.path))
                continue
            }
            out.append((c, a, index[a.start]..<index[a.end]))
        }
        return out
    }

    /// The entry's strokes as inline SVG; a broken stroke file is a warning, never a failed export.
    public func strokesSVG(of e: Entry) -> String? {
        guard e.hasInk else { return nil }
        do {
            guard let loaded = try StrokeFile.load(entry: source(e.path), in: diary) else { return nil }
            let svg = InkRenderer.svg(loaded.file)
            if svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") { return String(svg[svg.index(after: end)...]) }
            return svg
        } catch let error as DaybookError {
            warn(error.message, path: diary.displayPath(e.path))
            return nil
        } catch {
            return nil
        }
    }
}
