// What the web app's pages take from the HTML export: highlights that name their coding, a calendar with a text alternative.
import XCTest
@testable import DaybookCore

final class HTMLEntryViewTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(folders: ["entries/2026/11"]) }

    func testEachHighlightNamesItsPlaceInCodesEvenPastAnOrphanedQuote() throws {
        try """
        ---
        date: 2026-11-20T09:00:00+01:00
        title: Ward
        codes:
          - code: a
            quote: "nurse"
          - code: b
            quote: "no longer in the text"
          - code: c
            quote: "tablet"
          - code: c
            quote: "tablet"
            occurrence: 2
        ---
        The nurse showed me the tablet, then another tablet.

        """.write(to: fixture.url("entries/2026/11/2026-11-20-0900-ward.md"), atomically: true, encoding: .utf8)
        let diary = try fixture.open()
        let entry = try XCTUnwrap(diary.readEntry("entries/2026/11/2026-11-20-0900-ward.md").entry)
        let html = HTMLEntryView(diary: diary, unsafeHTML: false).article(entry)
        XCTAssertTrue(html.contains("data-coding=\"0\" title=\"a\">nurse</mark>"), html)
        XCTAssertFalse(html.contains("data-coding=\"1\""), "the orphaned quote has no highlight")
        XCTAssertTrue(html.contains("data-coding=\"2\" title=\"c\">tablet</mark>"), html)
        XCTAssertTrue(html.contains("data-coding=\"3\" title=\"c\">tablet</mark>"), "an equal coding further on gets its own place: \(html)")
    }

    func testTheCalendarIsHiddenFromScreenReadersAndSaidAsATableOfMonths() throws {
        let diary = try fixture.open()
        let days = [LocalDay(year: 2026, month: 11, day: 2), LocalDay(year: 2026, month: 11, day: 2), LocalDay(year: 2026, month: 11, day: 5),
                    LocalDay(year: 2026, month: 3, day: 1)].compactMap { $0 }
        let html = HTMLEntryView(diary: diary, unsafeHTML: false).heatmap(days: days)
        XCTAssertTrue(html.contains("<svg aria-hidden=\"true\""), html)
        XCTAssertFalse(html.contains("role=\"img\""), html)
        XCTAssertTrue(html.contains("<tr><th scope=\"row\">November</th><td>3</td><td>2</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><th scope=\"row\">March</th><td>1</td><td>1</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><th scope=\"row\">April</th><td>0</td><td>0</td></tr>"), html)
    }
}
