// End-to-end: tag add/rm/ls/rename on a temporary diary; diffs hold only the intended lines.
import XCTest

final class TagCommandTests: CLITestCase {
    let handWritten = "---\r\n# kept comment\r\ndate: 2026-11-05T21:15:00+01:00\r\ntags:\r\n    - reading   # why\r\ntitle: 'Quoted: title'\r\n---\r\nInline #old and `#old` and [x](http://e.org/#old).\r\n"

    func testAddToABlockListIsOneAddedLineInItsEndingAndIndent() throws {
        try initDiary()
        let p = try write("entries/2026/11/2026-11-05-2115-hand.md", handWritten)
        try ok("tag", "add", "2026-11-05-2115-hand", "Fieldwork", "reading")
        XCTAssertEqual(try read(p), handWritten.replacingOccurrences(of: "# why\r\n", with: "# why\r\n    - fieldwork\r\n"))
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "tag: +fieldwork on Quoted: title")
        let diff = try git("show", "HEAD", "--format=", "--unified=0", "--", "entries")
        XCTAssertEqual(diff.split(separator: "\n").filter { $0.hasPrefix("+") || $0.hasPrefix("-") }.count, 3, diff)
    }

    func testBulkAddFromStdinIsOneCommitAndRmWarnsAboutInlineTags() throws {
        try initDiary()
        let a = try newEntry("A", "-m", "about #keep inline")
        let b = try newEntry("B", "-m", "x", "-t", "keep")
        let before = try commitCount()
        try ok("tag", "add", "-", "batch", input: a.path + "\n\n" + b.lastPathComponent.replacingOccurrences(of: ".md", with: "") + "\n")
        XCTAssertEqual(try commitCount(), before + 1)
        XCTAssertEqual(try git("log", "-1", "--format=%s").trimmingCharacters(in: .newlines), "tag: +batch on 2 entries")
        let again = try run(["tag", "add", "-", "batch"], input: a.path + "\n")
        XCTAssertEqual(again.status, 1, "nothing to change")
        _ = try write("entries/2026/11/extra.md", "---\ntags: [keep]\ndate: 2026-11-21T09:00:00+01:00\n---\n#keep too\n")
        _ = try write("entries/2026/11/broken.md", "---\ntags: [keep]\ndate: not a date\n---\nx\n")
        let r = try run(["tag", "rm", "-", "keep"], input: "\(a.path)\n\(b.path)\nentries/2026/11/extra.md\nentries/2026/11/broken.md\n")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("#keep is also written in the body"), r.err)
        XCTAssertTrue(r.err.contains("broken.md:3:7: warning: `date` must be"), r.err)
        XCTAssertTrue(try read(diary.appendingPathComponent("entries/2026/11/broken.md")).contains("tags: [keep]"))
        XCTAssertFalse(try read(b).contains("keep"))
        XCTAssertTrue(try read(a).contains("#keep inline"))
    }

    func testRefusals() throws {
        try initDiary()
        let p = try newEntry("A", "-m", "x")
        let before = try read(p)
        for args in [["tag", "add", "last", "two words"], ["tag", "add", "last", "/lead"], ["tag", "add", "nope", "x"],
                     ["tag", "rename", "a", "a"], ["tag", "rename", "bad tag", "x"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix("daybook: error:"), r.err)
        }
        XCTAssertEqual(try run(["tag", "rm", "last", "absent"]).status, 1)
        XCTAssertEqual(try run(["tag", "rename", "absent", "x"]).status, 1)
        XCTAssertEqual(try read(p), before)
    }

    func testRenameEverywhereDryRunAndOneCommit() throws {
        try initDiary()
        let p = try write("entries/2026/11/2026-11-05-2115-hand.md", handWritten.replacingOccurrences(of: "reading", with: "old/sub"))
        try ok("tag", "add", "2026-11-05-2115-hand", "x")
        let before = try read(p)
        let dry = try ok("tag", "rename", "old", "new", "--dry-run")
        XCTAssertTrue(dry.out.contains("front matter 1 inline"), dry.out)
        XCTAssertEqual(try read(p), before)
        let n = try commitCount()
        try ok("tag", "rename", "OLD", "new")
        XCTAssertEqual(try commitCount(), n + 1)
        XCTAssertEqual(try read(p), before.replacingOccurrences(of: "- old/sub", with: "- new/sub").replacingOccurrences(of: "Inline #old", with: "Inline #new"))
        let tags = try ok("tag", "ls", "--sort", "name").out
        XCTAssertEqual(tags, "1 #new\n1 #new/sub\n1 #x\n")
    }
}
