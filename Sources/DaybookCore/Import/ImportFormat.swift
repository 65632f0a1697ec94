// The import formats' common protocol, what they hand back, and the registry the CLI reads.
import Foundation

/// One import format. Adding a format is adding a type that conforms, and one line in `ImportFormats.all`.
public protocol ImportFormat {
    static var name: String { get }
    static var summary: String { get }
    init()
    /// Reads every record at `url`. Malformed input throws an error naming the record and the
    /// field, before anything is written.
    func read(_ url: URL, diary: Diary, reading: ImportReading) throws -> ImportBatch
}

extension ImportFormat {
    public func read(_ url: URL, diary: Diary) throws -> ImportBatch { try read(url, diary: diary, reading: ImportReading()) }
}

/// How a format reads its input.
public struct ImportReading {
    /// With `strict` false a format that can skip a record it cannot read (a folder's file) does so
    /// with a warning instead of stopping; a format whose records come from one file stops at the
    /// first it cannot read, strict or not.
    public var strict: Bool
    /// Records (or files) read so far, of how many: called after each one, so a long read shows
    /// how far it got.
    public var progress: (Int, Int) -> Void

    public init(strict: Bool = false, progress: @escaping (Int, Int) -> Void = { _, _ in }) {
        self.strict = strict
        self.progress = progress
    }
}

/// One entry to create.
public struct ImportedEntry {
    public var draft: EntryDraft
    /// Files to copy into the entry's attachment folder, with the names to give them.
    public var attachments: [(name: String, file: URL)] = []
    /// The body once the entry's id is known (for links to its attachments); nil: the draft's body.
    public var body: ((String) -> String)?
    /// How messages name the record (`entries[3]`, a file name, `line 12`).
    public var record: String
    /// The front-matter field that holds the record's id in the program it came from (Day One's
    /// `uuid`): an entry of the diary with the same value there is this record, already imported.
    public var idField: String?

    public init(draft: EntryDraft, record: String) {
        self.draft = draft
        self.record = record
    }

    /// The body written for an entry with this id.
    public func finalBody(id: String) -> String { body?(id) ?? draft.body }
}

/// What a format read: the entries, warnings that did not stop it, and a folder to remove afterwards.
public final class ImportBatch {
    public var entries: [ImportedEntry] = []
    public var warnings: [Diagnostic] = []
    /// A temporary folder (an unpacked archive) removed when the batch goes away.
    public var temporaryFolder: URL?

    public init() {}

    deinit { if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) } }
}

/// The registry: `daybook import` accepts exactly these names, in this order.
public enum ImportFormats {
    public static let all: [ImportFormat.Type] = [JrnlImport.self, DayOneImport.self, MarkdownImport.self, JSONLinesImport.self]

    public static func named(_ name: String) -> ImportFormat.Type? { all.first { $0.name == name.lowercased() } }

    public static var names: [String] { all.map { $0.name } }
}

/// Malformed input: which file, which record, which field, and what is wrong.
func malformed(_ file: String, _ record: String, _ field: String?, _ problem: String, line: Int? = nil) -> DaybookError {
    .input("\(record)\(field.map { ", field `\($0)`" } ?? ""): \(problem); nothing was imported", at: SourceLocation(path: file, line: line))
}
