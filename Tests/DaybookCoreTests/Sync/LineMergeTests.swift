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

    /// One side appended lines, the other appended the same and more (an editor that appended to
    /// the real file after a command had): both changes are in the longer side, no conflict.
    func testASideThatExtendsTheOthersInsertionIsTakenWhole() {
        let base = ["a\n"], theirs = ["a\n", "\n", "[file](x)\n"], ours = ["a\n", "\n", "[file](x)\n", "\n", "more\n"]
        XCTAssertEqual(LineMerge.merge(base: base, ours: ours, theirs: theirs), .init(lines: ours, conflicted: false))
        XCTAssertEqual(LineMerge.merge(base: base, ours: theirs, theirs: ours), .init(lines: ours, conflicted: false))
        // Insertions that differ stay a conflict.
        XCTAssertTrue(LineMerge.merge(base: base, ours: ["a\n", "mine\n"], theirs: ["a\n", "theirs\n"]).conflicted)
        // A deletion against a change is not an extension.
        XCTAssertTrue(LineMerge.merge(base: ["a\n", "b\n"], ours: ["a\n", "b2\n"], theirs: ["a\n"]).conflicted)
    }
}
