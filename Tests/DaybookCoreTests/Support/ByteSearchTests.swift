// The search sixteen places at a time must find what a plain left-to-right scan finds.
import XCTest
@testable import DaybookCore

final class ByteSearchTests: XCTestCase {
    /// Non-overlapping matches, left to right, one place at a time: the rule itself.
    private func reference(_ needle: [UInt8], _ hay: [UInt8]) -> [Int] {
        var out: [Int] = [], i = 0
        guard !needle.isEmpty else { return out }
        while i + needle.count <= hay.count {
            if Array(hay[i..<(i + needle.count)]) == needle { out.append(i); i += needle.count } else { i += 1 }
        }
        return out
    }

    private func search(_ needle: [UInt8], _ hay: [UInt8], vectors: Bool) -> [Int] {
        ByteSearch.vectors = vectors
        defer { ByteSearch.vectors = true }
        return hay.withUnsafeBufferPointer { h in needle.withUnsafeBufferPointer { ByteSearch.matches(of: $0, in: h) } }
    }

    /// Texts of a few letters, so matches are many, overlap, run across the sixteen-byte blocks
    /// and sit at both ends; needles from one byte to longer than a block.
    func testFindsWhatAScanFinds() {
        var rng = SplitMix64(seed: 11)
        var found = 0, acrossBlocks = 0
        for _ in 0..<6000 {
            let letters = Array("aab b\n".utf8).prefix(Int(rng.next() % 5) + 2)
            let hay = (0..<Int(rng.next() % 90)).map { _ in letters[letters.startIndex + Int(rng.next() % UInt64(letters.count))] }
            var needle: [UInt8]
            if !hay.isEmpty, rng.next() % 3 != 0 {
                // Taken from the text, so it occurs at least once.
                let start = Int(rng.next() % UInt64(hay.count))
                needle = Array(hay[start..<min(hay.count, start + Int(rng.next() % 24) + 1)])
            } else {
                needle = (0..<Int(rng.next() % 6)).map { _ in letters[letters.startIndex + Int(rng.next() % UInt64(letters.count))] }
            }
            let expected = reference(needle, hay)
            XCTAssertEqual(search(needle, hay, vectors: true), expected, "needle \(needle) hay \(hay)")
            XCTAssertEqual(search(needle, hay, vectors: false), expected, "needle \(needle) hay \(hay)")
            found += expected.count
            if expected.contains(where: { $0 >= 16 }) { acrossBlocks += 1 }
        }
        XCTAssertGreaterThan(found, 20000)
        XCTAssertGreaterThan(acrossBlocks, 1000)
    }

    func testLongNeedlesAndTheEnds() {
        let hay = Array(String(repeating: "x", count: 40).utf8) + Array("login failed".utf8)
        XCTAssertEqual(search(Array("login failed".utf8), hay, vectors: true), [40])
        XCTAssertEqual(search(Array("x".utf8), Array("xxxx".utf8), vectors: true), [0, 1, 2, 3])
        XCTAssertEqual(search(Array("xx".utf8), Array(String(repeating: "x", count: 37).utf8), vectors: true), Array(stride(from: 0, to: 36, by: 2)))
        XCTAssertEqual(search([], hay, vectors: true), [])
        XCTAssertEqual(search(hay + [0x21], hay, vectors: true), [])
    }
}
