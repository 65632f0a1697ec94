// `daybook export`: every format on a small coded diary, checked by structure (and QDPX by its XSD).
import XCTest

final class ExportCommandTests: CLITestCase {
    let body = "Grüße aus Wien 🙂. The login failed again, and she restarted it.\n"

    /// A diary with a coded entry (a segment with a memo, a whole-entry code, a code missing from
    /// the codebook), a plain one, and a codebook with a category.
    func codedDiary() throws {
        try initDiary()
        _ = try write("codebook.yml", """
        codes:
          emotions:
            description: Feelings <about> tools & people
            color: "#8250df"
            codes:
              frustration: {description: Annoyance, color: "#d1242f"}
              relief: {}

        """)
        _ = try write("entries/2026/11/2026-11-20-0900-night-shift.md", """
        ---
        title: Night shift
        date: 2026-11-20T09:00:00+01:00
        tags: [fieldwork]
        energy: 7
        codes:
          - trust
          - code: frustration
            quote: "The login failed again"
            memo: third time this week
            coder: mp
          - code: relief
            quote: "restarted it"
        ---
        \(body)
        """)
        _ = try newEntry("Plain", "-m", "a, \"quoted\"\nsecond line", "-t", "other")
    }

    func testJSONHoldsDiaryCodebookAndEntriesWithBodies() throws {
        try codedDiary()
        let doc = try JSONSerialization.jsonObject(with: Data(try ok("export", "json").out.utf8)) as? [String: Any]
        let entries = doc?["entries"] as? [[String: Any]]
        XCTAssertEqual(entries?.count, 2)
        XCTAssertEqual(entries?.first?["body"] as? String, body)
        XCTAssertEqual((doc?["diary"] as? [String: Any])?["name"] as? String, "My diary")
        XCTAssertNotNil((doc?["codebook"] as? [String: Any])?["codes"])
    }

    func testJSONLinesIsOneEntryPerLineAndTakesFilters() throws {
        try codedDiary()
        let lines = try ok("export", "jsonl").out.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let only = try ok("export", "jsonl", "--tag", "other").out.split(separator: "\n")
        XCTAssertEqual(only.count, 1)
        XCTAssertTrue(only[0].contains("\"title\":\"Plain\""))
    }

    func testCSVQuotesCellsAndGivesFieldColumns() throws {
        try codedDiary()
        _ = try newEntry("Say \"hi\", twice", "-m", "x", "--date", "2026-11-21 13:00", "--set", "note=two\nlines")
        let out = try ok("export", "csv").out
        XCTAssertTrue(out.hasPrefix("id,date,title,tags,mood,mood_scale,words,codes,energy,note\r\n"), out)
        XCTAssertTrue(out.contains(",Night shift,fieldwork,,,11,trust;frustration;relief,7,\r\n"), out)
        XCTAssertTrue(out.contains(",\"Say \"\"hi\"\", twice\",,,,1,,,\"two\nlines\"\r\n"), out)
    }

    func testCSVCodingsGivesOneRowPerCodingWithCategory() throws {
        try codedDiary()
        let rows = try ok("export", "csv", "--codings").out.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(rows.first, "entry,date,title,code,category,quote,memo,coder")
        XCTAssertEqual(rows.count, 4)
        XCTAssertTrue(rows.contains("2026-11-20-0900-night-shift,2026-11-20T09:00:00+01:00,Night shift,frustration,emotions,The login failed again,third time this week,mp"), "\(rows)")
    }

    func testQDPXValidatesAgainstTheSchemaAndCountsCodePoints() throws {
        try codedDiary()
        let folder = try exportQDPX("p.qdpx")
        try validate(folder.appendingPathComponent("project.qde"))
        let qde = try String(contentsOf: folder.appendingPathComponent("project.qde"), encoding: .utf8)
        XCTAssertTrue(qde.hasPrefix("<?xml"), "no byte-order mark")
        XCTAssertTrue(qde.contains("startPosition=\"18\" endPosition=\"40\""), qde)
        XCTAssertTrue(qde.contains("<PlainTextContent>third time this week</PlainTextContent>"))
        XCTAssertTrue(qde.contains("<User guid="))
        XCTAssertTrue(qde.contains("name=\"trust\""), "a code missing from the codebook is still defined")
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("sources").path)
        XCTAssertEqual(sources.count, 2)
        XCTAssertTrue(sources.allSatisfy { $0.range(of: "^[0-9a-f-]{36}\\.txt$", options: .regularExpression) != nil }, "\(sources)")
    }

    func testQDPXGUIDsAreStableAcrossExports() throws {
        try codedDiary()
        let a = try String(contentsOf: try exportQDPX("a.qdpx").appendingPathComponent("project.qde"), encoding: .utf8)
        let b = try String(contentsOf: try exportQDPX("b.qdpx").appendingPathComponent("project.qde"), encoding: .utf8)
        XCTAssertEqual(a, b)
    }

    func testQDPXOfAnUncodedDiaryIsValidWithoutEmptyContainers() throws {
        try initDiary()
        _ = try newEntry("Only", "-m", "nothing coded")
        let folder = try exportQDPX("u.qdpx")
        try validate(folder.appendingPathComponent("project.qde"))
        let qde = try String(contentsOf: folder.appendingPathComponent("project.qde"), encoding: .utf8)
        XCTAssertFalse(qde.contains("<CodeBook>") || qde.contains("<Users>") || qde.contains("<Notes>"))
    }

    func testQDCIsTheCodebookTree() throws {
        try codedDiary()
        let out = try ok("export", "qdc").out
        XCTAssertTrue(out.contains("<CodeBook xmlns=\"urn:QDA-XML:codebook:1.0\""))
        XCTAssertTrue(out.contains("<Description>Feelings &lt;about&gt; tools &amp; people</Description>\n      <Code"), out)
        XCTAssertTrue(out.contains("color=\"#D1242F\""))
    }

    func testHTMLSiteEscapesScriptsAndMarksCodedSegments() throws {
        try codedDiary()
        _ = try newEntry("Danger", "-m", "Hello <script>alert(1)</script> **world**")
        let site = diary.deletingLastPathComponent().appendingPathComponent("site")
        try ok("export", "html", "-o", site.path)
        let page = try read(site.appendingPathComponent("entries/2026/11/2026-11-20-0900-night-shift.html"))
        XCTAssertTrue(page.contains("title=\"frustration\">The login failed again</mark><sup class=\"code-label\">frustration</sup>"), page)
        XCTAssertTrue(page.contains("--code: #d1242f"))
        XCTAssertTrue(page.contains("--code: #8250df"), "relief takes its category's colour")
        let danger = try read(site.appendingPathComponent("entries/2026/11/2026-11-21-1200-danger.html"))
        XCTAssertFalse(danger.contains("<script"))
        XCTAssertTrue(danger.contains("<strong>world</strong>"))
        for rel in ["index.html", "style.css", "tags/fieldwork.html", "codes/frustration.html", "codes/trust.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent(rel).path), rel)
        }
        XCTAssertTrue(try read(site.appendingPathComponent("style.css")).contains("@media print"))
        // The calendar's squares are hidden from screen readers; its table of months says the same in text.
        let index = try read(site.appendingPathComponent("index.html"))
        XCTAssertTrue(index.contains("<svg aria-hidden=\"true\""), index)
        XCTAssertTrue(index.contains("<summary>Entries per month in 2026</summary>"), index)
        XCTAssertTrue(index.contains("<tr><th scope=\"row\">November</th><td>"), index)
    }

    func testHTMLEntryPagesShowStrokesAsInlineSVG() throws {
        try initDiary()
        let p = try newEntry("Sketch", "-m", "See the drawing.")
        let strokes = home.appendingPathComponent("s.json")
        try """
        {"format": "daybook-strokes", "version": 1, "canvas": {"width": 200, "height": 100, "unit": "pt"},
        "channels": ["x", "y", "t", "force"],
        "strokes": [{"tool": "pen", "color": "#1f2328", "width": 2, "points": [[10, 10, 0, 0.3], [30, 15, 16, 0.8]]}]}
        """.write(to: strokes, atomically: true, encoding: .utf8)
        try ok("ink", "add", "last", strokes.path)
        let site = diary.deletingLastPathComponent().appendingPathComponent("site")
        try ok("export", "html", "-o", site.path)
        let page = try read(site.appendingPathComponent("entries/2026/11/\(p.deletingPathExtension().lastPathComponent).html"))
        XCTAssertTrue(page.contains("<figure class=\"ink\"><svg xmlns=\"http://www.w3.org/2000/svg\""), page)
        XCTAssertFalse(page.contains("<?xml"))
    }

    func testHTMLUnsafeKeepsRawHTMLAndSingleFileGoesToStdout() throws {
        try initDiary()
        _ = try newEntry("Raw", "-m", "<b>bold</b>")
        let one = try ok("export", "html", "--single-file", "--unsafe-html").out
        XCTAssertTrue(one.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(one.contains("<b>bold</b>"))
        XCTAssertTrue(one.contains("id=\"entry-2026-11-21-1200-raw\""))
        XCTAssertFalse(one.contains("<link rel=\"stylesheet\""), "one page carries its style")
    }

    func testZipHoldsEntriesAttachmentsSettingsAndTheSite() throws {
        try codedDiary()
        let photo = diary.deletingLastPathComponent().appendingPathComponent("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF]).write(to: photo)
        try ok("attach", "2026-11-20-0900", photo.path)
        let folder = try unzip(try exportFile("zip", "backup.zip"))
        for rel in ["daybook.yml", "codebook.yml", "entries/2026/11/2026-11-20-0900-night-shift.md",
                    "entries/2026/11/2026-11-20-0900-night-shift/photo.jpg", "html/index.html",
                    "html/entries/2026/11/2026-11-20-0900-night-shift/photo.jpg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(rel).path), rel)
        }
    }

    func testMarkdownIsOneDocument() throws {
        try codedDiary()
        let out = try ok("export", "markdown").out
        XCTAssertTrue(out.hasPrefix("# My diary\n"))
        XCTAssertTrue(out.contains("## 2026-11-20 09:00 · Night shift\n"))
        XCTAssertTrue(out.contains("codes: trust, frustration (“The login failed again”)"))
    }

    func testUsageErrorsAndNothingToExport() throws {
        try initDiary()
        XCTAssertEqual(try run(["export", "pdf"]).status, 2)
        XCTAssertEqual(try run(["export", "qdpx"]).status, 2, "an archive needs -o")
        XCTAssertEqual(try run(["export", "json", "--codings"]).status, 2)
        let none = try run(["export", "json"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.out, "")
    }

    func testABrokenCodebookIsWarnedAboutInHTMLAndStopsQDPX() throws {
        try codedDiary()
        _ = try write("codebook.yml", "codes: [\n")
        let site = diary.deletingLastPathComponent().appendingPathComponent("site")
        let html = try run(["export", "html", "-o", site.path])
        XCTAssertEqual(html.status, 0)
        XCTAssertTrue(html.err.contains("codebook.yml:1:8: warning:"), html.err) // where `[` opens (issue 39)
        let qdpx = try run(["export", "qdpx", "-o", site.appendingPathComponent("p.qdpx").path])
        XCTAssertEqual(qdpx.status, 2)
        XCTAssertTrue(qdpx.err.contains("codebook.yml:1:8: error:"), qdpx.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("p.qdpx").path), "no half-written archive")
    }

    // MARK: Helpers

    func exportFile(_ format: String, _ name: String) throws -> URL {
        let url = diary.deletingLastPathComponent().appendingPathComponent(name)
        try ok("export", format, "-o", url.path)
        return url
    }

    func exportQDPX(_ name: String) throws -> URL { try unzip(try exportFile("qdpx", name)) }

    /// Unpacks with Python's zipfile (the test target does not link ZIPFoundation).
    func unzip(_ archive: URL) throws -> URL {
        let folder = archive.deletingPathExtension().appendingPathExtension("unpacked")
        XCTAssertEqual(try tool("/usr/bin/python3", ["-m", "zipfile", "-e", archive.path, folder.path]), 0)
        return folder
    }

    /// Validates against the REFI-QDA schema with xmllint (Debian libxml2-utils, see scripts/setup).
    func validate(_ qde: URL) throws {
        let xsd = ExportCommandTests.schema
        guard FileManager.default.fileExists(atPath: "/usr/bin/xmllint") else { return XCTFail("xmllint is missing: run scripts/setup") }
        guard FileManager.default.fileExists(atPath: xsd.path) else { return XCTFail("the REFI-QDA schema is missing at \(xsd.path)") }
        XCTAssertEqual(try tool("/usr/bin/xmllint", ["--noout", "--schema", xsd.path, qde.path]), 0, "project.qde does not validate")
    }

    /// The schema beside the repository (`../shared/data/refi-qda/`, as the issue names it).
    static var schema: URL {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/data/refi-qda/Project-mrt2019.xsd")
    }
}
