// One diary the server works in: the library's Diary, its codebook and what its entries hold.
import DaybookCore
import Foundation

final class DiaryContext {
    /// The library's long-running diary: settings read again when daybook.yml or a template
    /// changes, the entries' snapshot kept while inotify says nothing under entries/ changed.
    /// Used under `lock`: the counts are first made on a thread of their own (`warm`).
    private let live: LiveDiary
    private let lock = NSLock()
    private var lastGood: Diary
    private var book = Codebook()
    private var bookStamp: Date??
    private var warming = false

    init(diary: Diary, environment: [String: String]) {
        live = LiveDiary(diary, environment: environment)
        // The live diary's own (its clock asked at each read), never the one opened at start.
        lastGood = (try? live.diary()) ?? diary
    }

    /// The diary with its settings as they are now; while daybook.yml does not read (being
    /// edited), the last settings that did. While the counts are being made (`warm`), the
    /// settings of a moment ago, so that a keystroke's check does not wait for them.
    var diary: Diary {
        if lock.try() {
            defer { lock.unlock() }
            if let d = try? live.diary() { lastGood = d }
        }
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
    /// Waits for `warm` when it is still counting.
    var entries: DiaryIndex {
        let names: () -> [DiaryIndex.EntryName] = { [self] in
            lock.withLock { (try? live.derived("lsp.names", DiaryIndex.names)) ?? [] }
        }
        if let counts = lock.withLock({ try? live.counts(DiaryIndex.counted) }) { return DiaryIndex(counts: counts, names: names) }
        let snapshot = diary.scanEntries()
        return DiaryIndex(counts: LiveDiary.count(DiaryIndex.counted, over: snapshot), names: { DiaryIndex.names(snapshot) })
    }

    /// Makes the counts on a thread of their own, once, right after an entry of the diary was
    /// first checked: walking and decoding 100,000 entries takes longer than a completion may,
    /// and a person opens an entry a while before asking for one.
    func warm() {
        guard !warming else { return }
        warming = true
        Thread.detachNewThread { [self] in
            lock.withLock { _ = try? live.counts(DiaryIndex.counted) }
        }
    }

    /// The links to the entry at `path` from the others: read over the diary once, kept until
    /// an entry changes (LiveDiary), so each `references` after the first is a look-up.
    func backlinks(to path: String) -> [LinkIndex.Backlink] {
        let links = entryLinks
        let index = lock.withLock {
            try? live.derived("lsp.backlinks") { s in LinkIndex(s.entries(0..<s.count, parts: .title), links: links) }
        }
        return index?.backlinks[path] ?? []
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

    /// What is counted over the entries, in one pass (LiveDiary keeps the counts by these names).
    static let counted: [LiveDiary.Count] = [
        .init("lsp.tags", parts: .tags) { $0.tags },
        .init("lsp.codings", parts: .codings) { $0.codings.map(\.code) },
        .init("lsp.coded entries", parts: .codings) { Array(Set($0.codings.map(\.code))) },
        .init("lsp.keys", parts: .fields) { $0.fields.map(\.0) },
    ]

    /// The index from the counts of `counted`, in its order.
    init(counts: [[String: Int]], names: @escaping () -> [EntryName]) {
        tags = DiaryIndex.byUse(counts[0])
        codes = counts[1].mapValues { ($0, 0) }
        for (code, n) in counts[2] { codes[code]?.entries = n }
        keys = counts[3]
        self.names = names
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
