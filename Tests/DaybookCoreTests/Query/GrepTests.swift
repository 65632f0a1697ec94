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

    func testAFileIsReadWholeWhateverSizeTheWalkSaw() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-filebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("d"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = FileBytes()
        // Sizes around the buffer's first capacity (64 KiB) and its doublings.
        for size in [0, 1, 10, 65_535, 65_536, 65_537, 200_000] {
            let text = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            try Data(text).write(to: folder.appendingPathComponent("d/f.md"))
            // The size the walk saw may be right, nil, or stale (the file changed since).
            for seen in [size, nil, 0, max(0, size - 1), size + 1, size * 2 + 5] as [Int?] {
                XCTAssertTrue(bytes.read("d/f.md", in: folder.path, size: seen))
                XCTAssertEqual(Array(bytes.bytes), text, "size \(size), seen \(seen.map(String.init) ?? "nil")")
                XCTAssertEqual(bytes.lineStarts, size > 0 ? [0] : [])
            }
        }
        try Data("a\nb\r\n\nc".utf8).write(to: folder.appendingPathComponent("d/f.md"))
        XCTAssertTrue(bytes.read("d/f.md", in: folder.path, size: 7))
        XCTAssertEqual(bytes.lineStarts, [0, 2, 5, 6])
        XCTAssertFalse(bytes.read("d/missing.md", in: folder.path, size: 3))
    }

    func testTheWalkTellsPathOrderFromItsBytesOnlyForAsciiPaths() {
        var walk = EntryWalk()
        walk.folders = ["entries/2026/01/", "entries/2026/02/", "entries/2026/\u{e4}/"].map { Array($0.utf8) }
        for (folder, name) in [(0, "a.md"), (0, "ab.md"), (0, "b.md"), (1, "a.md"), (2, "a.md")] {
            let start = walk.names.count
            walk.names += Array(name.utf8) + [0]
            walk.files.append(EntryWalk.File(folder: Int32(folder), name: Int32(start), nameCount: Int32(name.utf8.count),
                                             stamp: FileStamp(size: 0, mtime: 0, ctime: 0, inode: 0), ink: nil))
        }
        XCTAssertTrue(walk.isAscendingASCII([0, 1, 2, 3]))
        XCTAssertTrue(walk.isAscendingASCII([0, 3]))
        XCTAssertTrue(walk.isAscendingASCII([]))
        XCTAssertFalse(walk.isAscendingASCII([1, 0]), "ab.md after a.md")
        XCTAssertFalse(walk.isAscendingASCII([3, 2]), "a folder later")
        XCTAssertFalse(walk.isAscendingASCII([0, 0]), "not strictly")
        XCTAssertFalse(walk.isAscendingASCII([0, 4]), "not ASCII")
        for order in [[0, 1, 2, 3], [3, 1, 0], [2, 3, 0]] {
            let paths = order.map(walk.rel)
            XCTAssertEqual(walk.isAscendingASCII(order), paths == paths.sorted() && Set(paths).count == paths.count)
        }
    }
}
