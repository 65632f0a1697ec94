// A diary kept open by a process that runs for long (`daybook serve`, `daybook lsp`): opened again when its settings change, its entries read again when they change.
import Foundation

/// `Diary` reads daybook.yml and the templates' mood scales once, as a command that runs for a
/// moment should. A server asks this for the diary on every request instead: when daybook.yml or
/// a file in templates/ changed on disk since (size, times or inode), the diary is opened again,
/// so a `codebook: {strict: true}` or a new timezone written in an editor holds from the next request.
/// Its diary's clock is asked at every read (`Diary.ticking`): nothing of "now" or "today" is kept
/// from the server's start.
public final class LiveDiary {
    private var current: Diary
    private var stamp: [String: FileStamp]
    private let environment: [String: String]
    private let watcher: DiaryWatcher
    private var snapshot: (generation: Int, diary: Diary, entries: EntrySnapshot)?
    private var derived: [String: Any] = [:]
    private var tallies: [String: Tally] = [:]

    /// Counts of keys over the entries, adjusted entry by entry as files change.
    private struct Tally {
        let parts: EntryParts
        let keys: (Entry) -> [String]
        var counts: [String: Int]

        mutating func add(_ entries: [Entry], _ sign: Int) {
            for e in entries {
                for k in keys(e) {
                    let n = counts[k, default: 0] + sign
                    counts[k] = n > 0 ? n : nil
                }
            }
        }
    }

    public init(_ diary: Diary, environment: [String: String]) {
        current = diary.ticking(environment: environment)
        self.environment = environment
        stamp = LiveDiary.settingsStamp(of: diary.root)
        watcher = DiaryWatcher(folder: diary.entriesFolder)
    }

    /// Whether the entries' changes are watched (inotify); else every `entries()` reads them again.
    public var isWatching: Bool { watcher.isWatching }

    /// The entries as they are on disk: the same snapshot as at the last call while nothing under
    /// entries/ changed; when the watcher names the files that changed, the kept snapshot with
    /// those read again; else a new walk (which reads only the files that changed, as every
    /// command does, but stats them all and writes the cache).
    public func entries() throws -> EntrySnapshot {
        let diary = try diary()
        let generation = watcher.generation()
        if let snapshot, snapshot.generation == generation, snapshot.diary === diary { return snapshot.entries }
        let changed = watcher.takeChanges()
        let entries: EntrySnapshot
        let paths = Set((changed ?? []).map { "entries/" + $0 })
        if let old = snapshot, old.diary === diary, changed != nil, let updated = old.entries.updating(paths) {
            entries = updated
            if !tallies.isEmpty, updated !== old.entries {
                let parts = tallies.values.reduce(EntryParts()) { $0.union($1.parts) }
                let removed = old.entries.entries(at: paths, parts: parts), added = updated.entries(at: paths, parts: parts)
                for key in tallies.keys {
                    tallies[key]?.add(removed, -1)
                    tallies[key]?.add(added, 1)
                }
            }
        } else {
            entries = diary.scanEntries()
            tallies = [:]
        }
        snapshot = (generation, diary, entries)
        derived = [:]
        return entries
    }

    /// One count over the entries: how many times each of `keys` of an entry occurs, decoded
    /// with `parts` only; `name` tells one tally from another.
    public struct Count {
        public let name: String
        public let parts: EntryParts
        public let keys: (Entry) -> [String]

        public init(_ name: String, parts: EntryParts, keys: @escaping (Entry) -> [String]) {
            self.name = name
            self.parts = parts
            self.keys = keys
        }
    }

    /// How many times each key occurs over all entries: counted once, then adjusted by the
    /// entries that changed, so a page that shows the codebook's counts costs one file's decode
    /// after an edit, not 100,000. Counts not kept yet are made together in one pass (`count`).
    public func counts(_ asked: [Count]) throws -> [[String: Int]] {
        let entries = try entries()
        var missing: [Count] = []
        for c in asked where tallies[c.name] == nil && !missing.contains(where: { $0.name == c.name }) { missing.append(c) }
        if !missing.isEmpty {
            for (c, counts) in zip(missing, LiveDiary.count(missing, over: entries)) {
                tallies[c.name] = Tally(parts: c.parts, keys: c.keys, counts: counts)
            }
        }
        return asked.map { tallies[$0.name]?.counts ?? [:] }
    }

    /// The counts over a snapshot, in one pass: each entry decoded once with the parts they need
    /// together, on every core, each worker counting its share of the entries (so no list of
    /// decoded entries is ever held), the workers' counts added up at the end.
    public static func count(_ asked: [Count], over entries: EntrySnapshot) -> [[String: Int]] {
        let parts = asked.reduce(EntryParts()) { $0.union($1.parts) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, entries.count / 256))
        let per = (entries.count + workers - 1) / workers
        var shares = [[[String: Int]]](repeating: [], count: workers)
        shares.withUnsafeMutableBufferPointer { out in
            let out = out
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var mine = [[String: Int]](repeating: [:], count: asked.count)
                for k in (w * per)..<min(entries.count, (w + 1) * per) {
                    let e = entries.entry(k, parts: parts)
                    for i in asked.indices {
                        for key in asked[i].keys(e) { mine[i][key, default: 0] += 1 }
                    }
                }
                out[w] = mine
            }
        }
        var total = [[String: Int]](repeating: [:], count: asked.count)
        for share in shares {
            for i in asked.indices { total[i].merge(share[i], uniquingKeysWith: +) }
        }
        return total
    }

    /// One count (see `counts(_:)`).
    public func counts(_ name: String, parts: EntryParts, keys: @escaping (Entry) -> [String]) throws -> [String: Int] {
        try counts([Count(name, parts: parts, keys: keys)])[0]
    }

    /// What `make` works out from the entries, kept until they change (the codebook's counts on
    /// every entry page, say).
    public func derived<T>(_ key: String, _ make: (EntrySnapshot) -> T) throws -> T {
        let entries = try entries()
        if let value = derived[key] as? T { return value }
        let value = make(entries)
        derived[key] = value
        return value
    }

    /// The diary's rule for links, looking a `[[prefix]]` up in the ids of the kept snapshot
    /// (listed once until the entries change) instead of walking the diary.
    public func entryLinks() throws -> EntryLinks {
        let diary = try diary()
        return EntryLinks(diary) { [self] in (try? derived("links.paths") { s in (0..<s.count).map(s.path) }) ?? diary.entryFiles() }
    }

    /// A mark that changes when the entries changed, for a page that asks every few seconds:
    /// the watcher's count where changes are watched, else the number of entry files.
    public func changeMark() throws -> String {
        let diary = try diary()
        return watcher.isWatching ? "w\(watcher.generation())" : "n\(diary.entryFiles().count)"
    }

    /// The diary with its settings as they are on disk now. Settings that no longer read (a
    /// daybook.yml broken while it is being edited) throw their positioned error; the next call
    /// tries again.
    public func diary() throws -> Diary {
        let now = LiveDiary.settingsStamp(of: current.root)
        if now != stamp {
            current = try Diary.open(current.root, environment: environment, workingDirectory: current.workingDirectory).ticking(environment: environment)
            stamp = now
        }
        return current
    }

    /// The stamps of daybook.yml and of every file in templates/, by path.
    static func settingsStamp(of root: URL) -> [String: FileStamp] {
        var out: [String: FileStamp] = [:]
        let config = root.appendingPathComponent("daybook.yml").path
        out[config] = FileStamp.of(config)
        let templates = root.appendingPathComponent("templates").path
        out[templates] = FileStamp.of(templates)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: templates)) ?? [] {
            let path = templates + "/" + name
            out[path] = FileStamp.of(path)
        }
        return out
    }
}
