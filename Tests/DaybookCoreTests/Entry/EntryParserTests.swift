// Reading entry files: known keys, titles, and every refusal with its position.
import XCTest
@testable import DaybookCore

final class EntryParserTests: XCTestCase {
    let parser = EntryParser(config: DiaryConfig(timeZone: TimeZone(identifier: "Europe/Vienna")!))

    func parse(_ text: String) -> EntryParser.Outcome {
        parser.parse(Data(text.utf8), relativePath: "entries/2026/11/2026-11-21-1030-x.md", displayPath: "x.md")
    }

    func testKnownKeysAndFields() throws {
        let o = parse("---\ntitle: T\ndate: 2026-11-21T22:40:00+01:00\ntags: [Field, b/c]\nmood: 2\ntemplate: memo\nlocation: {name: Ward, lat: 48.2}\nenergy: 7\ncodes:\n  - trust\n  - code: frustration\n    quote: \"the login\"\n    memo: m\n---\nbody #inline\n")
        let e = try XCTUnwrap(o.entry, "\(o.problems)")
        XCTAssertEqual(e.id, "2026-11-21-1030-x")
        XCTAssertEqual(e.date.description, "2026-11-21T22:40:00+01:00")
        XCTAssertEqual(e.tags, ["field", "b/c", "inline"])
        XCTAssertEqual(e.mood, 2)
        XCTAssertEqual(e.template, "memo")
        XCTAssertEqual(e.fields.map(\.0), ["location", "energy"])
        XCTAssertEqual(e.field("energy"), .int(7))
        XCTAssertEqual(e.codings.map(\.code), ["trust", "frustration"])
        XCTAssertEqual(e.codings[1].quote, "the login")
        XCTAssertEqual(e.bodyStartLine, 15)
    }

    func testTitleFallsBackToHeadingThenFirstLine() throws {
        XCTAssertEqual(parse("---\ndate: 2026-11-02\n---\n\n# Morning pages\n\nText.\n").entry?.title, "Morning pages")
        XCTAssertEqual(parse("---\ndate: 2026-11-02\n---\nJust a line of prose.\nMore.\n").entry?.title, "Just a line of prose.")
        let long = String(repeating: "word ", count: 40)
        XCTAssertEqual(parse("---\ndate: 2026-11-02\n---\n\(long)\n").entry?.title.count, 80)
    }

    func testFirstLineLeavesMarkersAndBlanksOut() {
        XCTAssertEqual(EntryParser.firstLine(of: "\n  \n## * - Hello there \t\nnext\n"), "Hello there")
        XCTAssertEqual(EntryParser.firstLine(of: "***\n> - > text *in* it\n"), "text *in* it")
        XCTAssertEqual(EntryParser.firstLine(of: "-\u{2003}-\u{2003}é\n"), "é")  // an em space is a blank
        XCTAssertEqual(EntryParser.firstLine(of: "x-*#\n"), "x-*#")  // markers only at the start
        XCTAssertEqual(EntryParser.firstLine(of: "- - -\n***\n   \n"), "")
        // A line of 100,000 stars (a thematic break) is passed over as a whole; the next line is the title.
        XCTAssertEqual(EntryParser.firstLine(of: String(repeating: "*", count: 100_000) + "\n" + String(repeating: "- ", count: 50_000) + "x\n"), "x")
    }

    func testDateFormsOnInput() throws {
        XCTAssertEqual(parse("---\ndate: 2026-07-01 09:30\n---\nx\n").entry?.date.description, "2026-07-01T09:30:00+02:00")
        XCTAssertEqual(parse("---\ndate: 2026-01-01\n---\nx\n").entry?.date.description, "2026-01-01T00:00:00+01:00")
        XCTAssertEqual(parse("---\ndate: 2026-01-01T10:00:00Z\n---\nx\n").entry?.date.description, "2026-01-01T10:00:00+00:00")
    }

    func testRefusalsNameTheLine() {
        func firstProblem(_ text: String) -> DaybookError? { parse(text).problems.first }
        XCTAssertEqual(firstProblem("---\ntitle: x\n---\nbody\n")?.message.contains("date"), true)
        let mood = firstProblem("---\ndate: 2026-11-08\nmood: 9\n---\nbody\n")
        XCTAssertEqual(mood?.location?.line, 3)
        XCTAssertEqual(mood?.message.contains("mood"), true)
        XCTAssertEqual(firstProblem("---\ndate: 2026-11-08\nmood: high\n---\nb\n")?.location?.line, 3)
        XCTAssertEqual(firstProblem("---\ndate: tomorrow\n---\nb\n")?.location?.line, 2)
        XCTAssertEqual(firstProblem("---\ndate: 2026-11-08\ntags: [ok, 'not a tag']\n---\nb\n")?.location?.line, 3)
        XCTAssertEqual(firstProblem("---\ndate: 2026-11-08\ntags: [unclosed\n---\nb\n")?.location?.line, 3) // where `[` opens (issue 39)
        XCTAssertEqual(firstProblem("---\n- a list\n---\nb\n")?.message.contains("mapping"), true)
        XCTAssertNotNil(firstProblem("---\ndate: 2026-11-08\ndate: 2026-11-09\n---\nb\n"))
    }

    func testNonUTF8IsNamedWithItsPosition() {
        var bytes = Data("---\ndate: 2026-11-09T10:00:00+01:00\n---\nGr".utf8)
        bytes.append(contentsOf: [0xFC, 0xDF, 0x65, 0x0A])
        let o = parser.parse(bytes, relativePath: "entries/2026/11/a.md", displayPath: "a.md")
        XCTAssertNil(o.entry)
        XCTAssertEqual(o.problems.first?.location?.line, 4)
        XCTAssertEqual(o.problems.first?.location?.column, 3)
    }

    func testGarbageNeverCrashes() {
        var rng = SeededGenerator(seed: 7)
        let alphabet = Array("---\n:#[]{}'\"- \tabc12\r|>&*!%@`\u{FEFF}é")
        for _ in 0..<500 {
            let n = Int(rng.next() % 80)
            let text = "---\n" + String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }) + "\n---\nbody\n"
            let o = parse(text)
            XCTAssertTrue(o.entry != nil || !o.problems.isEmpty)
        }
    }

    /// A 200 KB value quoted in a message gives a line, not a page (found by the fuzz run of issue 20).
    func testALongBadValueIsClippedInItsMessage() {
        let long = String(repeating: "x", count: 200_000)
        let out = parser.parse(Data("---\ndate: \(long)\ntags: [\"\(long)!\"]\n---\nBody\n".utf8), relativePath: "entries/2026/11/x.md", displayPath: "x.md")
        XCTAssertNil(out.entry)
        XCTAssertEqual(out.problems.count, 2)
        for p in out.problems {
            XCTAssertLessThan(p.message.count, 300, String(p.message.prefix(300)))
            XCTAssertTrue(p.message.contains("(20000"), p.message)
            XCTAssertNotNil(p.location?.line)
        }
    }
}

