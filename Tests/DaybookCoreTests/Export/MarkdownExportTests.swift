// The one-document Markdown export moves an entry's headings under the entry's own.
import XCTest
@testable import DaybookCore

final class MarkdownExportTests: XCTestCase {
    func testATXHeadingsMoveDownAndCodeStaysAsWritten() {
        let body = "# Trip\n\ntext\n\n```\n# not a heading\n```\n###### deep\n"
        XCTAssertEqual(MarkdownExport.demotingHeadings(body, by: 2), "### Trip\n\ntext\n\n```\n# not a heading\n```\n###### deep\n")
    }
}

final class HTMLEntryArticleTests: XCTestCase {
    func testBodyHeadingsMoveOneLevelDown() {
        XCTAssertEqual(HTMLEntryArticle.demotingHeadings("<h1>A</h1><h2 id=\"x\">B</h2><h6>C</h6><hr /><p>h1</p>"),
                       "<h2>A</h2><h3 id=\"x\">B</h3><h6>C</h6><hr /><p>h1</p>")
    }
}
