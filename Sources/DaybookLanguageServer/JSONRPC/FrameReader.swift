// LSP's base protocol, reading side: messages framed by a `Content-Length` header on a file descriptor.
import Foundation

/// Reads one framed message at a time. A frame is headers (`Name: value` lines ending in
/// `\r\n`), an empty line, then exactly `Content-Length` bytes of JSON.
final class FrameReader {
    enum Event: Equatable {
        case message(Data)
        /// The stream cannot be read on: no usable `Content-Length` (nothing says where the next
        /// frame starts), or a header or body above the limits.
        case malformed(String)
        /// The client closed the stream (or it failed).
        case end
    }

    /// A body larger than this is refused: a 10 MB entry fits many times over.
    static let maxBody = 64 << 20
    /// Headers are a few dozen bytes; more than this without a blank line is not LSP.
    static let maxHeader = 8 << 10

    private let fd: Int32
    private var buffer = Data()

    init(fd: Int32) { self.fd = fd }

    /// Whether a whole frame is already read: a change that another follows at once need not be
    /// checked (the server checks the last one).
    var hasWholeFrame: Bool {
        guard let (length, headerEnd) = try? header(), let length else { return false }
        return buffer.count - headerEnd >= length
    }

    func next() -> Event {
        while true {
            do {
                if let (length, headerEnd) = try header() {
                    guard let length else { return .malformed("a message without a Content-Length header") }
                    guard length <= FrameReader.maxBody else { return .malformed("a message of \(length) bytes (at most \(FrameReader.maxBody))") }
                    if buffer.count - headerEnd >= length {
                        let start = buffer.startIndex + headerEnd
                        let body = buffer.subdata(in: start..<(start + length))
                        buffer.removeSubrange(buffer.startIndex..<(start + length))
                        return .message(body)
                    }
                } else if buffer.count > FrameReader.maxHeader {
                    return .malformed("a header of more than \(FrameReader.maxHeader) bytes")
                }
            } catch let e as FrameError {
                return .malformed(e.message)
            } catch {
                return .malformed("\(error)")
            }
            if !fill() { return .end }
        }
    }

    struct FrameError: Error { var message: String }

    /// The body length (nil when no Content-Length header was given) and the offset where the
    /// body starts; nil while the headers are not complete.
    private func header() throws -> (Int?, Int)? {
        // The headers end at an empty line: `\r\n\r\n` as LSP says, or `\n\n` from a client
        // that writes bare line feeds (which would otherwise wait forever for more input).
        let limit = min(buffer.endIndex, buffer.startIndex + FrameReader.maxHeader + 4)
        var i = buffer.startIndex
        var found: (text: Range<Int>, bodyStart: Int)?
        while i < limit, found == nil {
            if buffer[i] == UInt8(ascii: "\n") {
                if i + 1 < buffer.endIndex, buffer[i + 1] == UInt8(ascii: "\n") { found = (buffer.startIndex..<i, i + 2) }
                else if i + 2 < buffer.endIndex, buffer[i + 1] == UInt8(ascii: "\r"), buffer[i + 2] == UInt8(ascii: "\n") { found = (buffer.startIndex..<i, i + 3) }
            }
            i += 1
        }
        guard let r = found else { return nil }
        guard let text = String(data: buffer[r.text], encoding: .utf8) else {
            throw FrameError(message: "a header that is not text")
        }
        var length: Int?
        // Split at the byte: `\r\n` is one Character to Swift, which a split at "\n" would not cut.
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = String(decoding: raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":") else { throw FrameError(message: "a header line without a colon: \(line.prefix(60))") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let n = Int(value), n >= 0 else { throw FrameError(message: "Content-Length is not a number: \(value.prefix(30))") }
                length = n
            }
        }
        return (length, r.bodyStart - buffer.startIndex)
    }

    /// Reads what is available; false at the end of the stream.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            return false
        }
    }
}
