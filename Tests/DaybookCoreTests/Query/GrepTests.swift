// grep's per-file search: searched lines, title values, front matter, line endings, context.
import XCTest
@testable import DaybookCore

final class GrepTests: XCTestCase {
    let file = "---\ntitle: Login trouble\ndate: 2026-11-21T10:00:00+01:00\nmood: 3\n---\nfirst line\nthe login failed\nthird\nfourth\nfifth login\n"

    func search(_ pattern: String, _ text: String? = nil, configure: (inout GrepOptions) -> Void = { _ in }) throws -> [GrepLine] {
        var options = GrepOptions()
        configure(&options)
        return try Grep(pattern, options: options).search(EntryText(text ?? file, path: "x.md"))
    }

    func testFindsLinesWithFileLineNumbersAndByteColumns() throws {
        let hits = try search("login")
        XCTAssertEqual(hits.map(\.number), [7, 10])
        XCTAssertEqual(hits.map(\.column), [5, 7])
        XCTAssertEqual(hits[0].text, "the login failed")
        XCTAssertEqual(hits[0].matches, [4..<9])
    }

    func testTitleValueIsSearchedButNotTheKeyOrOtherFrontMatter() throws {
        let hits = try search("^Login", configure: { $0.ignoreCase = true })
        XCTAssertEqual(hits.map(\.number), [2])
        XCTAssertEqual(hits[0].column, 8)
        XCTAssertEqual(try search("title"), [])
        XCTAssertEqual(try search("mood"), [])
        XCTAssertEqual(try search("mood", configure: { $0.frontMatter = true }).map(\.number), [4])
    }

    func testLinesKeepTheirBytesButNotTheirEnding() throws {
        let crlf = "---\r\ndate: 2026-11-21\r\n---\r\nGrüße aus Wien\r\nnoch mehr\r\n"
        let hits = try search("Wien$", crlf)
        XCTAssertEqual(hits.map(\.number), [4])
        XCTAssertEqual(hits[0].text, "Grüße aus Wien")
        XCTAssertEqual(hits[0].column, 13) // ü and ß are two bytes each
    }

    func testContextLinesStayInsideTheSearchedLines() throws {
        let hits = try search("failed", configure: { $0.before = 5; $0.after = 1 })
        XCTAssertEqual(hits.map(\.number), [2, 6, 7, 8]) // the title line, not date or mood
        XCTAssertEqual(hits.map(\.isMatch), [false, false, true, false])
        XCTAssertNil(hits[0].column)
    }

    func testJSONRecordHasTheShapeOfTheSpec() throws {
        let line = try search("login")[0]
        let data = Data(line.json(id: "id1", path: "p.md").serialized().utf8)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, "id1")
        XCTAssertEqual(object["line"] as? Int, 7)
        XCTAssertEqual(object["column"] as? Int, 5)
        XCTAssertEqual(object["text"] as? String, "the login failed")
        XCTAssertEqual(object["matches"] as? [[Int]], [[4, 9]])
        XCTAssertEqual(object["type"] as? String, "match")
    }

    /// Whole-file matching chooses the lines to search only where a line that matches alone is
    /// sure to be found by it: not with lookaround, absolute anchors, \K, verbs or switched-off options.
    func testWholeFileMatchingIsUsedOnlyWhereItFindsEveryMatchingLine() throws {
        for sound in ["login", "two words", "^login", "log+in", "a\\sb", "\\bx\\b$", "(?i)x", "[^a]b", "(a|b)c", "a(?:b)"] {
            XCTAssertTrue(Grep.wholeFileIsSound(sound, fixed: false), sound)
        }
        for unsound in ["(?<=a)b", "a(?=b)", "a(?!b)", "(?<!a)b", "\\Aa", "a\\z", "a\\Z", "\\Ga", "a\\Kb", "(*COMMIT)a", "a(*SKIP)b",
                        "(?(1)a|b)", "(?-m)^a", "(?^)a", "(?C1)a"] {
            XCTAssertFalse(Grep.wholeFileIsSound(unsound, fixed: false), unsound)
        }
        XCTAssertTrue(Grep.wholeFileIsSound("(?<=x)^$", fixed: true))
        XCTAssertNotNil(try Grep("^(x)$", options: GrepOptions()).filePattern)
        XCTAssertNil(try Grep("(?<=x)y", options: GrepOptions()).filePattern)
    }
}
