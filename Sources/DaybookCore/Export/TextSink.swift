// Where streamed export text goes: stdout (the CLI's sink) or a file, written piece by piece.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Receives text in pieces, so an export never holds the whole output in memory.
public protocol TextSink: AnyObject {
    func write(_ text: String) throws
    /// UTF-8 text already encoded (a streamed export's pieces), written without a detour through String.
    func write(bytes: [UInt8]) throws
    /// Called once at the end.
    func finish() throws
}

extension TextSink {
    public func write(bytes: [UInt8]) throws { try write(String(decoding: bytes, as: UTF8.self)) }
}

/// Writes to a file through a 64 KiB buffer. An atomic sink writes a temporary file that replaces
/// the file on `finish`; the pages of a site are written in place (a second export rewrites them),
/// which halves the work on the folder for a site of many thousand pages.
public final class FileSink: TextSink {
    private let url: URL
    private let temporary: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let atomic: Bool

    public init(_ url: URL, atomic: Bool = true) throws {
        self.url = url
        self.atomic = atomic
        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        temporary = atomic ? url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + AtomicFile.temporarySuffix) : url
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DaybookError.io("cannot write the file: \(String(cString: strerror(errno)))", at: SourceLocation(path: url.path))
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        do { try handle.write(contentsOf: buffer) } catch {
            throw DaybookError.io("cannot write the file: \(error.localizedDescription)", at: SourceLocation(path: url.path))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    public func finish() throws {
        try flush()
        try? handle.close()
        if atomic { try FileSink.move(temporary, over: url) }
    }

    deinit { if atomic { try? FileManager.default.removeItem(at: temporary) } }

    /// Renames a finished temporary file over `url`. Exports can be made again, so unlike diary
    /// files they are not synced to disk one by one.
    static func move(_ temporary: URL, over url: URL) throws {
        guard rename(temporary.path, url.path) == 0 else {
            throw DaybookError.io("cannot write the file: \(String(cString: strerror(errno)))", at: SourceLocation(path: url.path))
        }
    }
}

/// Collects text in memory: for tests and for small pieces (one HTML page).
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func finish() {}
}
