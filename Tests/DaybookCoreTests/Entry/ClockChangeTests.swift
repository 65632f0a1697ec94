// Local times a daylight-saving change skips or repeats (SPEC §7): moved forward, or the first taken, and said.
import XCTest
@testable import DaybookCore

final class ClockChangeTests: XCTestCase {
    let vienna = TimeZone(identifier: "Europe/Vienna")!

    func testATimeInTheSpringGapMovesForwardByTheGap() throws {
        let (time, note) = try XCTUnwrap(LocalDateTime.parseNotingClockChange("2026-03-29 02:30", timeZone: vienna))
        XCTAssertEqual(time.description, "2026-03-29T03:30:00+02:00")
        XCTAssertEqual(note?.kind, .skipped)
        XCTAssertEqual(note?.description, "2026-03-29 02:30 does not exist in Europe/Vienna (the clocks go forward an hour then): moved forward to 03:30, 2026-03-29T03:30:00+02:00")
        // The gap's edges: 02:00 is skipped too, 03:00 and 01:59 are fine.
        XCTAssertEqual(LocalDateTime.parse("2026-03-29 02:00", timeZone: vienna)?.description, "2026-03-29T03:00:00+02:00")
        XCTAssertNil(LocalDateTime.parseNotingClockChange("2026-03-29 03:00", timeZone: vienna)?.note)
        XCTAssertEqual(LocalDateTime.parse("2026-03-29 01:59", timeZone: vienna)?.description, "2026-03-29T01:59:00+01:00")
    }

    func testTheRepeatedAutumnHourTakesTheFirstOccurrence() throws {
        let (time, note) = try XCTUnwrap(LocalDateTime.parseNotingClockChange("2026-10-25 02:30", timeZone: vienna))
        XCTAssertEqual(time.description, "2026-10-25T02:30:00+02:00")
        XCTAssertEqual(note?.kind, .repeated)
        XCTAssertEqual(note?.description, "2026-10-25 02:30 happens twice in Europe/Vienna (the clocks go back then): took the first, 2026-10-25T02:30:00+02:00, not 2026-10-25T02:30:00+01:00")
        XCTAssertNil(LocalDateTime.parseNotingClockChange("2026-10-25 03:00", timeZone: vienna)?.note)
        XCTAssertEqual(LocalDateTime.parse("2026-10-25 03:00", timeZone: vienna)?.description, "2026-10-25T03:00:00+01:00")
        XCTAssertEqual(LocalDateTime.parse("2026-10-25 01:59", timeZone: vienna)?.description, "2026-10-25T01:59:00+02:00")
    }

    func testHalfHourChangesAndZonesWithoutChanges() throws {
        // Lord Howe Island moves its clocks by 30 minutes (02:00 → 02:30 on 2026-10-04).
        let lordHowe = try XCTUnwrap(TimeZone(identifier: "Australia/Lord_Howe"))
        let (time, note) = try XCTUnwrap(LocalDateTime.parseNotingClockChange("2026-10-04 02:10", timeZone: lordHowe))
        XCTAssertEqual(time.description, "2026-10-04T02:40:00+11:00")
        XCTAssertTrue(note?.description.contains("forward 30 minutes") ?? false, note?.description ?? "no note")
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        XCTAssertNil(LocalDateTime.parseNotingClockChange("2026-03-29 02:30", timeZone: utc)?.note)
        // A time with an offset is what it says, whatever the zone.
        XCTAssertNil(LocalDateTime.parseNotingClockChange("2026-03-29T02:30:00+01:00", timeZone: vienna)?.note)
    }

    func testNewDateExpressionsReportTheChange() throws {
        let clock = Clock(now: Date(timeIntervalSince1970: 1_790_000_000), timeZone: vienna)
        let (time, note) = try DateExpression.momentNotingClockChange("2026-03-29 02:30", clock: clock)
        XCTAssertEqual(time.description, "2026-03-29T03:30:00+02:00")
        XCTAssertEqual(note?.kind, .skipped)
        XCTAssertEqual(try DateExpression.momentNotingClockChange("2026-10-25 02:30", clock: clock).note?.kind, .repeated)
    }
}
