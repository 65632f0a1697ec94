// JSON text as UTF-8 bytes in a buffer: the one writer behind `JSONValue.serialized`, the streamed
// exports and the stroke files.
import Foundation

/// Writes JSON values into `bytes`: object keys in their given order; `pretty`: a line per member,
/// two spaces a level. A string is written as its UTF-8 with `"` and `\` escaped and control
/// characters as `\n`, `\r`, `\t` or `\u00xx`; everything else (U+2028, U+2029, characters beyond
/// the BMP) as it is.
public struct JSONWriter {
    public var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// `v`; with `pretty`, the lines after the first indented `indent` levels (a value nested in a
    /// document being written).
    public mutating func write(_ v: JSONValue, pretty: Bool = false, indent: Int = 0) {
        switch v {
        case .null: raw("null")
        case let .bool(b): raw(b ? "true" : "false")
        case let .int(i): bytes.append(contentsOf: String(i).utf8)
        case let .double(d): bytes.append(contentsOf: JSONValue.format(d).utf8)
        case let .string(s): write(string: s)
        case let .array(items):
            if items.isEmpty { raw("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1) }
                write(item, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            bytes.append(UInt8(ascii: "]"))
        case let .object(pairs):
            if pairs.isEmpty { raw("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1) }
                write(string: k)
                raw(pretty ? ": " : ":")
                write(v, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(indent) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Text as it is (JSON punctuation, whitespace).
    public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private mutating func newline(_ level: Int) {
        bytes.append(0x0A)
        for _ in 0..<(2 * level) { bytes.append(0x20) }
    }

    /// A JSON string.
    public mutating func write(string s: String) {
        var s = s
        s.withUTF8 { write(utf8: $0) }
    }

    /// A JSON string from valid UTF-8. Runs that need no escape are copied whole: a byte under
    /// 0x20, `"` or `\` is never part of a longer character, so the bytes are looked at eight at a
    /// time for one of those, and one by one only in a word that holds one.
    public mutating func write(utf8 s: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        guard let base = s.baseAddress else { bytes.append(UInt8(ascii: "\"")); return }
        let raw = UnsafeRawPointer(base)
        var start = 0, i = 0
        while i < s.count {
            if i + 8 <= s.count, !JSONWriter.mayNeedEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
                continue
            }
            let end = min(i + 8, s.count)
            while i < end {
                let b = base[i]
                if b < 0x20 || b == 0x22 || b == 0x5C {
                    if start < i { bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start)) }
                    escape(b)
                    start = i + 1
                }
                i += 1
            }
        }
        if start < s.count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: s.count - start)) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether one of the eight bytes of `w` is under 0x20, `"` or `\` (exact: the borrows of the
    /// subtractions only ever set a high bit above a byte that already answers yes).
    @inline(__always)
    static func mayNeedEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
        let below = (w &- ones &* 0x20) & ~w
        let zeros = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (below | zeros) & highs != 0
    }

    private mutating func escape(_ b: UInt8) {
        switch b {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            bytes.append(hex.utf8Start[Int(b >> 4)])
            bytes.append(hex.utf8Start[Int(b & 0x0F)])
        }
    }
}
