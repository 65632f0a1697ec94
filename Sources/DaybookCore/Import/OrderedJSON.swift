// A JSON reader that keeps object keys in the order written (JSONDecoder sorts them), for lossless imports.
import Foundation

enum OrderedJSON {
    struct SyntaxError: Error {
        var message: String
        /// 1-based line and column (in bytes) where reading stopped.
        var line: Int
        var column: Int
    }

    /// Parses one JSON text.
    static func parse(_ text: String) throws -> JSONValue {
        var p = Parser(bytes: Array(text.utf8))
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == p.bytes.count else { throw p.fail("unexpected text after the value") }
        return v
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0

        func fail(_ m: String) -> SyntaxError {
            let before = bytes[..<min(i, bytes.count)]
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            return SyntaxError(message: m, line: before.filter { $0 == 0x0A }.count + 1, column: i - lineStart + 1)
        }

        mutating func skipSpace() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }

        mutating func expect(_ word: String) throws {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw fail("expected `\(word)`") }
            i += w.count
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 512 else { throw fail("nested too deeply") }
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1; skipSpace()
                var pairs: [(String, JSONValue)] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
                    let key = try string()
                    skipSpace(); try expect(":"); skipSpace()
                    pairs.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    try expect("}")
                    return .object(pairs)
                }
            case UInt8(ascii: "["):
                i += 1; skipSpace()
                var items: [JSONValue] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end in a list") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default: return try number()
            }
        }

        mutating func number() throws -> JSONValue {
            let start = i
            while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            let s = String(decoding: bytes[start..<i], as: UTF8.self)
            if let n = Int(s) { return .int(n) }
            if let d = Double(s), !s.isEmpty { return .double(d) }
            i = start
            throw fail("expected a value")
        }

        mutating func string() throws -> String {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
                if b < 0x20 { throw fail("a control character inside a string") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { break }
                let e = bytes[i]; i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
                default: out.append(e)
                }
            }
            throw fail("a string that does not end")
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else { throw fail("a bad \\u escape") }
            i += 4
            return v
        }
    }
}
