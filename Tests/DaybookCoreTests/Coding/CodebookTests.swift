// The codebook: parsing with positions, lookups, define/rename/merge, stable writing.
import XCTest
@testable import DaybookCore

final class CodebookTests: XCTestCase {
    let sample = """
    codes:
      emotions:
        description: Feelings people express about the tools
        color: "#8250df"
        codes:
          frustration: {description: Annoyance at a tool or process, color: "#d1242f"}
          relief: {}
          deep:
            codes:
              deeper:
      workaround:
        description: Someone bypasses the intended procedure

    """

    func testParsesATreeOfAnyDepth() throws {
        let book = try Codebook.parse(sample, path: "codebook.yml")
        XCTAssertEqual(book.allCodes, ["emotions", "frustration", "relief", "deep", "deeper", "workaround"])
        XCTAssertEqual(book.path(of: "deeper"), ["emotions", "deep", "deeper"])
        XCTAssertEqual(book.descendants(of: "emotions"), ["emotions", "frustration", "relief", "deep", "deeper"])
        XCTAssertEqual(book.descendants(of: "unknown"), ["unknown"])
        XCTAssertEqual(book.code("frustration")?.color, "#d1242f")
        XCTAssertEqual(book.code("workaround")?.description, "Someone bypasses the intended procedure")
        XCTAssertNil(book.path(of: "nothing"))
    }

    func testErrorsNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("codes:\n  a: {}\n  a: {}\n", 2, "appears twice"),
            ("codes:\n  a: {colour: red}\n", 2, "unknown key `colour`"),
            ("codes:\n  a: {color: red}\n", 2, "#RRGGBB"),
            ("code:\n  a: {}\n", 1, "unknown key `code`"),
            ("codes:\n  'a b': {}\n", 2, "not a code name"),
            ("codes:\n  a: {}\n  b:\n    codes:\n      A: {}\n", 5, "defined twice"),
            ("codes: [a, b]\n", 1, "must be a mapping"),
            ("codes:\n  a: {\n", 2, "invalid YAML"), // where the `{` opens (issue 39)
        ]
        for (text, line, message) in cases {
            XCTAssertThrowsError(try Codebook.parse(text, path: "codebook.yml"), text) { error in
                let e = error as? DaybookError
                XCTAssertEqual(e?.location?.line, line, text)
                XCTAssertTrue(e?.message.contains(message) == true, "\(text): \(String(describing: error))")
            }
        }
    }

    func testWritingReadsBackAndIsStable() throws {
        let book = try Codebook.parse(sample, path: "codebook.yml")
        let text = book.yaml
        XCTAssertEqual(try Codebook.parse(text, path: "x"), book)
        XCTAssertEqual(try Codebook.parse(text, path: "x").yaml, text)
        XCTAssertTrue(text.contains("      frustration: {description: Annoyance at a tool or process, color: \"#d1242f\"}\n"))
        XCTAssertEqual(Codebook().yaml, "codes: {}\n")
    }

    func testTheSpecExampleIsAlreadyInDaybooksOwnLayout() throws {
        let spec = """
        codes:
          emotions:
            description: Feelings people express about the tools
            color: "#8250df"
            codes:
              frustration: {description: Annoyance at a tool or process, color: "#d1242f"}
              relief: {}
          workaround:
            description: Someone bypasses the intended procedure

        """
        var book = try Codebook.parse(spec, path: "codebook.yml")
        XCTAssertEqual(book.yaml, spec)
        try book.define("hope", parent: "emotions")
        XCTAssertEqual(book.yaml, spec.replacingOccurrences(of: "      relief: {}\n", with: "      relief: {}\n      hope: {}\n"))
    }

    func testDefineAddsMovesAndChangesWithMinimalDiff() throws {
        var book = try Codebook.parse(sample, path: "x")
        let before = book.yaml.split(separator: "\n")
        XCTAssertTrue(try book.define("relief", description: "Things work again"))
        let after = book.yaml.split(separator: "\n")
        XCTAssertEqual(before.count, after.count)
        XCTAssertEqual(zip(before, after).filter { $0 != $1 }.count, 1, "only the relief line changes")
        XCTAssertFalse(try book.define("relief"), "nothing to change")

        try book.define("hope", parent: "emotions")
        XCTAssertEqual(book.path(of: "hope"), ["emotions", "hope"])
        try book.define("new-cat/x", parent: "brand-new")
        XCTAssertEqual(book.path(of: "new-cat/x"), ["brand-new", "new-cat/x"])
        try book.define("deep", parent: "workaround")
        XCTAssertEqual(book.path(of: "deeper"), ["workaround", "deep", "deeper"])
        try book.define("workaround", color: "")
        XCTAssertNil(book.code("workaround")?.color)
    }

    func testDefineRefusals() throws {
        var book = try Codebook.parse(sample, path: "x")
        let original = book
        XCTAssertThrowsError(try book.define("emotions", parent: "deeper"))
        XCTAssertThrowsError(try book.define("emotions", parent: "emotions"))
        XCTAssertThrowsError(try book.define("Bad Name"))
        XCTAssertThrowsError(try book.define("x", color: "red"))
        XCTAssertEqual(book, original)
    }

    func testRenameAndMerge() throws {
        var book = try Codebook.parse(sample, path: "x")
        try book.rename("frustration", to: "annoyance")
        XCTAssertEqual(book.path(of: "annoyance"), ["emotions", "annoyance"])
        XCTAssertEqual(book.code("annoyance")?.color, "#d1242f")
        XCTAssertThrowsError(try book.rename("relief", to: "workaround"))

        try book.merge(["relief", "deep"], into: "workaround")
        XCTAssertNil(book.path(of: "relief"))
        XCTAssertEqual(book.path(of: "deeper"), ["workaround", "deeper"])
        XCTAssertEqual(book.code("workaround")?.description, "Someone bypasses the intended procedure")

        try book.merge(["annoyance"], into: "irritation")
        XCTAssertEqual(book.path(of: "irritation"), ["emotions", "irritation"], "takes the first source's place")
        XCTAssertThrowsError(try book.merge(["emotions"], into: "irritation"))

        var empty = Codebook()
        try empty.merge(["a", "b"], into: "c")
        XCTAssertEqual(empty.allCodes, [])
    }

    func testCloseNames() throws {
        let book = try Codebook.parse(sample, path: "x")
        XCTAssertEqual(book.closeNames(to: "frustraton").first, "frustration")
        XCTAssertTrue(book.closeNames(to: "zzzzzzzz").isEmpty)
    }

    /// Codes added while coding get distinct colours: the palette's first free one (issue 41).
    func testCodesAddedWhileCodingGetColoursNoCodeHas() throws {
        var book = try Codebook.parse("codes:\n  trust: {color: \"#0969DA\"}\n  care: {}\n", path: "codebook.yml")
        XCTAssertTrue(book.addIfMissing("relief"))
        XCTAssertTrue(book.addIfMissing("hope"))
        XCTAssertFalse(book.addIfMissing("trust"))
        XCTAssertEqual(book.code("relief")?.color, "#d1242f", "#0969da is taken (in capitals)")
        XCTAssertEqual(book.code("hope")?.color, "#1a7f37")
        for i in 0..<20 { book.addIfMissing("c\(i)") }
        let colours = (0..<7).compactMap { book.code("c\($0)")?.color }
        XCTAssertEqual(Set(colours).count, 7, "the rest of the palette, none twice, before it goes round")
    }
}
