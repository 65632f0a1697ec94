// One entry's check as an editor's buffer gets it: one problem hides no other (issue 40).
import XCTest
@testable import DaybookCore

final class EntryCheckTests: DiaryTestCase {
    let rel = "entries/2026/11/2026-11-21-1200-night.md"

    func check(_ front: String) -> EntryCheck {
        EntryCheck("---\n\(front)codes:\n  - code: frustraton\n    quote: \"login failed\"\n---\nThe login failed again.\n",
                   rel: rel, diary: diary, codebook: Codebook())
    }

    func testABadMoodStillLetsTheCodingsBeCheckedAndPlaced() {
        let c = check("date: 2026-11-21T12:00:00+01:00\nmood: 9\n")
        XCTAssertNil(c.entry, "an entry with a problem is not a sound entry")
        XCTAssertTrue(c.problems.contains { $0.message.contains("mood 9 is off the scale") })
        XCTAssertTrue(c.problems.contains { $0.message.contains("`frustraton` is not in the codebook") }, "\(c.problems)")
        let usable = try? XCTUnwrap(c.usable)
        XCTAssertEqual(usable?.codings.map(\.code), ["frustraton"])
        XCTAssertEqual(usable?.anchor(0)?.start, 4, "the quote is placed in the body")
    }

    func testABadDateToo() {
        let c = check("date: 2026-13-45\n")
        XCTAssertTrue(c.problems.contains { $0.message.hasPrefix("`date` must be") })
        XCTAssertTrue(c.problems.contains { $0.message.contains("`frustraton` is not in the codebook") })
        XCTAssertNotNil(c.usable)
    }

    func testASoundEntryIsItsOwnUsableEntry() {
        let c = EntryCheck("---\ndate: 2026-11-21T12:00:00+01:00\n---\nBody\n", rel: rel, diary: diary, codebook: Codebook())
        XCTAssertNotNil(c.entry)
        XCTAssertEqual(c.usable?.title, c.entry?.title)
        XCTAssertEqual(c.problems.count, 0)
    }
}
