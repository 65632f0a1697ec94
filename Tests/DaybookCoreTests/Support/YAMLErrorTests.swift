// A YAML error is placed where it can be fixed: a bracket, brace or quote left open at the line
// where it opens, not the line after, where the parser noticed (issue 39).
import XCTest
@testable import DaybookCore

final class YAMLErrorTests: XCTestCase {
    func place(_ text: String, lineOffset: Int = 0) -> (line: Int?, column: Int?, message: String) {
        do {
            _ = try YAML.compose(text, path: "x.md", lineOffset: lineOffset)
            return (nil, nil, "no error")
        } catch let e as DaybookError {
            return (e.location?.line, e.location?.column, e.message)
        } catch {
            return (nil, nil, "\(error)")
        }
    }

    func testAConstructLeftOpenIsPlacedWhereItOpens() {
        let cases: [(String, Int, Int)] = [
            ("title: X\ndate: 2026-11-20\ntags: [a, b\nmood: 3\n", 3, 7),
            ("title: X\nplace: {name: Ward\nmood: 3\n", 2, 8),
            ("title: \"Unclosed\ndate: 2026-11-20\n", 1, 8),
            ("a: 1\nb: 'open\n", 2, 4),
            ("codes:\n  a: {\n", 2, 6),
            ("a: [x, {y: 1}, \"]\", [z\n", 1, 21),
        ]
        for (text, line, column) in cases {
            let got = place(text)
            XCTAssertEqual(got.line, line, "\(text): \(got.message)")
            XCTAssertEqual(got.column, column, "\(text): \(got.message)")
            XCTAssertTrue(got.message.contains("not closed; noticed at line"), got.message)
        }
        // In an entry file, the front matter starts on the file's second line.
        XCTAssertEqual(place("tags: [a\nmood: 3\n", lineOffset: 1).line, 2)
    }

    func testOtherErrorsStayWhereTheyAreNoticed() {
        let got = place("title: Newest: broken\n")
        XCTAssertEqual(got.line, 1)
        XCTAssertEqual(got.column, 14)
        XCTAssertFalse(got.message.contains("not closed"), got.message)
    }
}
