// The links between a diary's entries, read in one pass over their bodies: what links to each entry.
import Foundation

/// Built once per run, by whatever asks for backlinks: every body is read once, and only
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

    /// Reads the links of `entries`: from their bodies when loaded, else from their files, on
    /// every core, gathered in the order of `entries`.
    public init(_ entries: [Entry], links: EntryLinks) {
        let root = links.diary.root.path
        let buffers = ReusePool<FileBytes> { FileBytes() }
        InOrder.forEach(entries.count, { i in buffers.with { LinkIndex.links(of: entries[i], links: links, root: root, file: $0) } }) { i, found in
            let e = entries[i]
            for link in found {
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

    /// The links of `e`: of its body when loaded, else of its file, read into `file` (from the
    /// diary's folder `root`); only a file that may hold a link is decoded and parsed.
    static func links(of e: Entry, links: EntryLinks, root: String, file: FileBytes) -> [EntryLink] {
        if !e.body.isEmpty { return links.links(of: e) }
        guard file.read(e.path, in: root), EntryLinks.mayHaveLinks(UnsafeRawBufferPointer(file.bytes)),
              let text = String(validatingUTF8Data: Data(file.bytes)), let doc = try? EntryText(text, path: e.path) else { return [] }
        return links.links(inBody: doc.body, ofEntry: e.path, bodyStartLine: doc.bodyStartLine)
    }
}
