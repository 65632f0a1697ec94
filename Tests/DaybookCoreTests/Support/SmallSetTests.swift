// The list-then-hash set must answer as a Set does, below, at and above the length where it hashes.
import XCTest
@testable import DaybookCore

final class SmallSetTests: XCTestCase {
    func testAnswersAsASetDoes() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<300 {
            var small = SmallSet(), reference = Set<String>()
            let alphabet = Int(rng.next() % 60) + 1
            for _ in 0..<Int(rng.next() % 80) {
                // Equal Strings with different bytes too: "é" composed and decomposed.
                let n = Int(rng.next() % UInt64(alphabet))
                let s = n % 7 == 0 ? "caf\u{E9}\(n)" : n % 7 == 1 ? "cafe\u{301}\(n - 1)" : "tag\(n)"
                XCTAssertEqual(small.insert(s), reference.insert(s).inserted, s)
            }
        }
    }
}
