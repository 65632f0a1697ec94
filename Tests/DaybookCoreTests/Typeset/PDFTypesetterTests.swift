// The typesetter on its own: pages, anchors found in the first pass, text read back by pdftotext.
import XCTest
@testable import DaybookCore

final class PDFTypesetterTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func write(_ blocks: [TypesetBlock], paper: Paper = .a4) throws -> (URL, PDFTypesetter.Result) {
        let url = folder.appendingPathComponent("t.pdf")
        let sink = try FileSink(url)
        let result = try PDFTypesetter(paper: paper, title: "T").write(blocks, to: sink)
        try sink.finish()
        return (url, result)
    }

    func pdftotext(_ url: URL) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        p.arguments = [url.path, "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func paragraph(_ s: String) -> TypesetBlock { TypesetBlock(.text(StyledText(s))) }

    func testALongParagraphGoesOnOverPagesAndAnchorsKnowTheirPage() throws {
        let long = (0..<2500).map { "w\($0)" }.joined(separator: " ")
        var head = paragraph("Second")
        head.anchor = "second"
        let (url, result) = try write([paragraph(long), head, paragraph("after")])
        XCTAssertGreaterThan(result.pages, 2)
        XCTAssertEqual(result.anchors["second"], result.pages)
        let data = try Data(contentsOf: url)
        XCTAssertEqual(Array(data.prefix(5)), Array("%PDF-".utf8))
        if let text = try pdftotext(url) {
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init).filter { $0.hasPrefix("w") }
            XCTAssertEqual(words, (0..<2500).map { "w\($0)" }, "every word, in order, none lost at a page break")
        }
    }

    func testAPageBreakOnlyWhenThePageHoldsSomething() throws {
        let (_, one) = try write([TypesetBlock(.pageBreak), paragraph("a"), TypesetBlock(.pageBreak), TypesetBlock(.pageBreak), paragraph("b")])
        XCTAssertEqual(one.pages, 2)
    }

    func testContentsGetThePagesOfTheSecondPass() throws {
        var target = paragraph("Target")
        target.anchor = "t"
        let (url, result) = try write([TypesetBlock(.contentsLine(StyledText("Target"), anchor: "t")), TypesetBlock(.pageBreak),
                                       TypesetBlock(.pageBreak), paragraph("x"), TypesetBlock(.pageBreak), target])
        XCTAssertEqual(result.anchors["t"], 3)
        if let text = try pdftotext(url) {
            let firstPage = text.components(separatedBy: "\u{0C}")[0]
            XCTAssertTrue(firstPage.contains("3"), firstPage)
            XCTAssertFalse(firstPage.contains("000"), "the first pass's placeholder is gone")
        }
    }

    func testAHeadingIsNeverTheLastLineOfAPage() throws {
        var blocks: [TypesetBlock] = []
        for i in 0..<300 {
            var heading = TypesetBlock(.text(StyledText("Month \(i)")), font: .heading(3))
            heading.keepWithNext = true
            blocks.append(heading)
            // Every third heading is followed by a line of the contents, the others by text.
            blocks.append(i % 3 == 0 ? TypesetBlock(.contentsLine(StyledText("line \(i)"), anchor: "x")) : paragraph("line \(i)"))
        }
        let (url, result) = try write(blocks)
        XCTAssertGreaterThan(result.pages, 3)
        guard let text = try pdftotext(url) else { return }
        for (n, page) in text.components(separatedBy: "\u{0C}").enumerated() where !page.isEmpty {
            // The last line of text above the page number.
            let lines = page.split(separator: "\n").map(String.init).filter { !$0.isEmpty && Int($0) == nil }
            XCTAssertFalse(lines.last?.hasPrefix("Month") ?? false, "page \(n + 1) ends with a heading")
        }
    }

    func testJPEGSizeFromItsFrameHeader() {
        // SOI, an APP0 segment, then SOF0 with height 30 and width 60.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x1E, 0x00, 0x3C, 0x03, 0, 0, 0, 0]
        XCTAssertEqual(PDFTypesetter.jpegSize(jpeg).map { [$0.0, $0.1] }, [60, 30])
        XCTAssertNil(PDFTypesetter.jpegSize(Array(jpeg.prefix(8))), "cut short")
        XCTAssertNil(PDFTypesetter.jpegSize([0x89, 0x50, 0x4E, 0x47]), "not a JPEG")
    }
}
