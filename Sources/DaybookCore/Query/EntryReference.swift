// ENTRY arguments: a path, an id, a unique id prefix, `last`, `today`, `yesterday`, a date.
import Foundation

public struct EntryReference {
    public let diary: Diary

    public init(_ diary: Diary) { self.diary = diary }

    /// The entry file (relative path) a reference names.
    public func resolve(_ ref: String) throws -> String {
        if ref.contains("/") || ref.hasSuffix(".md") || ref.hasPrefix(".") || ref.hasPrefix("~") {
            return try resolvePath(ref)
        }
        switch ref.lowercased() {
        case "last":
            var diags: [Diagnostic] = []
            guard let last = diary.loadEntries(diagnostics: &diags, bodies: false).last else { throw DaybookError.input("the diary has no entries yet") }
            return last.path
        case "today", "yesterday":
            let range = try DateExpression.range(ref, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday)
            return try onDay(range, name: ref)
        default: break
        }
        if let rel = whereFiled(ref) { return rel }
        let files = diary.entryFiles()
        let ids = files.map(Entry.id(ofPath:))
        if ref.count == 10, LocalDay.parse(Substring(ref)) != nil, !ids.contains(ref) {
            let range = try DateExpression.range(ref, clock: diary.clock)
            return try onDay(range, name: ref)
        }
        if let i = ids.firstIndex(of: ref) { return files[i] }
        let matches = files.indices.filter { ids[$0].hasPrefix(ref) }
        if matches.count == 1 { return files[matches[0]] }
        if matches.isEmpty {
            throw DaybookError.input("no entry `\(ref)` (give a path, an id or its unique prefix, last, today, yesterday or YYYY-MM-DD)")
        }
        throw ambiguous(ref, matches.map { files[$0] })
    }

    /// A whole id names the file where `new` files it (entries/YYYY/MM/ID.md), found without a walk
    /// of the diary when it is there.
    func whereFiled(_ id: String) -> String? {
        let b = Array(id.utf8)
        guard b.count > 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), LocalDay.parse(Substring(id.prefix(10))) != nil else { return nil }
        let rel = "entries/\(id.prefix(4))/\(id.dropFirst(5).prefix(2))/\(id).md"
        var info = stat()
        guard Diary.isEntryPath(rel), lstat(diary.url(rel).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return rel
    }

    func onDay(_ range: WallRange, name: String) throws -> String {
        var diags: [Diagnostic] = []
        let hits = diary.loadEntries(diagnostics: &diags, bodies: false).filter { range.contains($0.date) }
        if hits.count == 1 { return hits[0].path }
        if hits.isEmpty { throw DaybookError.input("no entry on \(name)") }
        throw ambiguous(name, hits.map(\.path))
    }

    func ambiguous(_ ref: String, _ paths: [String]) -> DaybookError {
        let list = paths.prefix(20).map { "  " + (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
        return .input("`\(ref)` names \(paths.count) entries; say which:\n" + list.joined(separator: "\n"))
    }

    /// A file path, which must lead to an entry file inside the diary (symlinks resolved).
    func resolvePath(_ ref: String) throws -> String {
        let candidates = [Diary.absolute(ref, diary.workingDirectory), Diary.absolute(ref, diary.root)]
        let entries = diary.entriesFolder.resolvingSymlinksInPath().path + "/"
        for url in candidates {
            let real = url.resolvingSymlinksInPath().path
            guard real.hasPrefix(entries) else { continue }
            let rel = "entries/" + real.dropFirst(entries.count)
            guard Diary.isEntryPath(rel) else { continue }
            if FileManager.default.fileExists(atPath: real) { return rel }
        }
        if candidates.contains(where: { !$0.resolvingSymlinksInPath().path.hasPrefix(entries) }) &&
            !candidates.contains(where: { FileManager.default.fileExists(atPath: $0.path) && $0.resolvingSymlinksInPath().path.hasPrefix(entries) }) {
            throw DaybookError.input("`\(ref)` is not an entry of this diary (entries live in \(diary.displayPath("entries"))/)")
        }
        throw DaybookError.input("no entry at `\(ref)`")
    }

    /// Reads one reference per line (ids or paths), for ENTRY `-`.
    public func resolveMany(_ refs: [String], stdin: () -> String) throws -> [String] {
        var out: [String] = []
        for r in refs {
            if r == "-" {
                for line in stdin().split(whereSeparator: { $0 == "\n" || $0 == "\0" }) {
                    let t = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !t.isEmpty { out.append(try resolve(t)) }
                }
            } else {
                out.append(try resolve(r))
            }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }
}
