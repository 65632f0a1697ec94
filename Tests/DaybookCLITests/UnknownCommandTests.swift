// A mistyped command gets "did you mean" and exit 2, as a mistyped option does (issue 13 item 6).
import XCTest

final class UnknownCommandTests: CLITestCase {
    func testAMistypedCommandGetsTheClosestNames() throws {
        let cases: [([String], String)] = [
            (["stast"], "daybook: error: `stast` is not a `daybook` command; did you mean `star` or `stats`? (see `daybook --help`)"),
            (["sow", "last"], "daybook: error: `sow` is not a `daybook` command; did you mean `show`?"),
            (["code", "ad", "x"], "daybook: error: `ad` is not a `daybook code` command; did you mean `add`?"),
            (["--diary", diary.path, "exprot", "html"], "`exprot` is not a `daybook` command; did you mean `export`?"),
        ]
        for (args, expected) in cases {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, args.joined(separator: " "))
            XCTAssertTrue(r.err.contains(expected), r.err)
        }
    }

    func testNothingCloseNamesNoCommandAndOtherErrorsAreUnchanged() throws {
        let r = try run(["frobnicate"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.err, "daybook: error: `frobnicate` is not a `daybook` command (see `daybook --help`)\n")
        // An unknown option still gets the parser's own hint, and a word after a command that
        // takes arguments is not a command.
        XCTAssertTrue(try run(["ls", "--revers"]).err.contains("Did you mean '--reverse'?"))
        XCTAssertFalse(try run(["show", "sow"]).err.contains("not a `daybook"))
    }
}
