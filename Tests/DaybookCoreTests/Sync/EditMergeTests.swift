// An edit made from an older version of an entry keeps what the file changed since, or says what it would lose.
import XCTest
@testable import DaybookCore

final class EditMergeTests: XCTestCase {
    let base = "---\ntitle: Night\ndate: 2026-11-21T12:00:00+01:00\ntags: [ward]\n---\nThe login failed.\n"

    func testATagAddedOnDiskIsKeptBesideTheEditorsBodyChange() throws {
        let disk = base.replacingOccurrences(of: "tags: [ward]", with: "tags: [ward, fromcli]")
        let edited = base + "She restarted it.\n"
        let (text, kept) = try EditMerge.keep(disk, base: base, edited: edited, path: "e.md")
        XCTAssertEqual(text, disk + "She restarted it.\n")
        XCTAssertEqual(kept, ["`tags`"])
    }

    func testNothingChangedOnDiskLeavesTheEditAsItIs() throws {
        let edited = base + "More.\n"
        XCTAssertEqual(try EditMerge.keep(base, base: base, edited: edited, path: "e.md").text, edited)
        XCTAssertEqual(try EditMerge.keep(edited, base: base, edited: edited, path: "e.md").kept, [])
    }

    func testTheSameLinesChangedOnBothSidesAreRefusedNamingTheFileAndWhatWouldBeLost() {
        let disk = base + "Appended on disk.\n"
        let edited = base + "Typed in the editor.\n"
        XCTAssertThrowsError(try EditMerge.keep(disk, base: base, edited: edited, path: "entries/2026/11/e.md")) { error in
            let e = error as? DaybookError
            XCTAssertEqual(e?.location?.path, "entries/2026/11/e.md")
            XCTAssertTrue(e?.message.contains("the body") == true, e?.message ?? "")
            XCTAssertTrue(e?.message.contains("saving would lose") == true, e?.message ?? "")
        }
    }

    func testAKeyChangedDifferentlyOnBothSidesIsRefused() {
        let disk = base.replacingOccurrences(of: "title: Night", with: "title: Night shift")
        let edited = base.replacingOccurrences(of: "title: Night", with: "title: Late night")
        XCTAssertThrowsError(try EditMerge.keep(disk, base: base, edited: edited, path: "e.md")) { error in
            XCTAssertTrue((error as? DaybookError)?.message.contains("`title`") == true)
        }
    }
}
