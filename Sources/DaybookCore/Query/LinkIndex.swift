// The links between a diary's entries, read in one pass over their bodies: what links to each entry.
import Foundation

/// Built once per run (`links --backlinks`, `export html`): every body is read once, and only
/// bodies that may hold a link are parsed.
public struct LinkIndex {
    /// A link to an entry, from the entry at `from` (a path relative to the diary).
    public struct Backlink: Sendable {
        public var from: String
        public var link: EntryLink
    }

    /// For each entry linked to (its path): the links to it, in the order of `entries`, then of
    /// the bodies. A link of an entry to itself is left out.
    public private(set) var backlinks: [String: [Backlink]] = [:]

    /// Reads the links of `entries`: from their bodies when loaded, else from their files.
    public init(_ entries: [Entry], links: EntryLinks) {
        for e in entries {
            for link in LinkIndex.links(of: e, links: links) {
                guard case let .entry(path, _) = link.target, path != e.path else { continue }
                backlinks[path, default: []].append(Backlink(from: e.path, link: link))
            }
        }
    }

    /// The entries that link to the entry at `path`, each once, in the index's order.
    public func linking(to path: String) -> [String] {
        var seen = Set<String>()
        return (backlinks[path] ?? []).map(\.from).filter { seen.insert($0).inserted }
    }

    static func links(of e: Entry, links: EntryLinks) -> [EntryLink] {
        if !e.body.isEmpty { return links.links(of: e) }
        let diary = links.diary
        guard let data = FileManager.default.contents(atPath: diary.url(e.path).path), EntryLinks.mayHaveLinks(data),
              let text = String(validatingUTF8Data: data), let doc = try? EntryText(text, path: e.path) else { return [] }
        return links.links(inBody: doc.body, ofEntry: e.path, bodyStartLine: doc.bodyStartLine)
    }
}
