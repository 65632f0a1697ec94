// The import JSON reader keeps key order and says where bad JSON stops.
import XCTest
@testable import DaybookCore

final class OrderedJSONTests: XCTestCase {
    func testKeysKeepTheirOrder() throws {
        let v = try OrderedJSON.parse(#"{"zeta": 1, "alpha": [true, null, -2.5e1], "mid": {"b": "x\n\u00fc\ud83d\ude42", "a": {}}}"#)
        XCTAssertEqual(v, .object([("zeta", .int(1)), ("alpha", .array([.bool(true), .null, .double(-25)])),
                                   ("mid", .object([("b", .string("x\nü🙂")), ("a", .object([]))]))]))
    }

    func testErrorsSayLineAndColumn() {
        XCTAssertThrowsError(try OrderedJSON.parse("{\n  \"a\": tru\n}")) { e in
            guard let e = e as? OrderedJSON.SyntaxError else { return XCTFail("\(e)") }
            XCTAssertEqual(e.line, 2)
            XCTAssertEqual(e.column, 8)
        }
        XCTAssertThrowsError(try OrderedJSON.parse("[1, 2"))
        XCTAssertThrowsError(try OrderedJSON.parse("{} extra"))
        XCTAssertThrowsError(try OrderedJSON.parse("\"unterminated"))
    }
}
