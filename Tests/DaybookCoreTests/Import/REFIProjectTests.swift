// Reading REFI-QDA XML: the values import needs, positioned errors, and code names both ways.
import XCTest
@testable import DaybookCore

final class REFIProjectTests: XCTestCase {
    let qde = """
    <?xml version="1.0" encoding="utf-8"?>
    <Project xmlns="urn:QDA-XML:project:1.0" name="p">
      <Users><User guid="AAAAAAAA-0000-4000-8000-000000000001" name="Anna"/></Users>
      <CodeBook><Codes>
        <Code guid="c1" name="Emotions" isCodable="true" color="#8250DF"><Description>Feelings</Description>
          <Code guid="c2" name="work∕paper" isCodable="true"><NoteRef targetGUID="n2"/></Code>
        </Code>
      </Codes></CodeBook>
      <Sources>
        <TextSource guid="s1" name="Interview"><PlainTextContent>I keep a paper list.</PlainTextContent>
          <PlainTextSelection guid="x1" startPosition="9" endPosition="19" creatingUser="aaaaaaaa-0000-4000-8000-000000000001">
            <Description>by the door</Description>
            <Coding guid="k1" creationDateTime="2026-11-22T08:30:00Z"><CodeRef targetGUID="c2"/><NoteRef targetGUID="n1"/></Coding>
          </PlainTextSelection>
          <Coding guid="k2"><CodeRef targetGUID="c1"/></Coding>
        </TextSource>
        <PDFSource guid="s2" name="Scan.pdf"/>
      </Sources>
      <Notes>
        <Note guid="n1" name="m"><PlainTextContent>a memo</PlainTextContent></Note>
        <Note guid="n2" name="c"><PlainTextContent>on the code</PlainTextContent></Note>
      </Notes>
    </Project>
    """

    /// The export of a 100,000-entry diary is a 58 MB project.qde: handed to libxml2 as one piece,
    /// a document past its 10 MB look-up limit was refused as not well-formed at its last line.
    func testReadsAProjectLargerThanLibxmlsSingleChunkLimit() throws {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Project xmlns=\"urn:QDA-XML:project:1.0\" name=\"big\"><Sources>\n"
        let filler = String(repeating: "words of a diary entry ", count: 20)
        var n = 0
        while xml.utf8.count < 12_000_000 {
            xml += "<TextSource guid=\"s\(n)\" name=\"e\(n)\"><Description>\(filler)</Description></TextSource>\n"
            n += 1
        }
        xml += "</Sources></Project>\n"
        let p = try REFIProject.parse(Data(xml.utf8), path: "big.qde", root: "Project")
        XCTAssertEqual(p.sources.count, n)
        XCTAssertEqual(p.sources.last?.name, "e\(n - 1)")
    }

    func testReadsUsersCodeTreeSourcesSelectionsAndNotes() throws {
        let p = try REFIProject.parse(Data(qde.utf8), path: "p.qdpx/project.qde", root: "Project")
        XCTAssertEqual(p.users["aaaaaaaa-0000-4000-8000-000000000001"], "Anna", "GUIDs compare in lowercase")
        XCTAssertEqual(p.codes.map(\.name), ["Emotions"])
        XCTAssertEqual(p.codes[0].description, "Feelings")
        XCTAssertEqual(p.codes[0].children.map(\.name), ["work∕paper"])
        XCTAssertEqual(p.codes[0].children[0].noteRefs, ["n2"])
        let s = try XCTUnwrap(p.sources.first)
        XCTAssertEqual(s.plainTextContent, "I keep a paper list.")
        XCTAssertEqual(s.codings.map(\.codeGUID), ["c1"], "a coding of the whole source")
        let sel = try XCTUnwrap(s.selections.first)
        XCTAssertEqual([sel.start, sel.end], [9, 19])
        XCTAssertEqual(sel.description, "by the door")
        XCTAssertEqual(sel.codings.first?.noteRefs, ["n1"])
        XCTAssertEqual(sel.codings.first?.creationDateTime, "2026-11-22T08:30:00Z")
        XCTAssertEqual(p.otherSources.map(\.name), ["Scan.pdf"])
        XCTAssertEqual(p.notes["n1"]?.text, "a memo")
    }

    func testMalformedXMLAndBadAttributesAreErrorsWithLineAndColumn() {
        for (text, expected) in [
            (qde.replacingOccurrences(of: "</Sources>", with: "</Source>"), "not well-formed XML"),
            (qde.replacingOccurrences(of: "startPosition=\"9\"", with: "startPosition=\"nine\""), "`startPosition` is \"nine\""),
            (qde.replacingOccurrences(of: " name=\"Emotions\"", with: ""), "<Code> has no `name`"),
            ("<CodeBook/>", "starts with <CodeBook>, not <Project>"),
        ] {
            XCTAssertThrowsError(try REFIProject.parse(Data(text.utf8), path: "p.qde", root: "Project")) { error in
                let e = error as? DaybookError
                XCTAssertTrue(e?.message.contains(expected) == true, "\(error)")
                XCTAssertNotNil(e?.location?.line, "\(error)")
                XCTAssertNotNil(e?.location?.column, "\(error)")
            }
        }
    }

    func testCodeNamesBothWays() {
        XCTAssertEqual(REFIXML.codeName("work/paper"), "work\u{2215}paper")
        XCTAssertEqual(REFIXML.daybookCodeName("work\u{2215}paper"), "work/paper")
        XCTAssertEqual(REFIXML.daybookCodeName("Coping Strategies (new)"), "coping-strategies-new")
        XCTAssertEqual(REFIXML.daybookCodeName("Work / Paper"), "work-paper")
        XCTAssertEqual(REFIXML.daybookCodeName("a/b"), "a/b", "a / typed elsewhere stays in the name")
        XCTAssertNil(REFIXML.daybookCodeName(" (?) "))
    }

    func testOccurrenceOfTheTextAtAPosition() {
        let body = "the login failed, the login\r\nfailed"
        XCTAssertEqual(QuoteAnchor.occurrence(of: "the login", startingAt: 18, in: body), 2)
        XCTAssertEqual(QuoteAnchor.occurrence(of: "login\nfailed", startingAt: 22, in: body), 1, "a line break matches CRLF")
        XCTAssertNil(QuoteAnchor.occurrence(of: "the login", startingAt: 1, in: body))
    }
}
