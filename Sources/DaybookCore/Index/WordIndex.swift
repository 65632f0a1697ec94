// The word index under .daybook/cache/words.bin: which entry files hold which words, to choose
// the files a search reads.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Never the source of truth: delete it and nothing is lost; a damaged file is no index at all.
///
/// Layout (integers little-endian):
/// - header, 128 bytes: magic, version, build time (ns), files, words, the lengths of the three
///   sections below, and a checksum (`WideChecksum64`) of the header fields and the first two
///   sections;
/// - files: for each indexed file, in the order of the entry walk, a record (offset and length
///   of its path, size, mtime, ctime, inode: 40 bytes), then the paths;
/// - words: for each word, in byte order, a record (offset and length of the word, offset,
///   length and checksum of its postings: 24 bytes), then the words, each followed by `\n`;
/// - postings: for each word, the numbers of the files holding it, ascending, each written as
///   the difference to the one before (the first: number + 1) in 7-bit varints.
/// A query reads the header and the first two sections, and the postings of the words it needs.
final class WordIndex {
    static let magic = Array("dbwords\n".utf8)
    static let version = 2
    static let headerSize = 128
    static let wordEnd = UInt8(ascii: "\n")
    static let docRecord = 40
    static let wordRecord = 24

    let builtAt: Int
    let docCount: Int
    let wordCount: Int
    private let fd: Int32
    private let docs: [UInt8]
    private let words: [UInt8]
    private let postingsStart: Int
    private let postingsLength: Int

    /// The index file of a diary.
    static func file(of diary: Diary) -> URL { diary.stateFolder.appendingPathComponent("cache/words.bin") }

    /// Opens the index at `url`; nil when there is none, or it is of another version, cut short
    /// or damaged.
    static func open(_ url: URL) -> WordIndex? {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let index = WordIndex(fd: fd) else {
            close(fd)
            return nil
        }
        return index
    }

    /// How many of the indexed files hold every one of `runs` (as `WordIndexLookup.docs` finds
    /// them), and how many files the index has: read from the header, the word list and the
    /// postings of the words found, each checked word by word. The list of files (9.7 MB at
    /// 100,000 entries) is neither read nor checksummed. Enough to choose how to search (a
    /// damaged file can only mislead that choice); a search opens the index with `open`, which
    /// checks everything. Nil when there is no index, it does not read, or a word's postings do not
    /// check out.
    static func narrowing(_ url: URL, runs: [String]) -> (matching: Int, of: Int)? {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        // Without its paths, this instance never leaves this function.
        guard let index = WordIndex(fd: fd, paths: false) else {
            close(fd)
            return nil
        }
        return WordIndexLookup.docs(index, runs: runs).map { ($0.count, index.docCount) }
    }

    /// `paths` false: only the header and the word list are read and checked for consistency,
    /// the list of files is left out (`docs` empty) and nothing is checksummed (`narrowing`).
    private init?(fd: Int32, paths: Bool = true) {
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) >= WordIndex.headerSize,
              let header = WordIndex.read(fd, at: 0, count: WordIndex.headerSize),
              Array(header[0..<8]) == WordIndex.magic else { return nil }
        func field(_ k: Int) -> Int { Int(truncatingIfNeeded: WordIndex.u64(header, 8 * k)) }
        guard field(1) == WordIndex.version else { return nil }
        let docCount = field(3), wordCount = field(4)
        let docsLength = field(5), wordsLength = field(6), postingsLength = field(7)
        guard docCount >= 0, wordCount >= 0, docsLength >= 0, wordsLength >= 0, postingsLength >= 0,
              docsLength / WordIndex.docRecord >= docCount, wordsLength / WordIndex.wordRecord >= wordCount,
              WordIndex.headerSize + docsLength + wordsLength + postingsLength == Int(st.st_size),
              let docs = paths ? WordIndex.read(fd, at: WordIndex.headerSize, count: docsLength) : [],
              let words = WordIndex.read(fd, at: WordIndex.headerSize + docsLength, count: wordsLength) else { return nil }
        if paths {
            var sum = WideChecksum64()
            sum.add(Array(header[0..<64]))
            sum.add(docs)
            sum.add(words)
            guard sum.value == WordIndex.u64(header, 64) else { return nil }
        }
        self.fd = fd
        self.builtAt = field(2)
        self.docCount = docCount
        self.wordCount = wordCount
        self.docs = docs
        self.words = words
        postingsStart = WordIndex.headerSize + docsLength + wordsLength
        self.postingsLength = postingsLength
        guard isConsistent(paths: paths) else { return nil }
    }

    deinit { close(fd) }

    /// Whether every offset points inside its section, so that no later read can go astray.
    private func isConsistent(paths: Bool) -> Bool {
        let pathsStart = docCount * WordIndex.docRecord
        for d in 0..<(paths ? docCount : 0) {
            let r = d * WordIndex.docRecord
            let off = Int(WordIndex.u32(docs, r)), len = Int(WordIndex.u32(docs, r + 4))
            guard pathsStart + off + len <= docs.count else { return false }
        }
        let blobStart = wordCount * WordIndex.wordRecord
        var previousEnd = 0
        for w in 0..<wordCount {
            let r = w * WordIndex.wordRecord
            let off = Int(WordIndex.u32(words, r)), len = Int(WordIndex.u32(words, r + 4))
            let postings = Int(truncatingIfNeeded: WordIndex.u64(words, r + 8)), count = Int(WordIndex.u32(words, r + 16))
            guard off == previousEnd, len > 0, blobStart + off + len < words.count, words[blobStart + off + len] == WordIndex.wordEnd,
                  postings >= 0, postings + count <= postingsLength else { return false }
            previousEnd = off + len + 1
        }
        return blobStart + previousEnd == words.count
    }

    // MARK: Files

    /// Whether indexed file `doc` has the path `rel`.
    func path(_ doc: Int, is rel: String) -> Bool {
        let r = doc * WordIndex.docRecord
        let off = docCount * WordIndex.docRecord + Int(WordIndex.u32(docs, r)), len = Int(WordIndex.u32(docs, r + 4))
        var rel = rel
        return rel.withUTF8 { p in
            guard p.count == len, len > 0, let a = p.baseAddress else { return p.count == len }
            return docs.withUnsafeBufferPointer { d in d.baseAddress.map { memcmp($0 + off, a, len) == 0 } ?? false }
        }
    }

    /// Whether indexed file `doc`'s path passes `test`, given its bytes.
    func path(_ doc: Int, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let r = doc * WordIndex.docRecord
        let off = docCount * WordIndex.docRecord + Int(WordIndex.u32(docs, r)), len = Int(WordIndex.u32(docs, r + 4))
        return docs.withUnsafeBufferPointer { test(UnsafeBufferPointer(rebasing: $0[off..<(off + len)])) }
    }

    func path(_ doc: Int) -> String {
        let r = doc * WordIndex.docRecord
        let off = docCount * WordIndex.docRecord + Int(WordIndex.u32(docs, r)), len = Int(WordIndex.u32(docs, r + 4))
        return String(decoding: docs[off..<(off + len)], as: UTF8.self)
    }

    func stamp(_ doc: Int) -> FileStamp {
        let r = doc * WordIndex.docRecord
        func i(_ k: Int) -> Int { Int(truncatingIfNeeded: WordIndex.u64(docs, r + k)) }
        return FileStamp(size: i(8), mtime: i(16), ctime: i(24), inode: WordIndex.u64(docs, r + 32))
    }

    // MARK: Words

    /// The files that have a word containing `run` (lowercase word bytes), as a bitset over
    /// file numbers; nil when a postings list turns out damaged.
    func docs(containing run: [UInt8]) -> DocSet? {
        var set = DocSet(count: docCount)
        let blobStart = wordCount * WordIndex.wordRecord
        var found: [Int] = []
        words.withUnsafeBufferPointer { buf in
            run.withUnsafeBufferPointer { needle in
                var at = blobStart
                while let pos = ByteSearch.first(of: needle, in: buf, from: at) {
                    let w = word(at: pos - blobStart)
                    found.append(w)
                    // On to the next word: one hit per word is enough.
                    let r = w * WordIndex.wordRecord
                    at = blobStart + Int(WordIndex.u32(words, r)) + Int(WordIndex.u32(words, r + 4)) + 1
                }
            }
        }
        for w in found {
            guard add(word: w, to: &set) else { return nil }
        }
        return set
    }

    /// The word whose bytes hold blob offset `pos` (binary search over the ascending offsets).
    private func word(at pos: Int) -> Int {
        var lo = 0, hi = wordCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(WordIndex.u32(words, mid * WordIndex.wordRecord)) <= pos { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Reads word `w`'s postings into `set`; false when they do not check out.
    private func add(word w: Int, to set: inout DocSet) -> Bool {
        let r = w * WordIndex.wordRecord
        let off = Int(truncatingIfNeeded: WordIndex.u64(words, r + 8)), count = Int(WordIndex.u32(words, r + 16))
        guard let list = WordIndex.read(fd, at: postingsStart + off, count: count),
              WordIndex.checksum32(list) == WordIndex.u32(words, r + 20) else { return false }
        var doc = -1
        var i = 0
        while i < list.count {
            var delta = 0, shift = 0
            while true {
                guard i < list.count, shift < 63 else { return false }
                let b = list[i]
                i += 1
                delta |= Int(b & 0x7F) << shift
                shift += 7
                if b < 0x80 { break }
            }
            doc += delta
            guard delta > 0, doc < docCount else { return false }
            set.insert(doc)
        }
        return true
    }

    // MARK: Bytes

    static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBytes { raw -> Bool in
            var done = 0
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        return ok ? out : nil
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        b.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }

    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
        b.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
    }

    static func checksum32(_ bytes: [UInt8]) -> UInt32 {
        var c = Checksum64()
        c.add(bytes)
        return UInt32(truncatingIfNeeded: c.value ^ (c.value >> 32))
    }
}

/// A set of file numbers below a bound, one bit each.
struct DocSet {
    private(set) var bits: [UInt64]

    init(count: Int) { bits = [UInt64](repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ doc: Int) { bits[doc >> 6] |= 1 << UInt64(doc & 63) }

    func contains(_ doc: Int) -> Bool { bits[doc >> 6] & (1 << UInt64(doc & 63)) != 0 }

    mutating func formIntersection(_ other: DocSet) {
        for k in bits.indices { bits[k] &= other.bits[k] }
    }

    var isEmpty: Bool { !bits.contains { $0 != 0 } }

    var count: Int { bits.reduce(0) { $0 + $1.nonzeroBitCount } }
}
