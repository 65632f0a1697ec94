// An entry file's bytes and lines, read into a reused buffer, and where its front matter ends,
// found without making strings of the lines.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where an entry file's front matter ends and its title is, found from the bytes (no lines are
/// made into strings but the front matter's, and those only when the title is asked for).
struct FrontMatterLayout {
    /// Index of the closing `---` line.
    let closing: Int

    /// nil when the file does not start with a front matter closed by `---`.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [Int]) {
        guard !starts.isEmpty, FrontMatterLayout.isFence(bytes, starts, 0),
              let end = (1..<starts.count).first(where: { FrontMatterLayout.isFence(bytes, starts, $0) }) else { return nil }
        closing = end
    }

    static func isFence(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [Int], _ i: Int) -> Bool {
        let line = FileBytes.content(bytes, starts, i)
        guard line.count >= 3, bytes[line.lowerBound] == 0x2D, bytes[line.lowerBound + 1] == 0x2D, bytes[line.lowerBound + 2] == 0x2D else { return false }
        if line.count == 3 { return true }
        let end = i + 1 < starts.count ? starts[i + 1] : bytes.count
        return EntryText.isFence(String(decoding: UnsafeBufferPointer(rebasing: bytes[line.lowerBound..<end]), as: UTF8.self))
    }

    /// The lines of the `title` key and where its value starts in the first, as `EntryText` has them.
    func title(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [Int]) -> (lines: Range<Int>, valueStart: Int)? {
        let end = closing + 1 < starts.count ? starts[closing + 1] : bytes.count
        guard let doc = try? EntryText(String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self), path: ""),
              let span = doc.span(of: "title") else { return nil }
        return (span, FileBytes.valueStart(doc.lines[span.lowerBound]))
    }
}

/// A file's bytes, read into a buffer kept from file to file, and where its lines start.
final class FileBytes {
    private var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    private var capacity = 1 << 16
    private var count = 0
    private var starts: [Int] = []
    /// Whether `starts` are those of the bytes read last.
    private var linesFound = false
    /// The folder of the file read last, kept open: files are read in path order.
    private var folder: [UInt8] = []
    private var folderFD: Int32 = -1

    deinit {
        buffer.deallocate()
        if folderFD >= 0 { close(folderFD) }
    }

    /// The stamp of the file read last, taken from the opened file when `read` was asked to.
    private(set) var stamp: FileStamp?

    /// Reads the whole file `rel` of the folder `root`; false when it cannot be read. `size` is
    /// the size the walk saw: a read that stops short of the space asked for, with exactly that
    /// many bytes in, is taken for the end of the file (a regular file's read returns all it has),
    /// which saves the read that returns 0. A file of another size is read until a read returns 0.
    /// With `stamping` (for a walk that took no stamps), the stamp and size are taken from the
    /// opened file before its bytes are read (`stamp`), and only a regular file is read: a
    /// symbolic link is not followed, nor a pipe waited on.
    func read(_ rel: String, in root: String, size: Int? = nil, stamping: Bool = false) -> Bool {
        count = 0
        linesFound = false
        stamp = nil
        var rel = rel
        // The folder part, up to the last `/`, is opened once for all the files in it.
        let slash = rel.withUTF8 { path -> Int in
            var slash = path.count
            while slash > 0, path[slash - 1] != UInt8(ascii: "/") { slash -= 1 }
            let dir = UnsafeBufferPointer(rebasing: path[..<max(0, slash - 1)])
            if folderFD < 0 || !dir.elementsEqual(folder) {
                if folderFD >= 0 { close(folderFD) }
                folder = Array(dir)
                folderFD = open(root + "/" + String(decoding: dir, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            }
            return slash
        }
        let fd = rel.withCString { openat(folderFD, $0 + slash, O_RDONLY | O_CLOEXEC | (stamping ? O_NOFOLLOW | O_NONBLOCK : 0)) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var size = size
        if stamping {
            var st = stat()
            guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
            stamp = FileStamp(st)
            size = Int(st.st_size)
        }
        if let size, size >= capacity { grow(to: size + 1) }
        while true {
            if count == capacity { grow(to: capacity * 2) }
            let asked = capacity - count
            let n = Glibc.read(fd, buffer + count, asked)
            if n < 0 { if errno == EINTR { continue }; return false }
            if n == 0 { break }
            count += n
            if n < asked, count == size { break }
        }
        return true
    }

    private func grow(to wanted: Int) {
        var bigger = capacity
        while bigger < wanted { bigger *= 2 }
        guard bigger > capacity else { return }
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = new
        capacity = bigger
    }

    /// The bytes read last (without looking for their lines).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer, count: count) }

    /// Where the lines of the bytes read last start, found on the first call after a read.
    var lineStarts: [Int] {
        if !linesFound {
            linesFound = true
            starts.removeAll(keepingCapacity: true)
            if count > 0 { starts.append(0) }
            var at = 0
            while at < count, let nl = memchr(buffer + at, 0x0A, count - at) {
                at = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - UnsafePointer<UInt8>(buffer) + 1
                if at < count { starts.append(at) }
            }
        }
        return starts
    }

    /// Whether every byte is ASCII (then the bytes are UTF-8 without checking further).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}

extension FileBytes {
    /// The bytes of line `index` without `\n` or `\r\n`: what is shown and searched.
    static func content(_ bytes: UnsafeBufferPointer<UInt8>, _ starts: [Int], _ index: Int) -> Range<Int> {
        let start = starts[index]
        var end = index + 1 < starts.count ? starts[index + 1] : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<end
    }

    /// Where a `key: value` line's value starts (after the colon and the blanks after it).
    static func valueStart(_ line: String) -> Int {
        let bytes = Array(line.utf8)
        guard var i = bytes.firstIndex(of: UInt8(ascii: ":")) else { return 0 }
        i += 1
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        return i
    }
}
