// An entry's Markdown as the PDF's blocks: every construct, coded segments as highlights and margin notes.
import XCTest
@testable import DaybookCore

final class PDFBodyTests: XCTestCase {
    func texts(_ blocks: [TypesetBlock]) -> [String] {
        blocks.compactMap { b -> String? in
            switch b.content {
            case let .text(t): return (b.marker.map { $0.text + " " } ?? "") + t.text
            case let .table(rows, _, _): return rows.map { $0.map(\.text).joined(separator: "|") }.joined(separator: "\n")
            default: return nil
            }
        }
    }

    func testTheTreeKnowsListsTasksAndTableHeaders() {
        let doc = Markdown.tree("3. three\n4. four\n\n- [x] done\n- [ ] open\n- plain\n\n| a | b | c | d |\n|---|:--|:-:|--:|\n| 1 | 2 | 3 | 4 |\n")
        let lists = doc.children.filter { $0.kind == .list }
        XCTAssertEqual(lists.map(\.listStart), [3, nil])
        XCTAssertEqual(lists[1].children.map(\.taskChecked), [true, false, nil])
        let table = doc.children.first { $0.kind == .table }
        XCTAssertEqual(table?.children.map(\.isHeader), [true, false])
        XCTAssertEqual(table?.columnAlignments, ["", "l", "c", "r"])
    }

    func testEveryConstructBecomesItsBlock() {
        let md = """
        # Head

        Some *em* and **strong** and `code` and ~~gone~~ and a [site](https://example.org).

        > quoted
        > - inside

        1. one
        2. two
           - nested

        - [x] ticked
        - [ ] open

        ```
        let x = 1
          indented
        ```

        | h1 | h2 |
        |----|----|
        | c1 | c2 |

        ---

        Note[^n].

        [^n]: The note.

        <script>alert(1)</script>
        """
        var body = PDFBody(segments: [])
        let blocks = body.blocks(Markdown.tree(md))
        let t = texts(blocks)
        XCTAssertEqual(t.first, "Head")
        XCTAssertEqual(blocks.first?.font, .heading(2), "under the entry's own title")
        XCTAssertTrue(blocks.first?.keepWithNext ?? false)
        XCTAssertTrue(t.contains("Some em and strong and code and gone and a site."))
        let para = blocks.first { if case let .text(s) = $0.content { return s.text.hasPrefix("Some") } else { return false } }
        guard case let .text(styled)? = para?.content else { return XCTFail("no paragraph") }
        func style(of word: String) -> TextStyle? {
            guard let r = styled.text.range(of: word) else { return nil }
            let start = styled.text.utf8.distance(from: styled.text.startIndex, to: r.lowerBound)
            return styled.runs.first { $0.range.contains(start) }?.style
        }
        XCTAssertEqual(style(of: "em")?.italic, true)
        XCTAssertEqual(style(of: "strong")?.bold, true)
        XCTAssertEqual(style(of: "code")?.mono, true)
        XCTAssertEqual(style(of: "gone")?.strike, true)
        XCTAssertEqual(style(of: "site")?.link, .uri("https://example.org"))
        let quote = blocks.filter { $0.quoteDepth == 1 }
        XCTAssertEqual(quote.count, 2, "the quote's paragraph and its list item")
        XCTAssertTrue(t.contains("1. one") && t.contains("2. two") && t.contains("• nested") || t.contains("◦ nested"), "\(t)")
        XCTAssertTrue(t.contains("☑ ticked") && t.contains("☐ open"))
        let code = blocks.first { $0.font == .mono }
        XCTAssertNotNil(code?.fill)
        XCTAssertEqual(texts(code.map { [$0] } ?? []), ["let x = 1\n  indented"], "code keeps its lines and spaces")
        XCTAssertTrue(t.contains("h1|h2\nc1|c2"))
        XCTAssertTrue(blocks.contains { if case .rule = $0.content { return true } else { return false } })
        XCTAssertTrue(t.contains("Note1."), "the footnote's number, raised")
        XCTAssertEqual(t.last, "1 The note.", "the footnote at the end")
        XCTAssertTrue(t.contains("<script>alert(1)</script>"), "raw HTML is text")
    }

    func testCodedSegmentsAreHighlightedAndNamedInTheMargin() {
        let bodyText = "Before. The *login failed* again. After."
        let range = bodyText.range(of: "login failed* again")!
        let segments = [CodedSegment(range: range, code: "frustration", color: "#cf222e")]
        var body = PDFBody(segments: segments)
        let blocks = body.blocks(Markdown.tree(CodedSegmentMarker.marked(bodyText, segments: segments)))
        guard case let .text(t)? = blocks.first?.content else { return XCTFail() }
        XCTAssertEqual(t.text, "Before. The login failed again. After.", "no marker is left in the text")
        XCTAssertEqual(t.notes.map(\.text), ["frustration"])
        XCTAssertEqual(t.notes.first?.offset, "Before. The ".utf8.count)
        let highlighted = t.runs.filter { $0.style.background != nil }.map { String(decoding: Array(t.text.utf8)[$0.range], as: UTF8.self) }
        XCTAssertEqual(highlighted.joined(), "login failed again")
        let red = RGB(hex: "#cf222e")!.tint(0.68)
        XCTAssertTrue(t.runs.allSatisfy { $0.style.background == nil || $0.style.background == red })
        XCTAssertTrue(t.runs.contains { $0.style.italic && $0.style.background != nil }, "emphasis inside the segment keeps both")
    }

    func testLinksToEntriesAndAttachmentImages() {
        let md = "[[abc]] and [rel](x.md)\n\n![photo](p.png)\n"
        var body = PDFBody(segments: [])
        let tree = Markdown.tree(md, target: { url, _ in
            url == "x.md" ? PDFBody.anchorScheme + "entry-x" : url == "p.png" ? PDFBody.fileScheme + "/tmp/p.png" : nil
        }, wiki: { d, _ in (PDFBody.anchorScheme + "entry-" + d, "Title of " + d) })
        let blocks = body.blocks(tree)
        guard case let .text(t)? = blocks.first?.content else { return XCTFail() }
        XCTAssertEqual(t.text, "Title of abc and rel")
        XCTAssertEqual(t.runs.compactMap(\.style.link), [.anchor("entry-abc"), .anchor("entry-x")])
        guard case let .image(img)? = blocks.dropFirst().first?.content else { return XCTFail("the image paragraph is the picture") }
        XCTAssertEqual(img.path, "/tmp/p.png")
        XCTAssertEqual(body.shownImages, ["/tmp/p.png"])
    }
}
