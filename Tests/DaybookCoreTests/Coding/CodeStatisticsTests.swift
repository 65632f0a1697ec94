// Code frequencies, co-occurrence by entry and by overlapping segment.
import XCTest
@testable import DaybookCore

final class CodeStatisticsTests: XCTestCase {
    let body = "The login failed again. She restarted it. Paper is safer.\n"

    var entries: [Entry] {
        [
            codedEntry("e1", [Coding(code: "frustration", quote: "The login failed again", coder: "ann"),
                              Coding(code: "workaround", quote: "She restarted it", coder: "bob"),
                              Coding(code: "trust", quote: "failed again. She", coder: "ann")], body: body),
            codedEntry("e2", [Coding(code: "trust", coder: "ann"), Coding(code: "workaround", quote: "Paper is safer", coder: "ann"),
                              Coding(code: "frustration", quote: "not in the body")], body: body),
            codedEntry("e3", [Coding(code: "trust")], body: body),
        ]
    }

    func testUses() {
        let uses = CodeStatistics.uses(entries)
        XCTAssertEqual(uses.map(\.code), ["trust", "frustration", "workaround"])
        XCTAssertEqual(uses.map(\.codings), [3, 2, 2])
        XCTAssertEqual(uses.map(\.entries), [3, 2, 2])
        XCTAssertEqual(uses.map(\.coders), [["ann"], ["ann"], ["bob", "ann"]])
    }

    func testCooccurrenceByEntry() {
        let codes = ["frustration", "trust", "workaround"]
        XCTAssertEqual(CodeStatistics.cooccurrence(entries, codes: codes), [
            [2, 2, 2],
            [2, 3, 2],
            [2, 2, 2],
        ])
    }

    /// e1: frustration [0,22) overlaps trust [10,27); trust overlaps workaround [24,40); frustration
    /// and workaround do not touch. e2: the whole-entry trust overlaps workaround; the orphaned
    /// frustration counts nowhere. e3: trust alone.
    func testCooccurrenceByOverlappingSegments() {
        let codes = ["frustration", "trust", "workaround"]
        XCTAssertEqual(CodeStatistics.overlap(entries, codes: codes), [
            [1, 1, 0],
            [1, 3, 2],
            [0, 2, 2],
        ])
    }
}
