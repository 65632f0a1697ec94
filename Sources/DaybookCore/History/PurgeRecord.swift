// `purged.yml`: the entries `daybook purge` erased from history, as digests of their ids, never names.
import Foundation
import Crypto

/// The record a purge commits at the diary's root, so that another machine learns of the purge at
/// its next sync and applies it to its own history. A YAML mapping, one key per erased entry (the
/// SHA-256 of its id), so that two machines' records merge key by key like daybook.yml.
public struct PurgeRecord: Equatable, Sendable {
    public static let path = "purged.yml"

    public struct Item: Equatable, Hashable, Sendable {
        /// SHA-256 of the entry's id, in hex.
        public var digest: String
        /// The folder the entry was filed in (`entries/2026/11`): where to look for it in history.
        public var folder: String
        /// When the purge was made.
        public var date: String
    }

    public var items: [Item] = []

    public init(items: [Item] = []) { self.items = items }

    public var digests: Set<String> { Set(items.map(\.digest)) }

    /// The SHA-256 of an entry id, in hex.
    public static func digest(ofID id: String) -> String {
        SHA256.hash(data: Data(id.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static let header = """
    # Entries erased from every commit of this diary's history by `daybook purge` (man daybook-purge).
    # Each key is the SHA-256 of an erased entry's id; the names and words are gone. Do not edit.

    """

    /// Reads the record; a file that does not read as one (edited by hand) is an error naming it.
    public init(text: String) throws {
        guard let root = try YAML.compose(text, path: PurgeRecord.path) else { return }
        guard case let .object(pairs) = YAML.value(root) else {
            throw DaybookError.input("the purge record must be a mapping of digests to {folder, purged}", at: SourceLocation(path: PurgeRecord.path, line: 1))
        }
        for (key, value) in pairs {
            guard key.count == 64, key.allSatisfy(\.isHexDigit), let folder = value["folder"]?.stringValue,
                  Diary.isSafeFolder(folder) else {
                throw DaybookError.input("the purge record's entry `\(key)` is not a SHA-256 digest with a folder under entries/", at: SourceLocation(path: PurgeRecord.path))
            }
            items.append(Item(digest: key, folder: folder, date: value["purged"]?.stringValue ?? ""))
        }
    }

    public var text: String {
        PurgeRecord.header + items.sorted { $0.digest < $1.digest }
            .map { "\($0.digest): {folder: \($0.folder), purged: \($0.date)}\n" }.joined()
    }

    /// The record of the commit `commit`, empty when it has none.
    public static func at(_ commit: String, in repo: Repository) throws -> PurgeRecord {
        guard let file = try repo.files(at: commit, under: path).first else { return PurgeRecord() }
        return try PurgeRecord(text: String(decoding: file.data, as: UTF8.self))
    }
}

extension Diary {
    /// A folder entries are filed in: `entries/<year>/<month>`, with no part that leads elsewhere.
    static func isSafeFolder(_ folder: String) -> Bool {
        let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "entries" && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
