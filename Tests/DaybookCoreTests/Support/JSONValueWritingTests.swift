// The JSON writer (issue 19): bytes into a buffer, runs copied whole, eight bytes looked at a time,
// nested pretty values indented as they are written. It must give the very text the first writer
// gave: one Unicode scalar at a time into a String, nested values re-indented afterwards.
import XCTest
@testable import DaybookCore

final class JSONValueWritingTests: XCTestCase {
    // MARK: The first writer, kept here as the reference

    /// A string as the first writer quoted it: one Unicode scalar at a time.
    static func reference(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// A value as the first writer wrote it: pretty at depth 0, then re-indented with
    /// `replacingOccurrences` for the depth it is nested at.
    static func reference(_ v: JSONValue, pretty: Bool, indent: Int) -> String {
        func write(_ v: JSONValue, _ out: inout String, _ level: Int) {
            switch v {
            case .null: out += "null"
            case let .bool(b): out += b ? "true" : "false"
            case let .int(i): out += String(i)
            case let .double(d): out += JSONValue.format(d)
            case let .string(s): out += reference(s)
            case let .array(items):
                if items.isEmpty { out += "[]"; return }
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += "," }
                    if pretty { out += "\n" + String(repeating: "  ", count: level + 1) }
                    write(item, &out, level + 1)
                }
                if pretty { out += "\n" + String(repeating: "  ", count: level) }
                out += "]"
            case let .object(pairs):
                if pairs.isEmpty { out += "{}"; return }
                out += "{"
                for (i, (k, v)) in pairs.enumerated() {
                    if i > 0 { out += "," }
                    if pretty { out += "\n" + String(repeating: "  ", count: level + 1) }
                    out += reference(k) + (pretty ? ": " : ":")
                    write(v, &out, level + 1)
                }
                if pretty { out += "\n" + String(repeating: "  ", count: level) }
                out += "}"
            }
        }
        var out = ""
        write(v, &out, 0)
        return indent == 0 ? out : out.replacingOccurrences(of: "\n", with: "\n" + String(repeating: "  ", count: indent))
    }

    // MARK: Generated strings and values

    /// Pieces that make tricky strings: every kind of escape, characters of 1 to 4 bytes, U+2028
    /// and U+2029 (left as they are), combining marks, and plain runs long enough to be read eight
    /// bytes at a time with an escape at any place in a word.
    static let pieces: [String] = ["a", "Ü", "日本", "🙂", "\"", "\\", "\n", "\r\n", "\t", "\u{0}", "\u{1b}", "\u{1f}", "\u{7f}",
                                   "\u{80}", "\u{2028}", "\u{2029}", "\u{FEFF}", " ", "é", "\u{301}", "\u{10FFFF}", "/", "\u{8}", "\u{c}",
                                   "plain text run", "0123456", "01234567", "012345678", "ÿÿÿÿÿÿÿÿ", "\\\\\\\\\\\\\\\\"]

    static func string(_ rng: inout SplitMix64, maxPieces: Int = 24) -> String {
        let n = Int(rng.next() % UInt64(maxPieces + 1))
        return (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
    }

    static func value(_ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch rng.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64))
        case 3: return .double([0.5, -1e300, 1e15, 3.0, .infinity, 0.1 + 0.2, -0.0][Int(rng.next() % 7)])
        case 4: return .string(string(&rng))
        case 5: return .array((0..<Int(rng.next() % 4)).map { _ in value(&rng, depth: depth + 1) })
        default: return .object((0..<Int(rng.next() % 4)).map { _ in (string(&rng, maxPieces: 3), value(&rng, depth: depth + 1)) })
        }
    }

    // MARK: Tests

    func testStringsAreWrittenAsScalarByScalar() throws {
        var rng = SplitMix64(seed: 19)
        var escapedInWord = 0
        for _ in 0..<5000 {
            let s = JSONValueWritingTests.string(&rng)
            var w = JSONWriter()
            w.write(string: s)
            let out = String(decoding: w.bytes, as: UTF8.self)
            XCTAssertEqual(out, Self.reference(s), s.debugDescription)
            // And it is JSON that reads back as the string (Foundation's reader drops U+FEFF, so
            // a string with one is compared as written only).
            if !s.unicodeScalars.contains("\u{FEFF}") {
                let back = try JSONSerialization.jsonObject(with: Data("[\(out)]".utf8)) as? [String]
                XCTAssertEqual(back?.first, s)
            }
            if s.utf8.count >= 8, s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { escapedInWord += 1 }
        }
        XCTAssertGreaterThan(escapedInWord, 2000, "the eight-byte path meets escapes")
    }

    func testEveryByteAtEveryPlaceOfAWord() {
        // One byte of each value at each place of a run of safe bytes (ASCII, or the bytes of a
        // character beyond ASCII around it): escaped exactly when the first writer escaped it.
        for b in 0..<0x80 {
            let c = String(UnicodeScalar(UInt8(b)))
            for fill in ["a", "é", "🙂"] {
                for at in 0..<17 {
                    let s = String(repeating: fill, count: at) + c + String(repeating: fill, count: 17 - at)
                    var w = JSONWriter()
                    w.write(string: s)
                    XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), Self.reference(s), "byte \(b) at \(at) among \(fill)")
                }
            }
        }
    }

    func testTheWordTestIsExact() {
        // The eight-byte test against the byte-by-byte one: every byte value in every lane, and a
        // million random words (bytes near the edges 0x1F/0x20, 0x21-0x23, 0x5B-0x5D favoured).
        func naive(_ w: UInt64) -> Bool {
            (0..<8).contains { k in let b = UInt8(truncatingIfNeeded: w >> (8 * k)); return b < 0x20 || b == 0x22 || b == 0x5C }
        }
        for lane in 0..<8 {
            for b in 0..<256 {
                for background: UInt64 in [0x6161_6161_6161_6161, 0xC3A9_C3A9_C3A9_C3A9, 0x2020_2020_2020_2020, 0xFFFF_FFFF_FFFF_FFFF, 0x2121_2121_2121_2121] {
                    let w = (background & ~(0xFF << (8 * UInt64(lane)))) | (UInt64(b) << (8 * UInt64(lane)))
                    XCTAssertEqual(JSONWriter.mayNeedEscape(w), naive(w), String(w, radix: 16))
                }
            }
        }
        var rng = SplitMix64(seed: 2028)
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        for _ in 0..<1_000_000 {
            var w: UInt64 = 0
            for k in 0..<8 {
                let r = rng.next()
                let b = r % 3 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : edges[Int((r >> 8) % UInt64(edges.count))]
                w |= UInt64(b) << (8 * UInt64(k))
            }
            if JSONWriter.mayNeedEscape(w) != naive(w) { XCTFail(String(w, radix: 16)); return }
        }
    }

    func testValuesAreWrittenAsTheFirstWriterWroteThem() {
        var rng = SplitMix64(seed: 2029)
        for _ in 0..<3000 {
            let v = JSONValueWritingTests.value(&rng)
            for (pretty, indent) in [(false, 0), (true, 0), (true, 1), (true, 2), (true, 3)] {
                XCTAssertEqual(v.serialized(pretty: pretty, indent: indent), Self.reference(v, pretty: pretty, indent: indent))
            }
        }
    }

    func testAnEntryIsWrittenAsTheFirstWriterWroteIt() {
        // The shape `export json` and `export jsonl` write, with a body of every kind of piece.
        var rng = SplitMix64(seed: 2030)
        for _ in 0..<500 {
            var e = Entry(id: "2026-11-21-0900-x", path: "entries/2026/11/2026-11-21-0900-x.md",
                          date: LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 9 * 3600, offset: 3600), title: JSONValueWritingTests.string(&rng, maxPieces: 4),
                          frontTags: ["a", JSONValueWritingTests.string(&rng, maxPieces: 2)], inlineTags: [], mood: 3, template: nil,
                          fields: [("note", .string(JSONValueWritingTests.string(&rng)))], codings: [], body: "", bodyStartLine: 5,
                          words: 3, hasInk: false)
            e.body = JSONValueWritingTests.string(&rng, maxPieces: 200)
            XCTAssertEqual(String(decoding: JSONExport.bytes(of: e, pretty: true), as: UTF8.self),
                           Self.reference(e.json(includeBody: true), pretty: true, indent: 2))
            XCTAssertEqual(String(decoding: JSONExport.bytes(of: e, pretty: false), as: UTF8.self),
                           Self.reference(e.json(includeBody: true), pretty: false, indent: 0))
        }
    }
}
