// Whole JSON documents (imports): keys keep their order, integers stay exact, errors say where.
import XCTest
@testable import DaybookCore

final class JSONDocumentTests: XCTestCase {
    func testKeysKeepTheirOrder() throws {
        let v = try JSONScanner.document(Array(#"{"zeta": 1, "alpha": [true, null, -2.5e1], "mid": {"b": "x\n\u00fc\ud83d\ude42", "a": {}}}"#.utf8))
        XCTAssertEqual(v, .object([("zeta", .int(1)), ("alpha", .array([.bool(true), .null, .double(-25)])),
                                   ("mid", .object([("b", .string("x\nü🙂")), ("a", .object([]))]))]))
    }

    func testIntegersStayExactAndNumbersWithAPointStayDecimal() throws {
        XCTAssertEqual(try JSONScanner.document(Array("[9007199254740993, 1.0, 2e0, -7]".utf8)),
                       .array([.int(9007199254740993), .double(1), .double(2), .int(-7)]))
    }

    func testErrorsSayLineAndColumn() {
        XCTAssertThrowsError(try JSONScanner.document(Array("{\n  \"a\": tru\n}".utf8))) { e in
            guard let e = e as? JSONScanner.SyntaxError else { return XCTFail("\(e)") }
            XCTAssertEqual(e.line, 2)
            XCTAssertEqual(e.column, 8)
        }
        XCTAssertThrowsError(try JSONScanner.document(Array("[1, 2".utf8)))
        XCTAssertThrowsError(try JSONScanner.document(Array("{} extra".utf8)))
        XCTAssertThrowsError(try JSONScanner.document(Array("\"unterminated".utf8)))
    }
}
