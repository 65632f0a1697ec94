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

    /// What the diary's entries hold (tags, codes and keys with their counts, titles), worked
    /// out once per snapshot of the entries (LiveDiary keeps it until an entry changes).
    var entries: DiaryIndex {
        (try? live.derived("lsp.index") { DiaryIndex($0) }) ?? DiaryIndex(diary.scanEntries())
    }

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
    var entries: [EntryName] = []

    init(_ snapshot: EntrySnapshot) {
        var tagCounts: [String: Int] = [:]
        for k in 0..<snapshot.count {
            let e = snapshot.entry(k, parts: [.title, .tags, .fields, .codings])
            for t in e.tags { tagCounts[t, default: 0] += 1 }
            var seen = Set<String>()
            for c in e.codings {
                var n = codes[c.code] ?? (0, 0)
                n.codings += 1
                if seen.insert(c.code).inserted { n.entries += 1 }
                codes[c.code] = n
            }
            for (key, _) in e.fields { keys[key, default: 0] += 1 }
            entries.append(EntryName(id: e.id, title: e.title, path: e.path, date: e.date))
        }
        tags = tagCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Codes by use, most used first, then the codebook's in its order.
    func codesByUse(_ book: Codebook) -> [String] {
        let used = codes.sorted { $0.value.codings != $1.value.codings ? $0.value.codings > $1.value.codings : $0.key < $1.key }.map(\.key)
        return used + book.allCodes.filter { codes[$0] == nil }
    }
}
