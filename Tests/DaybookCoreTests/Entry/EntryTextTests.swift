// Front matter edited in place: only the edited key's lines differ, on generated inputs too.
import XCTest
@testable import DaybookCore

final class EntryTextTests: XCTestCase {
    let handWritten = """
    ---
    # my own comment stays
    date: 2026-11-05T21:15:00+01:00
    title: 'Hand written: quoted title'
    people:   [Anna, Ben]
    tags: [reading]
    custom_field: "keep me exactly"
    ---
    Body with trailing spaces   \n
    """

    func testSetReplacesOnlyThatKeysLine() throws {
        var doc = try EntryText(handWritten, path: "x.md")
        doc.set(key: "tags", lines: ["tags: [reading, fieldwork]"])
        let before = handWritten.components(separatedBy: "\n"), after = doc.text.components(separatedBy: "\n")
        XCTAssertEqual(before.count, after.count)
        let changed = zip(before, after).filter { $0 != $1 }
        XCTAssertEqual(changed.count, 1)
        XCTAssertEqual(changed.first?.1, "tags: [reading, fieldwork]")
    }

    func testAbsentKeyIsAddedAsOneLineBeforeTheClosingFence() throws {
        var doc = try EntryText("---\ndate: 2026-11-06T08:00:00+01:00\n---\nBody.\n", path: "x.md")
        doc.set(key: "tags", lines: ["tags: [first]"])
        XCTAssertEqual(doc.text, "---\ndate: 2026-11-06T08:00:00+01:00\ntags: [first]\n---\nBody.\n")
    }

    func testBlockValuesAreOneSpan() throws {
        let text = "---\ndate: 2026-01-01\ntags:\n  - a\n  - b\n\nnotes: |\n  line one\n\n  line two\n# trailing comment\nmood: 3\n---\nbody\n"
        let doc = try EntryText(text, path: "x.md")
        XCTAssertEqual(doc.span(of: "tags"), 2..<5)
        XCTAssertEqual(doc.span(of: "notes"), 6..<10)
        XCTAssertEqual(doc.span(of: "mood"), 11..<12)
        XCTAssertNil(doc.span(of: "missing"))
        let unindented = try EntryText("---\ntags:\n- a\n- b\ndate: 2026-01-01\n---\n", path: "x.md")
        XCTAssertEqual(unindented.span(of: "tags"), 1..<4)
    }

    func testCRLFFileKeepsItsEndingsAndTheNewLineUsesThem() throws {
        let text = "---\r\ndate: 2026-11-06T08:00:00+01:00\r\ntags: [a]\r\n---\r\nBody.\r\n"
        var doc = try EntryText(text, path: "x.md")
        doc.set(key: "tags", lines: ["tags: [a, b]"])
        XCTAssertEqual(doc.text, "---\r\ndate: 2026-11-06T08:00:00+01:00\r\ntags: [a, b]\r\n---\r\nBody.\r\n")
        doc.set(key: "mood", lines: ["mood: 2"])
        XCTAssertTrue(doc.text.contains("mood: 2\r\n---\r\n"))
    }

    func testRemoveTakesOnlyTheKeysLines() throws {
        var doc = try EntryText("---\na: 1\ntags:\n  - x\nb: 2\n---\nbody\n", path: "x.md")
        doc.remove(key: "tags")
        XCTAssertEqual(doc.text, "---\na: 1\nb: 2\n---\nbody\n")
    }

    func testMissingFencesAreErrorsWithALine() {
        XCTAssertThrowsError(try EntryText("no front matter\n", path: "a.md")) { error in
            XCTAssertEqual((error as? DaybookError)?.location?.line, 1)
        }
        XCTAssertThrowsError(try EntryText("---\ndate: 2026-01-01\nbody\n", path: "a.md")) { error in
            XCTAssertEqual((error as? DaybookError)?.location?.line, 3)
        }
    }

    /// Generated front matters: many key orders, comments, quoting styles, blank lines and line
    /// endings. Setting one key must change exactly that key's lines and no other byte.
    func testGeneratedFrontMattersChangeOnlyTheEditedKey() throws {
        var rng = SeededGenerator(seed: 20261121)
        let pieces: [(String, [String])] = [
            ("date", ["date: 2026-11-05T21:15:00+01:00"]),
            ("title", ["title: 'Quoted: yes'", "title: \"Double \\\"q\\\"\"", "title: plain words"]),
            ("people", ["people:   [Anna, Ben]", "people:\n  - Anna\n  - Ben"]),
            ("tags", ["tags: [reading]", "tags:\n  - reading\n  - x", "tags: reading", "tags:\n- a\n- b"]),
            ("notes", ["notes: |\n  first\n\n  second", "notes: >-\n  folded\n  text"]),
            ("mood", ["mood: 3", "mood:    4   # fine"]),
            ("location", ["location: {name: Ward 3, lat: 48.2}", "location:\n  name: Ward 3\n  lat: 48.2"]),
        ]
        for _ in 0..<300 {
            let crlf = rng.next() % 4 == 0
            var keys = Array(pieces.dropFirst()).shuffled(using: &rng)
            keys.removeLast(Int(rng.next() % 3))
            keys.insert(pieces[0], at: Int(rng.next() % UInt64(keys.count + 1)))
            var fm: [String] = []
            for (_, variants) in keys {
                if rng.next() % 4 == 0 { fm.append("# a comment") }
                if rng.next() % 6 == 0 { fm.append("") }
                fm.append(variants[Int(rng.next() % UInt64(variants.count))])
            }
            let nl = crlf ? "\r\n" : "\n"
            let text = (["---"] + fm.joined(separator: "\n").components(separatedBy: "\n") + ["---", "Body  ", "", "end"])
                .joined(separator: nl) + nl
            let doc = try EntryText(text, path: "gen.md")
            let target = keys[Int(rng.next() % UInt64(keys.count))].0
            var edited = doc
            edited.set(key: target, lines: ["\(target): [edited]"])
            // Everything outside the target's span is byte-identical, in order.
            let span = doc.span(of: target)!
            let before = Array(doc.lines[..<span.lowerBound]) + Array(doc.lines[span.upperBound...])
            let afterSpan = edited.span(of: target)!
            XCTAssertEqual(afterSpan.count, 1)
            let after = Array(edited.lines[..<afterSpan.lowerBound]) + Array(edited.lines[afterSpan.upperBound...])
            XCTAssertEqual(before, after, "editing \(target) in:\n\(text)")
            XCTAssertEqual(edited.lines[afterSpan.lowerBound], "\(target): [edited]" + (doc.lines[span.lowerBound].hasSuffix("\r\n") ? "\r\n" : "\n"))
            // And the result still parses as YAML with the other keys intact.
            let parsed = EntryParser(config: DiaryConfig(timeZone: TimeZone(identifier: "Europe/Vienna")!))
                .parse(edited, relativePath: "entries/2026/11/gen.md", displayPath: "gen.md")
            if target != "date" && target != "tags" && target != "mood" && target != "title" {
                XCTAssertNotNil(parsed.entry, "\(parsed.problems) in:\n\(edited.text)")
            }
        }
    }
}

/// A small deterministic generator so generated tests repeat exactly.
typealias SeededGenerator = SplitMix64

extension EntryTextTests {
    // MARK: appendParagraph (`daybook append`): only bytes after the end of the file are added.

    func testAppendedParagraphOnlyAddsBytesAtTheEnd() throws {
        for (before, added) in [
            ("---\ndate: 2026-01-01\n---\nBody.\n", "\n**09:00** note\n"),     // a blank line before it
            ("---\ndate: 2026-01-01\n---\nBody.", "\n\n**09:00** note\n"),     // the last line gets its ending
            ("---\ndate: 2026-01-01\n---\nBody.\n\n", "**09:00** note\n"),     // a blank line is there already
            ("---\ndate: 2026-01-01\n---\n", "**09:00** note\n"),                // an empty body: no blank line
            ("---\ndate: 2026-01-01\n---", "\n**09:00** note\n"),                // not even the fence's ending
        ] {
            var doc = try EntryText(before, path: "x.md")
            doc.appendParagraph(["**09:00** note"])
            XCTAssertEqual(doc.text, before + added, before.debugDescription)
        }
    }

    func testAppendedParagraphTakesTheFilesLineEnding() throws {
        var doc = try EntryText("---\r\ndate: 2026-01-01\r\n---\r\nBody.\r\n", path: "x.md")
        doc.appendParagraph(["**09:00** one", "two"])
        XCTAssertEqual(doc.text, "---\r\ndate: 2026-01-01\r\n---\r\nBody.\r\n\r\n**09:00** one\r\ntwo\r\n")
    }

    func testAppendParagraphIsStampedAndTrimmedAndRefusesEmptyText() throws {
        let time = try XCTUnwrap(LocalDateTime.parse("2026-11-21T09:05:00+01:00", timeZone: TimeZone(identifier: "Europe/Vienna")!))
        XCTAssertEqual(try EntryAppend.paragraph("\n  - bought milk\r\nand bread  \n\n", at: time), ["**09:05** - bought milk", "and bread"])
        XCTAssertThrowsError(try EntryAppend.paragraph(" \n\t", at: time)) { XCTAssertEqual(($0 as? DaybookError)?.kind, .nothing) }
    }
}
