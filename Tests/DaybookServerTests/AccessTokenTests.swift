// The token: random, long, and compared whole.
@testable import DaybookServer
import XCTest

final class AccessTokenTests: XCTestCase {
    func testTokensAreLongAndDiffer() {
        let a = AccessToken(), b = AccessToken()
        XCTAssertEqual(a.value.count, 64)
        XCTAssertTrue(a.value.allSatisfy(\.isHexDigit))
        XCTAssertNotEqual(a, b)
    }

    func testOnlyTheWholeTokenMatches() {
        let t = AccessToken("0123456789abcdef")
        XCTAssertTrue(t.matches("0123456789abcdef"))
        XCTAssertFalse(t.matches("0123456789abcde"))
        XCTAssertFalse(t.matches("0123456789abcdef0"))
        XCTAssertFalse(t.matches("1123456789abcdef"))
        XCTAssertFalse(t.matches(""))
        XCTAssertFalse(t.matches(nil))
    }
}
