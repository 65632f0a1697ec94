// Building the word index: every entry file's words, tokenized on every core, written in one go.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One core's share of the tokenizing: its own word numbers, and each file's distinct words.
final class WordIndexWorker {
    var table = WordTable()
    /// The last file each word was seen in, to count a word once per file.
    private var lastSeen: [Int] = []
    /// Word numbers of the files of the current batch, one after the other.
    var ids: [Int32] = []
    private var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    private var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    private var capacity = 1 << 16

    deinit {
        buffer.deallocate()
        scratch.deallocate()
    }

    /// Reads the files `docs` (numbers into `files`, relative to the folder `root`) and puts
    /// each one's distinct words in `ids`, its slice in `spans` (nil when it cannot be read).
    func add(_ docs: StrideTo<Int>, of files: [(rel: String, stamp: FileStamp)], root: Int32,
             spans: (Int, Range<Int>?) -> Void) {
        // The state moves into locals for the loop: no exclusivity checks on every word.
        var table = self.table, lastSeen = self.lastSeen, ids = self.ids
        self.table = WordTable(); self.lastSeen = []; self.ids = []
        defer { self.table = table; self.lastSeen = lastSeen; self.ids = ids }
        ids.removeAll(keepingCapacity: true)
        for doc in docs {
            guard let length = read(files[doc].rel, root: root) else { spans(doc, nil); continue }
            let start = ids.count
            var words = WordTokens.Tokenizer(UnsafeBufferPointer(start: buffer, count: length))
            while let n = words.next(into: scratch) {
                let id = table.id(of: UnsafeBufferPointer(start: scratch, count: n))
                if id == lastSeen.count { lastSeen.append(-1) }
                if lastSeen[id] != doc {
                    lastSeen[id] = doc
                    ids.append(Int32(id))
                }
            }
            spans(doc, start..<ids.count)
        }
    }

    /// Reads file `rel` below `root` into `buffer`; its length, or nil when it cannot be read.
    private func read(_ rel: String, root: Int32) -> Int? {
        let fd = openat(root, rel, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var length = 0
        while true {
            if length == capacity { enlarge() }
            let n = Glibc.read(fd, buffer + length, capacity - length)
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return length }
            length += n
        }
    }

    private func enlarge() {
        let bigger = capacity * 2
        let b = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        b.update(from: buffer, count: capacity)
        buffer.deallocate()
        buffer = b
        scratch.deallocate()
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        capacity = bigger
    }
}

extension WordIndex {
    /// Reads every file of `files` (relative to the diary, with the stamps seen before reading)
    /// and writes the index to `url`, replacing it. `builtAt` is a time before the stamps were
    /// taken. `progress` hears (files read, files). Throws when the file cannot be written.
    static func build(_ diary: Diary, files: [(rel: String, stamp: FileStamp)], builtAt: Int, to url: URL,
                      progress: ((Int, Int) -> Void)?) throws {
        let root = Glibc.open(diary.root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw AtomicFile.ioError("cannot open", diary.root.path) }
        defer { close(root) }
        let workers = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in WordIndexWorker() }
        var global = WordTable()
        var postings: [[UInt8]] = []
        var lastDoc: [Int] = []
        var toGlobal = [[Int]](repeating: [], count: workers.count)
        var unreadable = Set<Int>()
        let batch = 1024
        var first = 0
        while first < files.count {
            let count = min(batch, files.count - first)
            // Each file's slice of its worker's `ids`, or nil when it could not be read.
            var spans = [Range<Int>?](repeating: nil, count: count)
            spans.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                DispatchQueue.concurrentPerform(iterations: workers.count) { w in
                    workers[w].add(stride(from: first + w, to: first + count, by: workers.count), of: files, root: root) { doc, span in
                        slots[doc - first] = span
                    }
                }
            }
            for (w, worker) in workers.enumerated() where toGlobal[w].count < worker.table.count {
                for id in toGlobal[w].count..<worker.table.count {
                    let g = worker.table.word(id).withUnsafeBufferPointer { global.id(of: $0) }
                    if g == postings.count {
                        postings.append([])
                        lastDoc.append(-1)
                    }
                    toGlobal[w].append(g)
                }
            }
            // Each core appends the file numbers of its share of the words (by number), so no
            // list is written by two at once; files go in order, so each list stays ascending.
            let ids = workers.map(\.ids)
            for j in 0..<count where spans[j] == nil { unreadable.insert(first + j) }
            postings.withUnsafeMutableBufferPointer { lists in
                lastDoc.withUnsafeMutableBufferPointer { last in
                    let lists = lists, last = last
                    DispatchQueue.concurrentPerform(iterations: workers.count) { share in
                        for j in 0..<count {
                            guard let span = spans[j] else { continue }
                            let doc = first + j, w = j % workers.count
                            for k in span {
                                let g = toGlobal[w][Int(ids[w][k])]
                                guard g % workers.count == share else { continue }
                                var delta = doc - last[g]
                                last[g] = doc
                                while delta >= 0x80 {
                                    lists[g].append(UInt8(truncatingIfNeeded: delta) | 0x80)
                                    delta >>= 7
                                }
                                lists[g].append(UInt8(delta))
                            }
                        }
                    }
                }
            }
            first += count
            progress?(first, files.count)
        }
        try write(files: files, unreadable: unreadable, words: global, postings: &postings, builtAt: builtAt, to: url)
    }

    /// Lays the index out as `WordIndex` reads it and replaces `url` with it.
    private static func write(files: [(rel: String, stamp: FileStamp)], unreadable: Set<Int>, words: WordTable,
                              postings: inout [[UInt8]], builtAt: Int, to url: URL) throws {
        var docs = Layout()
        var paths: [UInt8] = []
        for (doc, file) in files.enumerated() {
            // A file that could not be read is never taken as indexed: its stamp matches no file.
            let stamp = unreadable.contains(doc) ? FileStamp.unknown : file.stamp
            docs.u32(UInt32(paths.count)); docs.u32(UInt32(file.rel.utf8.count))
            docs.u64(UInt64(bitPattern: Int64(stamp.size))); docs.u64(UInt64(bitPattern: Int64(stamp.mtime)))
            docs.u64(UInt64(bitPattern: Int64(stamp.ctime))); docs.u64(stamp.inode)
            paths.append(contentsOf: file.rel.utf8)
        }
        docs.bytes += paths
        paths = []

        let order = words.arena.withUnsafeBufferPointer { arena -> [Int] in
            func span(_ id: Int) -> (Int, Int) { (words.starts[id], words.starts[id + 1]) }
            return (0..<words.count).sorted { a, b in
                let (s0, e0) = span(a), (s1, e1) = span(b)
                let c = memcmp(arena.baseAddress! + s0, arena.baseAddress! + s1, min(e0 - s0, e1 - s1))
                return c != 0 ? c < 0 : e0 - s0 < e1 - s1
            }
        }
        var vocab = Layout()
        var blob: [UInt8] = []
        var offset = 0
        for id in order {
            let list = postings[id]
            vocab.u32(UInt32(blob.count)); vocab.u32(UInt32(words.word(id).count))
            vocab.u64(UInt64(offset)); vocab.u32(UInt32(list.count)); vocab.u32(WordIndex.checksum32(list))
            blob += words.word(id)
            blob.append(WordIndex.wordEnd)
            offset += list.count
        }
        vocab.bytes += blob
        blob = []

        var header = Layout()
        header.bytes += WordIndex.magic
        header.u64(UInt64(WordIndex.version))
        header.u64(UInt64(bitPattern: Int64(builtAt)))
        header.u64(UInt64(files.count)); header.u64(UInt64(words.count))
        header.u64(UInt64(docs.bytes.count)); header.u64(UInt64(vocab.bytes.count)); header.u64(UInt64(offset))
        var sum = WideChecksum64()
        sum.add(header.bytes)
        sum.add(docs.bytes)
        sum.add(vocab.bytes)
        header.u64(sum.value)
        header.bytes += [UInt8](repeating: 0, count: WordIndex.headerSize - header.bytes.count)

        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        // Not flushed: the index is checksummed, and a damaged one is only rebuilt.
        try AtomicFile.replace(url, mode: 0o600, sync: false) { fd in
            var out = BufferedOutput(fd)
            out.write(header.bytes)
            out.write(docs.bytes)
            out.write(vocab.bytes)
            for id in order {
                out.write(postings[id])
                postings[id] = []
            }
            return out.flush()
        }
    }
}

/// Little-endian fixed-width fields, as the index is read.
struct Layout {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
}

/// Writes to a file descriptor in large pieces; remembers a failure until `flush`.
struct BufferedOutput {
    let fd: Int32
    private var pending: [UInt8] = []
    private var failed = false

    init(_ fd: Int32) {
        self.fd = fd
        pending.reserveCapacity(1 << 20)
    }

    mutating func write(_ bytes: [UInt8]) {
        if pending.count + bytes.count > 1 << 20 { drain() }
        if bytes.count >= 1 << 20 {
            failed = failed || !bytes.withUnsafeBytes { AtomicFile.writeAll(fd, $0.baseAddress!, $0.count) }
        } else {
            pending += bytes
        }
    }

    private mutating func drain() {
        if !pending.isEmpty {
            failed = failed || !pending.withUnsafeBytes { AtomicFile.writeAll(fd, $0.baseAddress!, $0.count) }
            pending.removeAll(keepingCapacity: true)
        }
    }

    mutating func flush() -> Bool {
        drain()
        return !failed
    }
}
