// ENTRY arguments: a path, an id, a unique id prefix, `last`, `today`, `yesterday`, a date.
import Foundation

public struct EntryReference {
    public let diary: Diary
    /// The walk of the working folder a change began with, while the change has written nothing:
    /// `last`, days and dates are found from the stamps it took, not from a walk of their own.
    let seen: WorkTree?

    public init(_ diary: Diary) {
        self.diary = diary
        seen = nil
    }

    /// References resolved within a change, after it has committed the outside edits: the entry
    /// scan takes the stamps of the change's walk (issue 19: each file stat-ed once).
    public init(_ change: Change) {
        diary = change.diary
        seen = change.seen
    }

    /// The entry file (relative path) a reference names.
    public func resolve(_ ref: String) throws -> String {
        if ref.contains("/") || ref.hasSuffix(".md") || ref.hasPrefix(".") || ref.hasPrefix("~") {
            return try resolvePath(ref)
        }
        switch ref.lowercased() {
        case "last":
            // The walk's dates tell which is last: no entry's metadata is decoded.
            let snapshot = diary.scanEntries(seen: seen)
            // An entry that does not parse has no date to compare; its name's date tells whether
            // it could be the newest, and then `last` is not known (never silently the one before).
            let newest = snapshot.count > 0 ? snapshot.date(snapshot.count - 1).wallSeconds / 60 * 60 : nil
            try refuseUnparsed(ref, in: snapshot) { named in
                guard let newest, let named else { return true }
                return named >= newest
            }
            guard snapshot.count > 0 else { throw DaybookError.input("the diary has no entries yet") }
            return snapshot.path(snapshot.count - 1)
        case "today", "yesterday":
            let range = try DateExpression.range(ref, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday)
            return try onDay(range, name: ref)
        default: break
        }
        if let rel = whereFiled(ref) { return rel }
        let matches = files(idPrefix: ref)
        let exact = matches.first { Entry.id(ofPath: $0) == ref }
        if ref.count == 10, LocalDay.parse(Substring(ref)) != nil, exact == nil {
            let range = try DateExpression.range(ref, clock: diary.clock)
            return try onDay(range, name: ref)
        }
        if let exact { return exact }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            throw DaybookError.input("no entry `\(ref)` (give a path, an id or its unique prefix, last, today, yesterday or YYYY-MM-DD)")
        }
        throw ambiguous(ref, matches)
    }

    /// The entry files whose id starts with `prefix`, sorted by path, from the names in the month
    /// folders (`EntryNames`: recorded names for the folders whose stamp did not move, a listing
    /// for the others); only a name that matches is looked at further (no sort or stat of every file).
    func files(idPrefix prefix: String) -> [String] {
        // On bytes first, for a prefix in ASCII: a name can start with it (as Strings compare, by
        // canonical equivalence) only if its bytes do, or if they leave the prefix's at a byte beyond
        // ASCII (`\u{212A}` is K); ASCII does not change in normalisation. The String comparison
        // below decides for every candidate, as it did when every folder was listed.
        let wanted = Array(prefix.utf8)
        let ascii = !wanted.contains { $0 >= 0x80 }
        let candidates = EntryNames.paths(in: diary) { name in
            guard ascii else { return true }
            var i = 0
            while i < wanted.count, i < name.count, name[i] == wanted[i] { i += 1 }
            return i == wanted.count || (i < name.count && name[i] >= 0x80)
        }
        return candidates.filter { rel in
            let name = rel.split(separator: "/").last ?? ""
            return name.hasSuffix(".md") && name.hasPrefix(prefix) && name.dropLast(3).hasPrefix(prefix) && isEntryFile(rel)
        }.sorted()
    }

    /// A whole id names the file where `new` files it (entries/YYYY/MM/ID.md), found without a walk
    /// of the diary when it is there.
    func whereFiled(_ id: String) -> String? {
        let b = Array(id.utf8)
        guard b.count > 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), LocalDay.parse(Substring(id.prefix(10))) != nil else { return nil }
        let rel = "entries/\(id.prefix(4))/\(id.dropFirst(5).prefix(2))/\(id).md"
        return isEntryFile(rel) ? rel : nil
    }

    /// Whether `rel` is an entry path naming a regular file (a symbolic link is not followed).
    func isEntryFile(_ rel: String) -> Bool {
        var info = stat()
        return Diary.isEntryPath(rel) && lstat(diary.url(rel).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    func onDay(_ range: WallRange, name: String) throws -> String {
        let snapshot = diary.scanEntries(seen: seen)
        try refuseUnparsed(name, in: snapshot) { named in
            named.map { range.lower <= $0 + 59 && $0 <= range.upper } ?? true
        }
        let hits = (0..<snapshot.count).filter { range.contains(snapshot.date($0)) }.map(snapshot.path)
        if hits.count == 1 { return hits[0] }
        if hits.isEmpty { throw DaybookError.input("no entry on \(name)") }
        throw ambiguous(name, hits)
    }

    /// Stops when an entry file that does not parse could be what `ref` names, as far as its name
    /// tells (`could` is given the wall-clock seconds of the minute its name holds, nil when the
    /// name holds no date): with its first problem, located there (the only reference error with a
    /// location), and what to do.
    func refuseUnparsed(_ ref: String, in snapshot: EntrySnapshot, could: (Int?) -> Bool) throws {
        for (path, problems) in snapshot.unparsed where could(EntryReference.namedMinute(path)) {
            let shown = diary.displayPath(path)
            throw DaybookError.input("`\(ref)` may be this entry, which does not parse: \(problems.first?.message ?? "no front matter")\n"
                                     + "fix it (`daybook edit \(shown)`; `daybook check` lists every problem), or name the entry you mean by its id",
                                     at: problems.first?.location ?? SourceLocation(path: shown))
        }
    }

    /// The wall-clock seconds of the minute an entry file's name starts with (`YYYY-MM-DD-HHMM`, or
    /// the day's start for `YYYY-MM-DD`), nil when it starts with no date.
    static func namedMinute(_ path: String) -> Int? {
        let name = Array(((path as NSString).lastPathComponent).utf8)
        guard name.count >= 10, let day = LocalDay.parse(Substring(String(decoding: name[0..<10], as: UTF8.self))) else { return nil }
        var seconds = day.ordinal * 86400
        let digits = name.count >= 15 && name[10] == UInt8(ascii: "-") ? name[11..<15] : []
        if digits.count == 4, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let n = digits.map { Int($0 - 0x30) }
            let hour = n[0] * 10 + n[1], minute = n[2] * 10 + n[3]
            if hour < 24, minute < 60 { seconds += hour * 3600 + minute * 60 }
        }
        return seconds
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
