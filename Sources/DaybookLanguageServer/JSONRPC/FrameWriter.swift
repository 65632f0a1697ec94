// LSP's base protocol, writing side: each message framed with its `Content-Length`.
import Foundation

final class FrameWriter {
    private let fd: Int32
    /// False once a write failed: the client is gone, and the server ends.
    private(set) var isOpen = true

    init(fd: Int32) { self.fd = fd }

    func write(_ body: Data) {
        guard isOpen else { return }
        var frame = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame.append(body)
        frame.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { isOpen = false; return }
            }
        }
    }
}
