// End-to-end: code add/rm/ls/define/rename/merge/stats/check, and every refusal.
import XCTest

final class CodeCommandTests: CLITestCase {
    let body = "The nurse showed me the tablet. The login failed again.\n\nShe wrote 👩‍⚕️ it on paper. The login failed again.\n"

    func testAddAppendsOnlyTheCodingLines() throws {
        try initDiary()
        let p = try newEntry("Night", "-m", body)
        let before = try read(p)
        try ok("code", "add", "last", "Frustration", "--quote", "The login failed again", "--occurrence", "2", "--memo", "again: twice")
        let after = try read(p)
        XCTAssertEqual(after, before.replacingOccurrences(of: "---\nThe nurse", with: """
        codes:
          - code: frustration
            quote: "The login failed again"
            occurrence: 2
            memo: "again: twice"
            coder: Test Writer
            coded: 2026-11-21T12:00:00+01:00
        ---
        The nurse
        """))
        try ok("code", "add", "last", "workaround", "--lines", "3-3", "--coder", "ann")
        let rows = try JSONSerialization.jsonObject(with: Data(try ok("code", "ls", "--json").out.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["start"] as? Int, 85, "scalar offset of the second occurrence, after a 4-scalar emoji")
        XCTAssertEqual(rows[1]["quote"] as? String, "She wrote 👩‍⚕️ it on paper. The login failed again.")
        // Codes added while coding get colours of their own (issue 41), the palette's first two.
        XCTAssertEqual(try read(diary.appendingPathComponent("codebook.yml")),
                       "codes:\n  frustration:\n    color: \"#0969da\"\n  workaround:\n    color: \"#d1242f\"\n")
        let csv = try ok("code", "ls", "workaround", "--csv").out
        XCTAssertEqual(csv, "entry,date,title,code,quote,memo,coder\r\n2026-11-21-1200-night,2026-11-21T12:00:00+01:00,Night,workaround,She wrote 👩‍⚕️ it on paper. The login failed again.,,ann\r\n")
    }

    func testRefusalsLeaveTheFileAndHistoryAlone() throws {
        try initDiary()
        let p = try newEntry("Night", "-m", body)
        let before = try read(p)
        let commits = try commitCount()
        let refused: [[String]] = [
            ["code", "add", "last", "x", "--quote", "not in the body"],
            ["code", "add", "last", "x", "--quote", "the login failed again"],
            ["code", "add", "last", "x", "--quote", "The login failed again", "--occurrence", "3"],
            ["code", "add", "last", "x", "--lines", "2-2"],
            ["code", "add", "last", "x", "--lines", "4-9"],
            ["code", "add", "last", "x", "--lines", "3-1"],
            ["code", "add", "last", "x", "--quote", "a", "--lines", "1-1"],
            ["code", "add", "last", "x", "--occurrence", "2"],
            ["code", "add", "last", "bad code"],
            ["code", "define", "x", "--color", "red"],
            ["code", "define", "x", "--parent", "x"],
        ]
        for args in refused {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("error"), r.err)
        }
        XCTAssertTrue(try run(refused[1]).err.contains("other upper/lower case"))
        XCTAssertEqual(try read(p), before)
        XCTAssertEqual(try commitCount(), commits)
        XCTAssertEqual(try run(["code", "rm", "last", "x"]).status, 1)
        try ok("code", "add", "last", "trust")
        XCTAssertEqual(try run(["code", "add", "last", "trust"]).status, 1, "the same coding twice")
    }

    /// Issue 13 item 5: a new memo on an existing coding was dropped with "nothing to change".
    func testMemoOnAnExistingCodingReplacesItAndSaysSo() throws {
        try initDiary()
        let p = try newEntry("Night", "-m", body)
        try ok("code", "add", "last", "frustration", "--quote", "The login failed again", "--memo", "second time")
        let commits = try commitCount()
        let r = try ok("code", "add", "last", "frustration", "--quote", "The login failed again", "--memo", "third time")
        XCTAssertTrue(r.err.contains("memo") && r.err.contains("second time"), "says what the memo was: \(r.err)")
        let text = try read(p)
        XCTAssertTrue(text.contains("    memo: third time\n"), text)
        XCTAssertFalse(text.contains("second time"), text)
        XCTAssertEqual(text.components(separatedBy: "- code: frustration").count, 2, "still one coding:\n\(text)")
        XCTAssertEqual(try commitCount(), commits + 1)
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .whitespacesAndNewlines),
                       "code memo: frustration on Night: \"The login failed again\"")
        let same = try run(["code", "add", "last", "frustration", "--quote", "The login failed again", "--memo", "third time"])
        XCTAssertEqual(same.status, 1, same.err)
        XCTAssertTrue(same.err.contains("third time"), "shows the memo it has: \(same.err)")
        XCTAssertEqual(try commitCount(), commits + 1)
    }

    /// Issue 13 item 11: a quote given with CRLF against an LF body was stored with `\r\n`.
    func testQuoteLineEndingsFollowTheBody() throws {
        try initDiary()
        let p = try newEntry("Night", "-m", "First line of it\nsecond line.\n")
        try ok("code", "add", "last", "trust", "--quote", "of it\r\nsecond")
        let text = try read(p)
        XCTAssertTrue(text.contains("    quote: \"of it\\nsecond\"\n"), text)
        let rows = try JSONSerialization.jsonObject(with: Data(try ok("code", "ls", "--json").out.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.first?["quote"] as? String, "of it\nsecond")
    }

    func testStrictCodebookSuggestsCloseNames() throws {
        try initDiary()
        try ok("code", "define", "frustration")
        try "name: strict\ncodebook: {strict: true}\n".write(to: diary.appendingPathComponent("daybook.yml"), atomically: true, encoding: .utf8)
        _ = try newEntry("Night", "-m", body)
        let r = try run(["code", "add", "last", "frustraton"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("did you mean: frustration?"), r.err)
        try ok("code", "add", "last", "frustration")
    }

    func testOrphansAndDuplicatesAreReportedNeverDropped() throws {
        try initDiary()
        let p = try newEntry("Night", "-m", body)
        try ok("code", "add", "last", "frustration", "--quote", "showed me the tablet")
        try ok("code", "add", "last", "trust")
        var text = try read(p)
        let trust = "  - code: trust\n    coder: Test Writer\n    coded: 2026-11-21T12:00:00+01:00\n"
        text = text.replacingOccurrences(of: trust, with: trust + trust)
        text = text.replacingOccurrences(of: "The nurse showed me the tablet.", with: "The nurse showed me nothing.")
        try text.write(to: p, atomically: true, encoding: .utf8)
        let r = try run(["code", "check"])
        XCTAssertEqual(r.status, 1)
        // On the coding's `quote:` line, the one to fix.
        XCTAssertTrue(r.out.contains(":6: warning: orphaned coding `frustration`"), r.out)
        XCTAssertTrue(r.out.contains(":12: warning: duplicate coding `trust`"), r.out)
        XCTAssertEqual(try run(["check"]).status, 1)
        try ok("code", "rm", "last", "trust")
        XCTAssertTrue(try read(p).contains("quote: \"showed me the tablet\""), "the orphan stays")
    }

    func testAPaleColourIsSaidOnceWhenDefinedAndItsHighlightsAreUnderlinedDarker() throws {
        try initDiary()
        let pale = try ok("code", "define", "pale", "--color", "#fff176")
        XCTAssertTrue(pale.err.contains("codebook.yml:2: warning: the colour #fff176 of `pale` has only 1.16 : 1 against white"), pale.err)
        XCTAssertTrue(try read(diary.appendingPathComponent("codebook.yml")).contains("color: \"#fff176\""), "the colour given is kept")
        XCTAssertFalse(try ok("code", "define", "dark", "--color", "#d1242f").err.contains("warning"))
        _ = try newEntry("One", "-m", body)
        try ok("code", "add", "last", "pale", "--quote", "showed me the tablet")
        // Shown without a word: the export says nothing more, and underlines in the darker shade.
        let site = diary.deletingLastPathComponent().appendingPathComponent("site")
        let export = try ok("export", "html", "-o", site.path)
        XCTAssertFalse(export.err.contains("1.16"), export.err)
        let page = try FileManager.default.subpathsOfDirectory(atPath: site.appendingPathComponent("entries").path)
            .filter { $0.hasSuffix(".html") }.map { try read(site.appendingPathComponent("entries/" + $0)) }.joined()
        XCTAssertTrue(page.contains("--code: #fff176; --code-line: #"), page)
    }

    func testRenameMergeAndCodebookInOneCommitEach() throws {
        try initDiary()
        try ok("code", "define", "emotions", "--description", "Feelings", "--color", "#8250df")
        try ok("code", "define", "annoyed", "--parent", "emotions")
        _ = try newEntry("One", "-m", body)
        try ok("code", "add", "last", "annoyed")
        try ok("code", "add", "last", "irritated")
        var n = try commitCount()
        try ok("code", "merge", "annoyed", "irritated", "--into", "frustration")
        XCTAssertEqual(try commitCount(), n + 1)
        XCTAssertEqual(try read(diary.appendingPathComponent("codebook.yml")),
                       "codes:\n  emotions:\n    description: Feelings\n    color: \"#8250df\"\n    codes:\n      frustration: {}\n")
        XCTAssertEqual(try ok("ls", "--code", "emotions", "--paths").out.split(separator: "\n").count, 1)
        n = try commitCount()
        try ok("code", "rename", "frustration", "annoyance")
        XCTAssertEqual(try commitCount(), n + 1)
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "code rename: frustration → annoyance (1 entry)")
        let book = try ok("code", "book", "--json").out
        XCTAssertTrue(book.contains("\"code\": \"annoyance\""), book)
        XCTAssertTrue(book.contains("\"undefined\": []"), book)
        XCTAssertEqual(try run(["code", "rename", "annoyance", "emotions"]).status, 2, "use merge")
    }

    func testStatsMatricesAndAgreementJSON() throws {
        try initDiary()
        for i in 0..<4 {
            _ = try newEntry("E\(i)", "-m", body)
            try ok("code", "add", "last", "trust", "--coder", "ann")
            if i < 2 { try ok("code", "add", "last", "trust", "--coder", "bob") }
            if i == 0 { try ok("code", "add", "last", "frustration", "--quote", "The nurse", "--coder", "ann") }
        }
        let co = try ok("code", "stats", "--cooccurrence", "--json").out
        XCTAssertTrue(co.contains("\"codes\": [\n    \"trust\",\n    \"frustration\"\n  ]"), co)
        XCTAssertTrue(co.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "").contains("\"matrix\":[[4,1],[1,1]]"), co)
        let ag = try JSONSerialization.jsonObject(with: Data(try ok("code", "stats", "--agreement", "ann", "bob", "--json").out.utf8)) as? [String: Any]
        let rows = ag?["codes"] as? [[String: Any]] ?? []
        let trust = rows.first { $0["code"] as? String == "trust" }
        XCTAssertEqual(trust?["agreement"] as? Double, 0.5)
        XCTAssertEqual(trust?["kappa"] as? Double, 0)
        XCTAssertEqual(try run(["code", "stats", "--agreement", "ann"]).status, 2)
    }
}
