// Where streamed export text goes: stdout (the CLI's sink) or a file, written piece by piece.
import Foundation

/// Receives text in pieces, so an export never holds the whole output in memory.
public protocol TextSink: AnyObject {
    func write(_ text: String) throws
    /// Called once at the end.
    func finish() throws
}

/// Writes to a file through a 64 KiB buffer; the file appears atomically on `finish`.
public final class FileSink: TextSink {
    private let url: URL
    private let temporary: URL
    private let handle: FileHandle
    private var buffer = Data()

    public init(_ url: URL) throws {
        self.url = url
        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + AtomicFile.temporarySuffix)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
              let h = FileHandle(forWritingAtPath: temporary.path) else {
            throw DaybookError.io("cannot write the file", at: SourceLocation(path: url.path))
        }
        handle = h
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
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
        try AtomicFile.replace(url, with: temporary)
    }

    deinit { try? FileManager.default.removeItem(at: temporary) }
}

/// Collects text in memory: for tests and for small pieces (one HTML page).
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func finish() {}
}
