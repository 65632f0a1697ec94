// Reading every entry of a diary: one walk of entries/, parsed metadata from the cache where the
// file is unchanged, a fresh parse where it is not.
import Foundation

extension Diary {
    /// Every entry file with its stamp and its stroke file's stamp, from one walk, sorted by path.
    func walkEntryFiles() -> [(rel: String, stamp: FileStamp, ink: FileStamp?)] {
        var out: [(String, FileStamp, FileStamp?)] = []
        forEachEntryFolder { dir, folder, names in
            let strokes = Set(names.filter { $0.hasSuffix(".strokes.json") })
            for name in names.sorted() where Diary.isEntryFileName(name) {
                let rel = dir + "/" + name
                guard let stamp = folder.stamp(name) else { continue }
                let inkName = String(name.dropLast(3)) + ".strokes.json"
                let ink = strokes.contains(inkName) ? folder.stamp(inkName) : nil
                out.append((rel, stamp, ink))
            }
        }
        return out
    }

    /// Every readable entry, oldest first; unreadable ones become diagnostics. Without `bodies`,
    /// entries come with an empty body, and unchanged files are not even opened.
    /// `progress` hears (parsed, to parse) while many files are parsed afresh (a cold cache).
    public func loadEntries(diagnostics: inout [Diagnostic], bodies: Bool = true,
                            progress: ((Int, Int) -> Void)? = nil) -> [Entry] {
        let cache = EntryCache(diary: self)
        let files = walkEntryFiles()
        var entries: [Entry] = []
        entries.reserveCapacity(files.count)
        // Files the cache does not hold are parsed on every core; results keep the walk's order.
        let misses = files.indices.filter { cache.record(files[$0].rel, stamp: files[$0].stamp, ink: files[$0].ink) == nil }
        var parsed = [EntryParser.Outcome?](repeating: nil, count: misses.count)
        let report = misses.count >= 1000 ? progress : nil
        let chunk = 512
        parsed.withUnsafeMutableBufferPointer { slots in
            let slots = slots
            for first in stride(from: 0, to: misses.count, by: chunk) {
                let count = min(chunk, misses.count - first)
                DispatchQueue.concurrentPerform(iterations: count) { j in
                    let k = first + j
                    var outcome = readEntry(files[misses[k]].rel)
                    if !bodies { outcome.entry?.body = "" }
                    slots[k] = outcome
                }
                report?(first + count, misses.count)
            }
        }
        var nextMiss = 0
        for (i, (rel, stamp, ink)) in files.enumerated() {
            var fresh: EntryParser.Outcome?
            if nextMiss < misses.count, misses[nextMiss] == i {
                fresh = parsed[nextMiss]
                parsed[nextMiss] = nil
                nextMiss += 1
            }
            guard let outcome = fresh else {
                guard let record = cache.record(rel, stamp: stamp, ink: ink) else { continue }
                if var e = record.entry {
                    if bodies {
                        guard let body = readBody(rel) else {
                            diagnostics.append(Diagnostic(.io("cannot read the file", at: SourceLocation(path: displayPath(rel)))))
                            continue
                        }
                        e.body = body
                    }
                    entries.append(e)
                } else {
                    let shown = displayPath(rel)
                    diagnostics += record.problems.map { p in
                        var p = p
                        p.location?.path = shown
                        return Diagnostic(p)
                    }
                }
                continue
            }
            let shown = displayPath(rel)
            if outcome.problems.allSatisfy({ $0.location?.path == shown }) {
                cache.store(rel, EntryCache.Record(stamp: stamp, ink: ink, entry: outcome.entry, problems: outcome.problems))
            }
            // A readable entry may still bring warnings (a broken stroke file beside it).
            diagnostics += outcome.problems.map { Diagnostic($0) }
            if var e = outcome.entry {
                if !bodies { e.body = "" }
                entries.append(e)
            }
        }
        if cache.records.count != files.count { cache.keep(only: Set(files.map(\.rel))) }
        cache.save()
        entries.sort { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
        return entries
    }

    /// The body of an entry file, without parsing its front matter.
    public func readBody(_ rel: String) -> String? {
        guard let data = FileManager.default.contents(atPath: url(rel).path),
              let text = String(validatingUTF8Data: data),
              let doc = try? EntryText(text, path: rel) else { return nil }
        return doc.body
    }
}
