// A JSON reader that knows the line and column of every value and keeps object keys in order:
// stroke files (pulled value by value) and imports (whole documents, lossless) read through it.
import Foundation

/// Foundation's JSONSerialization cannot say where a value sits, and a tree of a million positioned
/// nodes would cost too much memory, so stroke files are read by pulling values one at a time from
/// the bytes. The caller drives it (`StrokeFileParser`), turning points straight into doubles.
struct JSONScanner {
    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    private(set) var bytes: [UInt8]
    private(set) var index = 0
    private var line = 1
    private var lineStart = 0

    /// `bytes` should end in a 0 byte (strtod needs a terminator after the last number); one is
    /// added when it does not, at the cost of a copy for a large file.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.last != 0 { self.bytes.append(0) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
    }

    /// Line and column (1-based; the column counts bytes) of the next value.
    var position: (line: Int, column: Int) {
        mutating get {
            skipSpace()
            return (line, index - lineStart + 1)
        }
    }

    func error(_ message: String) -> SyntaxError { SyntaxError(message: message, line: line, column: index - lineStart + 1) }

    mutating func skipSpace() {
        while index < bytes.count - 1 {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    /// The next significant byte (0 at the end).
    mutating func peek() -> UInt8 {
        skipSpace()
        return bytes[index]
    }

    var atEnd: Bool { index >= bytes.count - 1 }

    mutating func expect(_ c: Unicode.Scalar) throws {
        guard peek() == UInt8(ascii: c) else {
            throw error(atEnd ? "the file ends where `\(c)` was expected" : "expected `\(c)` here")
        }
        index += 1
    }

    /// Consumes `c` when it comes next.
    mutating func take(_ c: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: c) else { return false }
        index += 1
        return true
    }

    /// After an item of an array or object: true when another follows (a comma), false at `close`.
    mutating func more(close: Unicode.Scalar) throws -> Bool {
        if take(",") { return true }
        if take(close) { return false }
        throw error(atEnd ? "the file ends inside a `\(close == "]" ? "[" : "{")`" : "expected `,` or `\(close)` here")
    }

    mutating func string() throws -> String {
        try expect("\"")
        var out: [UInt8] = []
        while true {
            if index >= bytes.count - 1 { throw error("the file ends inside a string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") { index += 1; break }
            if c < 0x20 { throw error("a control character inside a string (write it as \\n, \\t or \\u00XX)") }
            if c != UInt8(ascii: "\\") { out.append(c); index += 1; continue }
            index += 1
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("`\\u` names no character") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: index -= 1; throw error("unknown escape `\\\(Character(Unicode.Scalar(e)))` in a string")
            }
        }
        guard let s = String(bytes: out, encoding: .utf8) else { throw error("a string that is not UTF-8") }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { throw error("`\\u` needs four hex digits") }
            v = v * 16 + UInt32(d)
            index += 1
        }
        return v
    }

    /// Whether the next value is a number (or one of the non-JSON spellings NaN and Infinity,
    /// which `number()` refuses with a reason).
    mutating func atNumber() -> Bool {
        let c = peek()
        return c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "N") || c == UInt8(ascii: "I")
    }

    /// A number by JSON's grammar, converted with strtod (exact, and fast enough for a million points).
    mutating func number() throws -> Double {
        skipSpace()
        let start = index
        if bytes[index] == UInt8(ascii: "N") || bytes[index] == UInt8(ascii: "I") || (bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "I")) {
            for word in ["NaN", "Infinity", "-Infinity"] where bytes[index...].starts(with: word.utf8) {
                let e = error("\(word) is not a number JSON can hold")
                index += word.utf8.count
                throw e
            }
        }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The digits are gathered as they are checked, for Clinger's fast path: up to 15 digits
        // and no exponent make an exact integer and an exact power of ten, and one division of
        // those rounds correctly, so the result equals strtod's at a fraction of its cost.
        var mantissa = 0, significant = 0
        func digits() -> Int {
            let s = index
            while bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                if significant < 16 { mantissa = mantissa &* 10 &+ Int(bytes[index] &- 0x30) }
                significant += 1
                index += 1
            }
            return index - s
        }
        let intDigits = digits()
        guard intDigits > 0 else { index = start; throw error("expected a number here") }
        if intDigits > 1 && bytes[start + (negative ? 1 : 0)] == 0x30 {
            index = start; throw error("a number cannot start with 0")
        }
        var decimals = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            decimals = digits()
            guard decimals > 0 else { throw error("a digit must follow the decimal point") }
        }
        var exponent = false
        if bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            exponent = true
            index += 1
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a digit must follow the exponent") }
        }
        if !exponent && significant <= 15 && decimals <= 22 {
            let v = Double(mantissa) / JSONScanner.powersOfTen[decimals]
            return negative ? -v : v
        }
        let value = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { strtod($0 + start, nil) }
        }
        guard value.isFinite else { throw SyntaxError(message: "the number is too large", line: line, column: start - lineStart + 1) }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Any value, for keys daybook does not know (kept as written when the file is rewritten).
    mutating func value(depth: Int = 0) throws -> JSONValue {
        guard depth < 100 else { throw error("values nested too deeply") }
        switch peek() {
        case UInt8(ascii: "{"):
            index += 1
            var pairs: [(String, JSONValue)] = []
            if take("}") { return .object(pairs) }
            repeat {
                let k = try string()
                try expect(":")
                pairs.append((k, try value(depth: depth + 1)))
            } while try more(close: "}")
            return .object(pairs)
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            if take("]") { return .array(items) }
            repeat { items.append(try value(depth: depth + 1)) } while try more(close: "]")
            return .array(items)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default:
            let start = index
            let d = try number()
            // An integer as written stays an exact Int (a double would round past 2^53).
            let literal = bytes[start..<index]
            if !literal.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
               let i = Int(String(decoding: literal, as: UTF8.self)) {
                return .int(i)
            }
            return .double(d)
        }
    }

    /// A whole JSON document (nothing but blanks after it).
    static func document(_ bytes: [UInt8]) throws -> JSONValue {
        var scanner = JSONScanner(bytes)
        let v = try scanner.value()
        guard scanner.peek() == 0, scanner.index >= scanner.bytes.count - 1 else { throw scanner.error("unexpected text after the value") }
        return v
    }

    /// Skips a value without building or checking it: a byte scan that only follows strings and
    /// brackets (for a `strokes` list read again once `channels` is known, and for points that
    /// an entry's reader does not need).
    mutating func skip() throws {
        skipSpace()
        var depth = 0
        while index < bytes.count - 1 {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { index += 1; return }
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count - 1 && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count - 1 else { index = bytes.count - 1; throw error("the file ends inside a string") }
                if depth == 0 { index += 1; return }
            case 0x0A: line += 1; lineStart = index + 1
            case UInt8(ascii: ","), 0x20, 0x09, 0x0D:
                if depth == 0 { return }
            default: break
            }
            index += 1
        }
        if depth > 0 { throw error("the file ends inside a value") }
    }

    struct Mark { var index: Int, line: Int, lineStart: Int }
    var mark: Mark { Mark(index: index, line: line, lineStart: lineStart) }
    mutating func reset(to m: Mark) { index = m.index; line = m.line; lineStart = m.lineStart }

    mutating func word(_ w: String) throws {
        guard bytes[index...].starts(with: w.utf8) else { throw error("expected a JSON value here") }
        index += w.utf8.count
    }
}
