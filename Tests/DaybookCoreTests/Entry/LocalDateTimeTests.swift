// Dates as written: the one output form, the input forms, and round trips over random moments.
import XCTest
@testable import DaybookCore

final class LocalDateTimeTests: XCTestCase {
    let vienna = TimeZone(identifier: "Europe/Vienna")!

    func testInputForms() {
        XCTAssertEqual(LocalDateTime.parse("2026-11-21T22:40:00+01:00", timeZone: vienna)?.description, "2026-11-21T22:40:00+01:00")
        XCTAssertEqual(LocalDateTime.parse("2026-11-21T22:40:00.250-0530", timeZone: vienna)?.description, "2026-11-21T22:40:00-05:30")
        XCTAssertEqual(LocalDateTime.parse("2026-11-21 22:40", timeZone: vienna)?.description, "2026-11-21T22:40:00+01:00")
        XCTAssertEqual(LocalDateTime.parse("2026-06-21", timeZone: vienna)?.description, "2026-06-21T00:00:00+02:00")
        for bad in ["2026-11-21T25:00", "2026-02-30", "21.11.2026", "2026-11-21T10:00+25:00", "2026-11-21X10:00", "yesterday", ""] {
            XCTAssertNil(LocalDateTime.parse(bad, timeZone: vienna), bad)
        }
    }

    func testOrderIsByInstantAndDayIsLocal() {
        let ny = LocalDateTime.parse("2026-11-18T23:30:00-05:00", timeZone: vienna)!
        let vie = LocalDateTime.parse("2026-11-19T01:00:00+01:00", timeZone: vienna)!
        XCTAssertLessThan(vie, ny) // 00:00Z before 04:30Z
        XCTAssertEqual(ny.day.description, "2026-11-18")
    }

    /// Any moment in any zone, written and read back, is the same moment with the same offset.
    func testRandomMomentsRoundTrip() {
        var rng = SeededGenerator(seed: 42)
        let zones = ["Europe/Vienna", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "UTC", "America/St_Johns"]
            .compactMap(TimeZone.init(identifier:))
        for _ in 0..<2000 {
            let instant = Date(timeIntervalSince1970: Double(Int64(rng.next() % 4_000_000_000)) - 1_000_000_000)
            let zone = zones[Int(rng.next() % UInt64(zones.count))]
            let t = LocalDateTime(instant: instant, timeZone: zone)
            let back = LocalDateTime.parse(t.description, timeZone: vienna)
            XCTAssertEqual(back, t, t.description)
            XCTAssertEqual(back?.instant.timeIntervalSince1970, instant.timeIntervalSince1970.rounded(.down))
        }
    }
}
