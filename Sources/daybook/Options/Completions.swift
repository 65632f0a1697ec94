// Dynamic shell completions: template names, tags, codes and entry ids, asked of the binary as the shell completes.
import ArgumentParser
import DaybookCore
import Foundation

/// The completion scripts (`daybook --generate-completion-script bash|zsh|fish`) call
/// `daybook ---completion …` for these arguments and offer what it prints. The diary is found as
/// the command would find it (`--diary` on the line being completed, `$DAYBOOK_DIR`, the folder's
/// diary, `~/daybook`); without one, only what needs none (built-in templates, `last`) is offered.
/// Nothing is ever printed on stderr and no error escapes: a completion offers less, never fails.
enum Completions {
    static let templates = CompletionKind.custom { words, _, prefix in
        matching(prefix, TemplateLibrary(folder: diary(from: words)?.templatesFolder).allNames)
    }

    /// Tags in use, most used first (the order the shell keeps when it does not sort).
    static let tags = CompletionKind.custom { words, _, prefix in
        guard let diary = diary(from: words) else { return [] }
        var counts: [String: Int] = [:]
        for e in entries(of: diary) { for t in e.tags { counts[t, default: 0] += 1 } }
        return matching(prefix, counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key))
    }

    /// The codebook's codes, then codes used in entries but not defined.
    static let codes = CompletionKind.custom { words, _, prefix in
        guard let diary = diary(from: words) else { return [] }
        var names = (try? Codebook.load(diary).allCodes) ?? []
        var seen = Set(names)
        for e in entries(of: diary) { for c in e.codings where seen.insert(c.code).inserted { names.append(c.code) } }
        return matching(prefix, names)
    }

    /// `last`, `today`, `yesterday`, then entry ids, newest first.
    static let entries = CompletionKind.custom { words, _, prefix in
        let named = ["last", "today", "yesterday"]
        guard let diary = diary(from: words) else { return matching(prefix, named) }
        return matching(prefix, named + entries(of: diary).reversed().map(\.id))
    }

    /// Keys in use in the diary (`daybook fields`) and daybook's own, for `--field` and, after the
    /// last comma, for `--columns`.
    static let keys = CompletionKind.custom { words, _, prefix in
        let done = prefix.range(of: ",", options: .backwards).map { String(prefix[..<$0.upperBound]) } ?? ""
        let inUse = diary(from: words).map { FieldCensus(entries(of: $0)).keys.map(\.name) } ?? []
        var seen = Set<String>()
        let names = (inUse + Entry.computedKeys).filter { seen.insert($0).inserted }
        return matching(String(prefix.dropFirst(done.count)), names).map { done + $0 }
    }

    static func matching(_ prefix: String, _ names: [String]) -> [String] {
        prefix.isEmpty ? names : names.filter { $0.hasPrefix(prefix) }
    }

    /// The diary the completed command line names, if it exists.
    static func diary(from words: [String]) -> Diary? {
        var explicit: String?
        for (i, w) in words.enumerated() {
            if w == "--diary", i + 1 < words.count { explicit = words[i + 1] }
            else if w.hasPrefix("--diary=") { explicit = String(w.dropFirst("--diary=".count)) }
        }
        let env = ProcessInfo.processInfo.environment
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let (url, _) = Diary.locate(explicit: explicit.map { NSString(string: $0).expandingTildeInPath }, environment: env, workingDirectory: cwd)
        guard Diary.exists(at: url) else { return nil }
        return try? Diary.open(url, environment: env, workingDirectory: cwd)
    }

    /// Every readable entry (from the cache, so a completion stays quick); unreadable ones are left out.
    static func entries(of diary: Diary) -> [Entry] {
        var ignored: [Diagnostic] = []
        return diary.loadEntries(diagnostics: &ignored, bodies: false)
    }
}
