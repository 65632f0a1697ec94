// The caches' checksum must notice what a torn or damaged file looks like: any bit flipped, in the
// four lanes and in the tail, and words that changed places.
import XCTest
@testable import DaybookCore

final class WideChecksumTests: XCTestCase {
    private func sum(_ bytes: [UInt8]) -> UInt64 {
        var c = WideChecksum64()
        c.add(bytes)
        return c.value
    }

    func testEveryFlippedBitChangesTheSum() {
        var rng = SplitMix64(seed: 5)
        var checked = 0
        // Lengths below, at and past a 32-byte block, with a tail of words and of bytes.
        for count in [1, 7, 8, 31, 32, 33, 45, 64, 100] {
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let original = sum(bytes)
            for i in 0..<count {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[i] ^= 1 << bit
                    XCTAssertNotEqual(sum(changed), original, "byte \(i) bit \(bit) of \(count)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 2500)
    }

    func testWordsThatChangePlacesChangeTheSum() {
        let words: [[UInt8]] = (0..<8).map { k in (0..<8).map { UInt8(k * 16 + $0) } }
        let original = sum(words.flatMap { $0 })
        for i in 0..<8 {
            for j in (i + 1)..<8 {
                var swapped = words
                swapped.swapAt(i, j)
                XCTAssertNotEqual(sum(swapped.flatMap { $0 }), original, "words \(i) and \(j)")
            }
        }
        // A file cut short, or grown by zeros, is not the same file.
        let bytes = words.flatMap { $0 }
        XCTAssertNotEqual(sum(Array(bytes.dropLast(8))), original)
        XCTAssertNotEqual(sum(bytes + [0]), original)
        XCTAssertNotEqual(sum([]), sum([0]))
    }
}
