// Name-based GUIDs: version 5 UUIDs against Python's uuid.uuid5.
import XCTest
@testable import DaybookCore

final class NameUUIDTests: XCTestCase {
    func testVersion5MatchesRFC4122() {
        // uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")
        let dns: [UInt8] = [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]
        XCTAssertEqual(NameUUID.make("python.org", namespace: dns), "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        XCTAssertEqual(NameUUID.make("daybook:entry:2026-11-21-1030-clinic"), "7784a431-e438-564e-be6b-4174d2a6d55b")
    }

    func testDifferentNamesGiveDifferentGUIDs() {
        XCTAssertNotEqual(REFIXML.guid("entry", "a"), REFIXML.guid("code", "a"))
        XCTAssertEqual(REFIXML.guid("entry", "a"), REFIXML.guid("entry", "a"))
    }
}
