// A length written in front of its bytes afterwards must be the length `uint` writes first, at
// every size a varint changes width, and read back by the reader.
import XCTest
@testable import DaybookCore

final class BinaryWriterTests: XCTestCase {
    func testALengthPutInFrontIsTheLengthWrittenFirst() throws {
        for count in [0, 1, 127, 128, 129, 16_383, 16_384, 16_385, 2_097_151, 2_097_152] {
            let content = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var first = BinaryWriter()
            first.bytes = [9, 9]
            first.uint(UInt64(count))
            first.bytes += content
            var after = BinaryWriter()
            after.bytes = [9, 9]
            after.lengthPrefixed { $0.bytes += content }
            XCTAssertEqual(after.bytes.count, first.bytes.count, "length \(count)")
            XCTAssertTrue(after.bytes == first.bytes, "length \(count)")
            try after.bytes.withUnsafeBufferPointer { b in
                var r = BinaryReader(b, offset: 2)
                let span = try r.span()
                XCTAssertEqual(span.count, count)
                XCTAssertEqual(span.upperBound, b.count)
            }
        }
    }

    func testLengthsInsideLengths() {
        var w = BinaryWriter()
        w.lengthPrefixed { w in
            w.string("title")
            w.lengthPrefixed { $0.bytes += [UInt8](repeating: 1, count: 200) }
            w.int(-5)
        }
        var expected = BinaryWriter()
        var inner = BinaryWriter()
        inner.string("title")
        inner.uint(200)
        inner.bytes += [UInt8](repeating: 1, count: 200)
        inner.int(-5)
        expected.uint(UInt64(inner.bytes.count))
        expected.bytes += inner.bytes
        XCTAssertEqual(w.bytes, expected.bytes)
    }
}
