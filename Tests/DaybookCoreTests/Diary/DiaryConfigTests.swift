// daybook.yml: every key optional, unknown keys refused with their line.
import XCTest
@testable import DaybookCore

final class DiaryConfigTests: XCTestCase {
    func testAllKeys() throws {
        let c = try DiaryConfig.parse("name: PhD\ntimezone: America/New_York\nweek_start: sunday\nmood: {min: 0, max: 10}\nstreak: {goal: [mon, wed, fri]}\ncoder: mp\ncodebook: {strict: true}\n", path: "daybook.yml")
        XCTAssertEqual(c.name, "PhD")
        XCTAssertEqual(c.timeZone.identifier, "America/New_York")
        XCTAssertFalse(c.weekStartsOnMonday)
        XCTAssertEqual(c.moodMax, 10)
        XCTAssertEqual(c.goal, .days([2, 4, 6]))
        XCTAssertEqual(c.coder, "mp")
        XCTAssertTrue(c.strictCodebook)
    }

    func testUnknownKeysAndBadValuesNameTheLine() {
        func err(_ s: String) -> DaybookError? {
            do { _ = try DiaryConfig.parse(s, path: "daybook.yml"); return nil } catch { return error as? DaybookError }
        }
        let typo = err("name: x\nstreek: {goal: daily}\n")
        XCTAssertEqual(typo?.location?.line, 2)
        XCTAssertTrue(typo?.message.contains("streak") == true)
        XCTAssertEqual(err("timezone: Mars/Olympus\n")?.location?.line, 1)
        XCTAssertEqual(err("mood: {min: 5, max: 1}\n")?.kind, .input)
        XCTAssertEqual(err("streak: {goal: sometimes}\n")?.location?.line, 1)
        XCTAssertEqual(err("codebook: {strict: maybe}\n")?.location?.line, 1)
        XCTAssertEqual(err("mood: {low: 1}\n")?.location?.line, 1)
        XCTAssertEqual(err("name: [unclosed\n")?.kind, .input)
    }

    func testGoals() {
        XCTAssertEqual(WritingGoal(parsing: "weekdays"), .weekdays)
        XCTAssertTrue(WritingGoal.weekdays.requires(weekday: 2))
        XCTAssertFalse(WritingGoal.weekdays.requires(weekday: 1))
        XCTAssertNil(WritingGoal(parsing: "mon,funday"))
    }
}
