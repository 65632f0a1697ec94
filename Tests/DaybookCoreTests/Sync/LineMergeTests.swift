// The line-based three-way merge of entry bodies.
import XCTest
@testable import DaybookCore

final class LineMergeTests: XCTestCase {
    func lines(_ s: String) -> [String] { EntryText.splitLines(s) }

    func merge(_ b: String, _ o: String, _ t: String) -> (String, Bool) {
        let r = LineMerge.merge(base: lines(b), ours: lines(o), theirs: lines(t))
        return (r.lines.joined(), r.conflicted)
    }

    func testChangesToDifferentRegionsBothApply() {
        let base = "one\ntwo\nthree\nfour\nfive\n"
        let (text, conflicted) = merge(base, "ONE\ntwo\nthree\nfour\nfive\n", "one\ntwo\nthree\nfour\nFIVE\nsix\n")
        XCTAssertEqual(text, "ONE\ntwo\nthree\nfour\nFIVE\nsix\n")
        XCTAssertFalse(conflicted)
    }

    func testOneSideUnchangedTakesTheOther() {
        XCTAssertEqual(merge("a\nb\n", "a\nb\n", "a\nc\nb\n").0, "a\nc\nb\n")
        XCTAssertEqual(merge("a\nb\n", "b\n", "a\nb\n").0, "b\n")
    }

    func testTheSameChangeOnBothSidesIsNoConflict() {
        let (text, conflicted) = merge("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n")
        XCTAssertEqual(text, "a\nB\nc\n")
        XCTAssertFalse(conflicted)
    }

    func testTheSameLinesChangedDifferentlyKeepOursAndReportIt() {
        let (text, conflicted) = merge("line one\nline two\n", "line one\nline two B\n", "line one\nline two A\n")
        XCTAssertEqual(text, "line one\nline two B\n")
        XCTAssertTrue(conflicted)
        XCTAssertFalse(text.contains("<<<<<<<"))
    }

    func testBothAppendingAtTheEndConflicts() {
        XCTAssertTrue(merge("a\n", "a\nb\n", "a\nc\n").1)
    }

    func testInsertionsOnBothSidesOfAKeptLine() {
        let (text, conflicted) = merge("a\nb\nc\n", "x\na\nb\nc\n", "a\nb\nc\ny\n")
        XCTAssertEqual(text, "x\na\nb\nc\ny\n")
        XCTAssertFalse(conflicted)
    }

    func testEmptyBase() {
        XCTAssertEqual(merge("", "", "new\n").0, "new\n")
        XCTAssertTrue(merge("", "a\n", "b\n").1)
    }
}
