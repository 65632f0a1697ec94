// Ids and slugs: folding, punctuation, length, empty titles.
import XCTest
@testable import DaybookCore

final class SlugTests: XCTestCase {
    func testFoldsDiacriticsAndPunctuation() {
        XCTAssertEqual(Slug.make("Über Café & Co: Nachtdienst!"), "uber-cafe-co-nachtdienst")
        XCTAssertEqual(Slug.make("Straße"), "strasse")
        XCTAssertEqual(Slug.make("  --Hello--  "), "hello")
    }

    func testCutsAtFortyCharactersWithoutTrailingDash() {
        let slug = Slug.make("a very long title that goes on and on - beyond forty characters")
        XCTAssertLessThanOrEqual(slug.count, 40)
        XCTAssertFalse(slug.hasSuffix("-"))
    }

    func testNoTitleNoSlug() {
        let d = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 10 * 3600 + 30 * 60, offset: 3600)
        XCTAssertEqual(Slug.id(date: d, title: nil), "2026-11-21-1030")
        XCTAssertEqual(Slug.id(date: d, title: "!!!"), "2026-11-21-1030")
        XCTAssertEqual(Slug.id(date: d, title: "Clinic visit"), "2026-11-21-1030-clinic-visit")
    }
}
