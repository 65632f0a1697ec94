// The JSON writer's fast paths (issue 19): whole runs copied from the UTF-8, and nested pretty values
// indented as they are written, give the same text as writing scalar by scalar and re-indenting.
import XCTest
@testable import DaybookCore

final class JSONValueWritingTests: XCTestCase {
    /// The writer as it was: one Unicode scalar at a time.
    func reference(_ s: String) -> String {
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

    func testStringsAreWrittenAsScalarByScalar() throws {
        var rng = SplitMix64(seed: 19)
        let pieces: [String] = ["a", "Ü", "日本", "🙂", "\"", "\\", "\n", "\r\n", "\t", "\u{0}", "\u{1b}", "\u{7f}", "\u{2028}", " ", "é", "\u{301}"]
        for _ in 0..<2000 {
            let n = Int(rng.next() % 24)
            let s = (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            var out = ""
            JSONValue.quote(s, into: &out)
            XCTAssertEqual(out, reference(s), s.debugDescription)
            // And it is JSON that reads back as the string.
            let back = try JSONSerialization.jsonObject(with: Data("[\(out)]".utf8)) as? [String]
            XCTAssertEqual(back?.first, s)
        }
    }

    func testANestedValueIsIndentedAsItIsWritten() {
        let v: JSONValue = .object([("id", .string("x")), ("tags", .array([.string("a"), .string("b\nc")])),
                                    ("fields", .object([("k", .object([])), ("l", .array([]))])), ("n", .int(3))])
        for indent in 0...3 {
            let pad = String(repeating: "  ", count: indent)
            XCTAssertEqual(v.serialized(pretty: true, indent: indent), v.serialized(pretty: true).replacingOccurrences(of: "\n", with: "\n" + pad))
        }
    }
}
