// Tag line edits on generated entry texts: only the `tags:` lines may change, in their own style.
import XCTest
@testable import DaybookCore

final class TagLinesTests: XCTestCase {
    /// `tags:` values in the styles people write, with the tags each holds.
    let styles: [(lines: [String], tags: [String])] = [
        ([], []),
        (["tags: [reading]"], ["reading"]),
        (["tags: ['Reading', \"two_words-x\", three]  # trailing comment"], ["reading", "two_words-x", "three"]),
        (["tags: []"], []),
        (["tags: [ ]"], []),
        (["tags:", "  - reading", "  - 'quoted'"], ["reading", "quoted"]),
        (["tags:", "- reading", "- other # why"], ["reading", "other"]),
        (["tags:", "    # a comment inside", "    - reading"], ["reading"]),
        (["tags: reading"], ["reading"]),
        (["tags:"], []),
        (["tags: [a,", "  b]"], ["a", "b"]),
    ]
    let others: [[String]] = [
        ["date: 2026-11-05T21:15:00+01:00", "title: 'Hand: written'"],
        ["# comment first", "title: \"Quoted\"", "people:   [Anna, Ben]", "date: 2026-11-05T21:15:00+01:00"],
        ["date: 2026-11-05T21:15:00+01:00", "location: {name: ward 3, lat: 48.2}", "mood: 3"],
    ]

    /// Every combination of a style, other keys around it (before, after, split) and line endings.
    func generated() -> [(text: String, tags: [String], style: Int)] {
        var out: [(String, [String], Int)] = []
        for (n, style) in styles.enumerated() {
            for keys in others {
                for split in 0...keys.count {
                    for ending in ["\n", "\r\n"] {
                        let fm = Array(keys[..<split]) + style.lines + Array(keys[split...])
                        let text = (["---"] + fm + ["---", "Body with #inline and trailing spaces   ", "", "```", "#code", "```"])
                            .map { $0 + ending }.joined()
                        out.append((text, style.tags, n))
                    }
                }
            }
        }
        return out
    }

    func frontTags(_ text: String) throws -> [String] {
        let doc = try EntryText(text, path: "t.md")
        let outcome = EntryParser(config: DiaryConfig()).parse(doc, relativePath: "entries/2026/11/t.md", displayPath: "t.md")
        guard let e = outcome.entry else { XCTFail("\(outcome.problems)\n\(text)"); return [] }
        return e.frontTags
    }

    /// The lines of `a` and `b` that differ, as (removed, added), by a plain line diff.
    func changed(_ a: String, _ b: String) -> (removed: [String], added: [String]) {
        let x = EntryText.splitLines(a), y = EntryText.splitLines(b)
        var p = 0
        while p < x.count, p < y.count, x[p] == y[p] { p += 1 }
        var s = 0
        while s < x.count - p, s < y.count - p, x[x.count - 1 - s] == y[y.count - 1 - s] { s += 1 }
        return (Array(x[p..<(x.count - s)]), Array(y[p..<(y.count - s)]))
    }

    func testAddChangesOnlyTagLinesInTheirStyle() throws {
        for (text, tags, style) in generated() {
            XCTAssertEqual(try frontTags(text), tags, text)
            var lines = TagLines(try EntryText(text, path: "t.md"))
            XCTAssertEqual(lines.add(["fieldwork", tags.first ?? "fieldwork"]), ["fieldwork"])
            let after = lines.text.text
            XCTAssertEqual(try frontTags(after), tags + ["fieldwork"], after)
            let (removed, added) = changed(text, after)
            XCTAssertTrue((removed + added).allSatisfy { $0.hasPrefix("tags:") || $0.contains("- ") || $0.hasPrefix("  b]") }, after)
            let ending = text.hasSuffix("\r\n") ? "\r\n" : "\n"
            XCTAssertTrue(added.allSatisfy { $0.hasSuffix(ending) && !$0.dropLast(ending.count).contains("\r") }, "\(added)")
            switch style {
            case 0: XCTAssertEqual(removed.count, 0); XCTAssertEqual(added, ["tags: [fieldwork]" + ending])
            case 1...4, 8, 9: XCTAssertEqual(removed.count, 1); XCTAssertEqual(added.count, 1)
            case 5: XCTAssertEqual(added, ["  - fieldwork" + ending]); XCTAssertEqual(removed, [])
            case 6: XCTAssertEqual(added, ["- fieldwork" + ending]); XCTAssertEqual(removed, [])
            case 7: XCTAssertEqual(added, ["    - fieldwork" + ending]); XCTAssertEqual(removed, [])
            default: XCTAssertEqual(added.count, 1)
            }
            if style == 2 {
                XCTAssertEqual(added.first, "tags: ['Reading', \"two_words-x\", three, fieldwork]  # trailing comment" + ending, "other items keep their quoting")
            }
        }
    }

    func testRemoveAndRenameChangeOnlyTagLines() throws {
        for (text, tags, _) in generated() where !tags.isEmpty {
            var lines = TagLines(try EntryText(text, path: "t.md"))
            XCTAssertEqual(lines.remove([tags[0], "absent"]), [tags[0]])
            XCTAssertEqual(try frontTags(lines.text.text), Array(tags.dropFirst()), lines.text.text)
            let (removed, added) = changed(text, lines.text.text)
            // Emptying a block list also takes the comment inside it.
            XCTAssertTrue((removed + added).allSatisfy { $0.hasPrefix("tags:") || $0.contains("- ") || $0.hasPrefix("  b]") || $0.contains("# a comment inside") }, lines.text.text)

            var renamed = TagLines(try EntryText(text, path: "t.md"))
            XCTAssertTrue(renamed.rename(tags[0], to: "new/name"))
            XCTAssertEqual(try frontTags(renamed.text.text), ["new/name"] + tags.dropFirst(), renamed.text.text)
            XCTAssertFalse(renamed.rename("absent", to: "x"))
        }
    }

    func testRenameFollowsNestingAndDropsRepeats() throws {
        var lines = TagLines(try EntryText("---\ntags:\n  - project/alpha\n  - project\n  - done\n---\n", path: "t.md"))
        XCTAssertTrue(lines.rename("project", to: "done"))
        XCTAssertEqual(lines.text.text, "---\ntags:\n  - done/alpha\n  - done\n---\n")
        XCTAssertEqual(lines.remove(["done"]), ["done"])
        XCTAssertEqual(lines.text.text, "---\ntags:\n  - done/alpha\n---\n", "removing `done` keeps `done/alpha`")
        XCTAssertEqual(lines.remove(["done/alpha"]), ["done/alpha"])
        XCTAssertEqual(lines.text.text, "---\ntags: []\n---\n")
    }
}
