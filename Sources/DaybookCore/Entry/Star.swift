// Favourites: `starred: true` in the front matter, the field jrnl's and Day One's imports keep.
import Foundation

extension Entry {
    /// The front-matter key of a favourite.
    public static let starredKey = "starred"

    /// Whether the entry is a favourite: `starred: true` (any other value, or none, is not).
    public var isStarred: Bool { fields.contains { $0.0 == Entry.starredKey && $0.1 == .bool(true) } }
}

extension Change {
    /// Stars (`on`) or unstars the entry at `rel`: writes `starred: true`, or removes the key,
    /// leaving every other line as it was. Returns the entry's title, or nil when it already was so.
    public func setStarred(_ rel: String, _ on: Bool) throws -> String? {
        var title: String?
        try editEntry(rel) { text, entry in
            if on {
                guard !entry.isStarred else { return }
                text.set(key: Entry.starredKey, lines: ["\(Entry.starredKey): true"])
            } else {
                // `starred: false` goes too: unstarred is the key's absence.
                guard text.span(of: Entry.starredKey) != nil else { return }
                text.remove(key: Entry.starredKey)
            }
            title = entry.title
        }
        return title
    }
}
