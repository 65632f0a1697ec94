// The one-document Markdown export moves an entry's headings under the entry's own.
import XCTest
@testable import DaybookCore

final class MarkdownExportTests: XCTestCase {
    func testATXHeadingsMoveDownAndCodeStaysAsWritten() {
        let body = "# Trip\n\ntext\n\n```\n# not a heading\n```\n###### deep\n"
        XCTAssertEqual(MarkdownExport.demotingHeadings(body, by: 2), "### Trip\n\ntext\n\n```\n# not a heading\n```\n###### deep\n")
    }
}
