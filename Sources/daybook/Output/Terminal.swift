// Writing to stdout and stderr: buffered data, positioned messages, colour decided once.
import DaybookCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum Terminal {
    nonisolated(unsafe) static var useColor = false
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    static func configure(color: ColorChoice) {
        let env = ProcessInfo.processInfo.environment
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto:
            useColor = isatty(1) == 1 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
        }
    }

    static var stdinIsTerminal: Bool { isatty(0) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    static func ignoreSigpipe() { signal(SIGPIPE, SIG_IGN) }

    /// Data on stdout (buffered). A closed pipe ends the program quietly.
    static func out(_ s: String, terminator: String = "\n") {
        buffer.append(contentsOf: s.utf8)
        buffer.append(contentsOf: terminator.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    static func flush() {
        writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Bytes on stdout: small pieces through the buffer, large output (an SVG of a million points)
    /// straight to stdout, without copying it into the buffer.
    static func out(bytes: [UInt8]) {
        if bytes.count < 1 << 16 {
            buffer.append(contentsOf: bytes)
            if buffer.count > 1 << 16 { flush() }
            return
        }
        flush()
        writeAll(bytes)
    }

    private static func writeAll(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { write(1, $0.baseAddress! + off, $0.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                break
            }
            off += n
        }
    }

    static func writeErr(_ s: String) {
        let line = s.hasSuffix("\n") ? s : s + "\n"
        if let held = Held.current {
            held.lines.append(line)
            return
        }
        flush()
        _ = line.withCString { fputs($0, stderr) }
    }

    /// What `body` writes to stderr on this thread, held back instead of written, so work done on
    /// several threads at once (one participant of a study each) reports in a fixed order.
    static func holdingMessages<T>(_ body: () throws -> T) -> (result: Result<T, Error>, messages: [String]) {
        let held = Held()
        Thread.current.threadDictionary[Held.key] = held
        defer { Thread.current.threadDictionary.removeObject(forKey: Held.key) }
        return (Result { try body() }, held.lines)
    }

    /// Whether this thread's stderr is held back (no progress bar is drawn then).
    static var isHoldingMessages: Bool { Held.current != nil }

    private final class Held {
        static let key = "daybook.held-messages"
        var lines: [String] = []
        static var current: Held? { Thread.current.threadDictionary[key] as? Held }
    }

    /// A confirmation or note on stderr.
    static func message(_ s: String) { writeErr(s) }

    static func error(_ e: DaybookError) {
        if let loc = e.location, loc.line != nil { writeErr("\(loc): error: \(e.message)") }
        else if let loc = e.location { writeErr("daybook: error: \(loc): \(e.message)") }
        else { writeErr("daybook: error: \(e.message)") }
    }

    static func warning(_ d: Diagnostic) {
        if let loc = d.location, loc.line != nil { writeErr("\(loc): \(d.severity.rawValue): \(d.message)") }
        else if let loc = d.location { writeErr("daybook: \(d.severity.rawValue): \(loc): \(d.message)") }
        else { writeErr("daybook: \(d.severity.rawValue): \(d.message)") }
    }

    static func warnings(_ ds: [Diagnostic]) { ds.forEach(warning) }

    // MARK: Colour (never the only carrier of meaning)

    static func paint(_ s: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
    static func bold(_ s: String) -> String { paint(s, "1") }
    static func dim(_ s: String) -> String { paint(s, "2") }
    static func accent(_ s: String) -> String { paint(s, "36") }
    static func match(_ s: String) -> String { paint(s, "1;31") }
}
