// Decoding an InkML <trace>'s text: points, explicit and difference-encoded values.
import Foundation

/// InkML §3.2.1: points are separated by commas; a value may be prefixed by `!` (explicit),
/// `'` (first difference) or `"` (second difference), and the prefix stays in force for that
/// channel until another one is given. Values may run together when a sign starts the next one
/// (`3-5+7`), or a second decimal point does (`1.5.5`). `?` is unknown, `*` repeats the last
/// value, `T`/`F` are booleans, `#1F` a hexadecimal integer.
struct InkMLTrace {
    struct Problem: Error {
        var message: String
        var point: Int
        /// Where in the trace's text (UTF-8 bytes from 0), when known.
        var offset: Int? = nil
    }

    private enum Mode { case explicit, first, second }

    private struct ChannelState {
        var mode = Mode.explicit
        var value: Double?
        var velocity = 0.0
    }

    /// The decoded points: `regular` values each (NaN where unknown); values past them
    /// (intermittent channels) are dropped. A point with more values than a declared trace format
    /// has channels (`regular` + `intermittent`) is refused: the grammar has no place for them, and
    /// reading on would lose points silently (`0 0'3'4` is one point of four values, not two
    /// points). Under the default format (X Y, `declared` false) a plain extra value is an
    /// undeclared channel, dropped and counted in `undeclared`; a difference-encoded one (`'3`)
    /// can only be a point missing its comma, and is refused.
    static func decode(_ text: String, regular: Int, intermittent: Int = 0, declared: Bool = true) throws -> [[Double]] {
        var undeclared = 0
        return try decode(text, regular: regular, intermittent: intermittent, declared: declared, undeclared: &undeclared)
    }

    static func decode(_ text: String, regular: Int, intermittent: Int, declared: Bool, undeclared: inout Int) throws -> [[Double]] {
        var states = [ChannelState](repeating: ChannelState(), count: regular)
        var points: [[Double]] = []
        let bytes = Array(text.utf8)
        var i = 0
        var row: [Double] = []
        /// Values of the point being read past the regular channels.
        var extra = 0
        var pending: Mode?
        func finishPoint() {
            if !row.isEmpty || pending != nil {
                row += repeatElement(Double.nan, count: max(0, regular - row.count))
                points.append(Array(row.prefix(regular)))
            }
            row.removeAll(keepingCapacity: true)
            extra = 0
            pending = nil
        }
        func store(_ raw: Double?, repeatLast: Bool = false) throws {
            let k = row.count
            guard k < regular else {
                extra += 1
                if extra > intermittent, !declared, pending == nil || pending == .explicit {
                    undeclared += 1
                    pending = nil
                    return
                }
                guard extra <= intermittent else {
                    throw Problem(message: "more values than the trace format's \(regular + intermittent) channel\(regular + intermittent == 1 ? "" : "s") (points are separated by commas)",
                                  point: points.count, offset: i)
                }
                pending = nil
                return
            }
            var s = states[k]
            if let p = pending { s.mode = p }
            pending = nil
            var v = Double.nan
            if repeatLast {
                v = s.value ?? .nan
            } else if let raw {
                let previous = s.value ?? 0
                switch s.mode {
                case .explicit: v = raw; s.velocity = s.value.map { raw - $0 } ?? 0
                case .first: s.velocity = raw; v = previous + raw
                case .second: s.velocity += raw; v = previous + s.velocity
                }
                s.value = v
            }
            states[k] = s
            row.append(v)
        }
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: ","): finishPoint(); i += 1
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case UInt8(ascii: "!"): pending = .explicit; i += 1
            case UInt8(ascii: "'"): pending = .first; i += 1
            case UInt8(ascii: "\""): pending = .second; i += 1
            case UInt8(ascii: "?"): try store(nil); i += 1
            case UInt8(ascii: "*"): try store(nil, repeatLast: true); i += 1
            case UInt8(ascii: "T"): try store(1); i += 1
            case UInt8(ascii: "F"): try store(0); i += 1
            case UInt8(ascii: "#"):
                var j = i + 1
                while j < bytes.count, Character(Unicode.Scalar(bytes[j])).isHexDigit { j += 1 }
                guard j > i + 1, let v = Int(String(decoding: bytes[(i + 1)..<j], as: UTF8.self), radix: 16) else {
                    throw Problem(message: "`#` must be followed by hexadecimal digits", point: points.count)
                }
                try store(Double(v)); i = j
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), 0x30...0x39:
                var j = i
                if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { j += 1 }
                var dot = false, digits = false
                while j < bytes.count {
                    let d = bytes[j]
                    if d >= 0x30 && d <= 0x39 { digits = true; j += 1 }
                    else if d == UInt8(ascii: "."), !dot { dot = true; j += 1 }
                    else if (d == UInt8(ascii: "e") || d == UInt8(ascii: "E")), digits {
                        var k = j + 1
                        if k < bytes.count, bytes[k] == UInt8(ascii: "-") || bytes[k] == UInt8(ascii: "+") { k += 1 }
                        guard k < bytes.count, bytes[k] >= 0x30 && bytes[k] <= 0x39 else { break }
                        j = k
                        while j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1 }
                        break
                    } else { break }
                }
                guard digits, let v = Double(String(decoding: bytes[i..<j], as: UTF8.self)), v.isFinite else {
                    throw Problem(message: "`\(String(decoding: bytes[i..<min(j + 1, bytes.count)], as: UTF8.self))` is not a number", point: points.count)
                }
                try store(v); i = j
            default:
                let ch = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self).prefix(1)
                throw Problem(message: "unexpected `\(ch)` (a trace holds numbers, prefixes ! ' \", ?, *, T, F and commas)", point: points.count)
            }
        }
        finishPoint()
        return points
    }
}
