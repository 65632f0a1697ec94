// One diary the server works in: the library's Diary, its codebook and what its entries hold.
import DaybookCore
import Foundation

final class DiaryContext {
    /// The library's long-running diary: settings read again when daybook.yml or a template
    /// changes, the entries' snapshot kept while inotify says nothing under entries/ changed.
    let live: LiveDiary
    private var lastGood: Diary
    private var book = Codebook()
    private var bookStamp: Date??

    init(diary: Diary, environment: [String: String]) {
        live = LiveDiary(diary, environment: environment)
        lastGood = diary
    }

    /// The diary with its settings as they are now; while daybook.yml does not read (being
    /// edited), the last settings that did.
    var diary: Diary {
        if let d = try? live.diary() { lastGood = d }
        return lastGood
    }

    /// The codebook as the file is now (read again when it changed); empty when it does not
    /// parse (`check` reports that on its own line).
    var codebook: Codebook {
        let stamp = (try? FileManager.default.attributesOfItem(atPath: diary.codebookFile.path))?[.modificationDate] as? Date
        if bookStamp == nil || bookStamp! != stamp {
            book = (try? Codebook.load(diary)) ?? Codebook()
            bookStamp = .some(stamp)
        }
        return book
    }

    /// What the diary's entries hold (tags, codes and keys with their counts): counted once, then
    /// adjusted by LiveDiary entry by entry as files change, so a completion after a save decodes
    /// the saved entry, not the diary. Titles (for workspace symbols) are read when asked for.
    var entries: DiaryIndex {
        DiaryIndex(live: live) ?? DiaryIndex(snapshot: diary.scanEntries())
    }

    /// The diary's rule for links: a `[[prefix]]` is looked up in the ids of the kept snapshot.
    var entryLinks: EntryLinks { (try? live.entryLinks()) ?? EntryLinks(diary) }

    /// The line (0-based) of a code's key in codebook.yml, nil when the file has none.
    func codebookLine(of code: String) -> Int? {
        guard let text = try? String(contentsOf: diary.codebookFile, encoding: .utf8) else { return nil }
        for (n, line) in EntryText.splitLines(text).enumerated() {
            let t = line.drop { $0 == " " || $0 == "\t" }
            for form in [code + ":", "\"\(code)\":", "'\(code)':"] where t.lowercased().hasPrefix(form) { return n }
        }
        return nil
    }

    var codebookURI: String { URL(fileURLWithPath: diary.codebookFile.path).absoluteString }
}

/// Counts over the diary's entries, for completion, hover and workspace symbols.
struct DiaryIndex {
    struct EntryName {
        var id: String
        var title: String
        var path: String
        var date: LocalDateTime
    }

    /// Tags with their number of entries, most used first.
    var tags: [(name: String, entries: Int)] = []
    /// Codes in use with their number of codings and entries.
    var codes: [String: (codings: Int, entries: Int)] = [:]
    /// Front-matter keys other than the known ones, with their number of entries.
    var keys: [String: Int] = [:]
    /// The entries' names, newest last; read when asked for (workspace symbols).
    let names: () -> [EntryName]
    var entries: [EntryName] { names() }

    /// The counts as LiveDiary keeps them; nil when the entries cannot be read.
    init?(live: LiveDiary) {
        guard let tagCounts = try? live.counts("lsp.tags", parts: .tags, keys: { $0.tags }),
              let codings = try? live.counts("lsp.codings", parts: .codings, keys: { $0.codings.map(\.code) }),
              let coded = try? live.counts("lsp.coded entries", parts: .codings, keys: { Array(Set($0.codings.map(\.code))) }),
              let keys = try? live.counts("lsp.keys", parts: .fields, keys: { $0.fields.map(\.0) })
        else { return nil }
        tags = DiaryIndex.byUse(tagCounts)
        codes = codings.mapValues { ($0, 0) }
        for (code, n) in coded { codes[code]?.entries = n }
        self.keys = keys
        names = { (try? live.derived("lsp.names", DiaryIndex.names)) ?? [] }
    }

    /// The same counted from a snapshot at once (where nothing is kept).
    init(snapshot: EntrySnapshot) {
        var tagCounts: [String: Int] = [:]
        for k in 0..<snapshot.count {
            let e = snapshot.entry(k, parts: [.tags, .fields, .codings])
            for t in e.tags { tagCounts[t, default: 0] += 1 }
            for c in e.codings { codes[c.code, default: (0, 0)].codings += 1 }
            for code in Set(e.codings.map(\.code)) { codes[code]?.entries += 1 }
            for (key, _) in e.fields { keys[key, default: 0] += 1 }
        }
        tags = DiaryIndex.byUse(tagCounts)
        names = { DiaryIndex.names(snapshot) }
    }

    static func byUse(_ counts: [String: Int]) -> [(name: String, entries: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func names(_ snapshot: EntrySnapshot) -> [EntryName] {
        snapshot.entries(0..<snapshot.count, parts: .title).map { EntryName(id: $0.id, title: $0.title, path: $0.path, date: $0.date) }
    }

    /// Codes by use, most used first, then the codebook's in its order.
    func codesByUse(_ book: Codebook) -> [String] {
        let used = codes.sorted { $0.value.codings != $1.value.codings ? $0.value.codings > $1.value.codings : $0.key < $1.key }.map(\.key)
        return used + book.allCodes.filter { codes[$0] == nil }
    }
}
