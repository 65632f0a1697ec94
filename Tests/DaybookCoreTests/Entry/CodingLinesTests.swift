// Coding edits in front matter: appending adds only the coding's lines, removal only removes them.
import XCTest
@testable import DaybookCore

final class CodingLinesTests: XCTestCase {
    let entry = """
    ---
    title: Clinic visit
    codes:
      - trust
      - code: frustration
        quote: "the login failed again"
        memo: third time this week
        coder: mp
    # a comment after the codes
    mood: 2
    ---
    The login failed again.

    """

    func testAppendAddsOnlyTheNewLines() throws {
        var lines = CodingLines(try EntryText(entry, path: "e.md"))
        lines.append(Coding(code: "relief", quote: "a \"quoted\" bit\nover lines", occurrence: 2, coder: "ann"))
        let expected = entry.replacingOccurrences(of: "    coder: mp\n", with: """
            coder: mp
          - code: relief
            quote: "a \\"quoted\\" bit\\nover lines"
            occurrence: 2
            coder: ann

        """)
        XCTAssertEqual(lines.text.text, expected)
        XCTAssertEqual(lines.codings.last, Coding(code: "relief", quote: "a \"quoted\" bit\nover lines", occurrence: 2, coder: "ann"))
        XCTAssertEqual(lines.located.map(\.line), [4, 5, 9])
    }

    func testCodedIsWrittenAsADateTimeAndReadBack() throws {
        var lines = CodingLines(try EntryText(entry, path: "e.md"))
        let t = try XCTUnwrap(LocalDateTime.parse("2026-11-21T10:30:00+01:00", timeZone: .gmt))
        lines.append(Coding(code: "relief", coder: "ann", coded: t))
        XCTAssertTrue(lines.text.text.contains("  - code: relief\n    coder: ann\n    coded: 2026-11-21T10:30:00+01:00\n"), lines.text.text)
        XCTAssertEqual(CodingLines(lines.text).codings.last?.coded, t)
        // Renaming one coding onto another that differs only in its time leaves one.
        lines.append(Coding(code: "calm", coder: "ann", coded: t))
        lines.update { $0.code == "calm" ? Coding(code: "relief", coder: "ann") : $0 }
        XCTAssertEqual(lines.codings.filter { $0.code == "relief" }.count, 1)
    }

    func testAppendWithoutCodesKeyAndInCRLF() throws {
        let crlf = "---\r\ndate: 2026-11-21T10:00:00+01:00\r\n---\r\nBody\r\n"
        var lines = CodingLines(try EntryText(crlf, path: "e.md"))
        lines.append(Coding(code: "trust"))
        XCTAssertEqual(lines.text.text, "---\r\ndate: 2026-11-21T10:00:00+01:00\r\ncodes:\r\n  - trust\r\n---\r\nBody\r\n")
    }

    func testFlowStyleIsRewrittenAsABlock() throws {
        var lines = CodingLines(try EntryText("---\ncodes: [trust, {code: x, quote: q}]\n---\nq\n", path: "e.md"))
        XCTAssertEqual(lines.codings.map(\.code), ["trust", "x"])
        lines.append(Coding(code: "y"))
        XCTAssertEqual(lines.text.text, "---\ncodes:\n  - trust\n  - code: x\n    quote: \"q\"\n  - \"y\"\n---\nq\n")
    }

    func testUpdateRemovesAndRenamesOnlyTheirChunks() throws {
        var lines = CodingLines(try EntryText(entry, path: "e.md"))
        XCTAssertEqual(lines.update { $0.code == "trust" ? nil : $0 }, 1)
        XCTAssertEqual(lines.text.text, entry.replacingOccurrences(of: "  - trust\n", with: ""))
        var renamed = CodingLines(try EntryText(entry, path: "e.md"))
        renamed.update { var c = $0; c.code = c.code == "frustration" ? "annoyance" : c.code; return c }
        XCTAssertEqual(renamed.text.text, entry.replacingOccurrences(of: "code: frustration", with: "code: annoyance"))
        var emptied = CodingLines(try EntryText(entry, path: "e.md"))
        emptied.update { _ in nil }
        XCTAssertEqual(emptied.text.text, entry.replacingOccurrences(of: "codes:\n  - trust\n  - code: frustration\n    quote: \"the login failed again\"\n    memo: third time this week\n    coder: mp\n", with: ""))
    }

    func testMergingIntoOneCodeKeepsOneOfEachCoding() throws {
        let text = "---\ncodes:\n  - annoyed\n  - irritated\n  - annoyed\n---\nx\n"
        var lines = CodingLines(try EntryText(text, path: "e.md"))
        lines.update { var c = $0; c.code = "frustration"; return c }
        XCTAssertEqual(lines.text.text, "---\ncodes:\n  - frustration\n---\nx\n")
        var untouched = CodingLines(try EntryText(text, path: "e.md"))
        XCTAssertEqual(untouched.update { $0.code == "irritated" ? nil : $0 }, 1, "an existing duplicate is not removed unasked")
        XCTAssertEqual(untouched.text.text, "---\ncodes:\n  - annoyed\n  - annoyed\n---\nx\n")
    }
}
