// Go to definition (a code to its line in codebook.yml) and workspace symbols (entries by title and id).
import DaybookCore
import Foundation

enum Navigation {
    static func definition(_ doc: Document, at p: Position) -> Location? {
        guard let (context, _) = doc.place, let code = HoverInfo.code(doc, at: p),
              let line = context.codebookLine(of: code) else { return nil }
        let at = Position(line: line, character: 0)
        return Location(uri: context.codebookURI, range: LSPRange(start: at, end: at))
    }

    /// How many symbols one query returns at most: quick-open shows a screenful.
    static let limit = 200

    /// Entries whose title or id holds the query (any case), newest first.
    static func symbols(matching query: String, in contexts: [DiaryContext]) -> [SymbolInformation] {
        let q = query.lowercased()
        var out: [SymbolInformation] = []
        for context in contexts {
            for e in context.entries.entries.reversed() {
                guard q.isEmpty || e.title.lowercased().contains(q) || e.id.contains(q) else { continue }
                let uri = URL(fileURLWithPath: context.diary.url(e.path).path).absoluteString
                let zero = Position(line: 0, character: 0)
                out.append(SymbolInformation(name: e.title.isEmpty ? e.id : e.title, location: Location(uri: uri, range: LSPRange(start: zero, end: zero)),
                                             containerName: e.id))
                if out.count >= limit { return out }
            }
        }
        return out
    }
}
