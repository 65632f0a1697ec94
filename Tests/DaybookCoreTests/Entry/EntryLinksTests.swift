// The one rule for links between entries: what a link is, where it stands, where it leads.
import XCTest
@testable import DaybookCore

final class EntryLinksTests: DiaryTestCase {
    let dir = "entries/2026/11"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: diary.url(dir + "/2026-11-02-2230-login"), withIntermediateDirectories: true)
        for id in ["2026-11-02-2230-login", "2026-11-03-0800-memo", "2026-11-03-0815-memo-two"] {
            try "---\ntitle: \(id)\ndate: 2026-11-02T22:30:00+01:00\n---\nx\n".write(to: diary.url("\(dir)/\(id).md"), atomically: false, encoding: .utf8)
        }
        try Data("png".utf8).write(to: diary.url(dir + "/2026-11-02-2230-login/photo.png"))
    }

    func links(_ body: String, from id: String = "2026-11-05-0900-links", startLine: Int = 5) -> [EntryLink] {
        EntryLinks(diary).links(inBody: body, ofEntry: "\(dir)/\(id).md", bodyStartLine: startLine)
    }

    func testWikiLinksAreFoundInTextOnlyWithTheirRanges() {
        let body = "Ä [[2026-11-02-2230-login|the login]] `[[2026-11-03]]` \\[[2026-11-02]] [[unclosed\n"
            + "```\n[[2026-11-02]]\n```\n"
            + "> quoted [[2026-11-03-0800]]\n"
            + "[see [[2026-11-02]]](2026-11-03-0800-memo.md) <span>[[2026-11-02]]</span>\n"
        let found = links(body)
        XCTAssertEqual(found.map(\.written), ["2026-11-02-2230-login", "2026-11-03-0800", "2026-11-03-0800-memo.md"])
        let login = found[0]
        XCTAssertEqual(login.form, .wiki)
        XCTAssertEqual(login.label, "the login")
        // Columns count characters: `Ä` is two bytes, one column.
        XCTAssertEqual([login.range.line, login.range.column, login.range.endLine, login.range.endColumn], [5, 3, 5, 38])
        XCTAssertEqual(Array(body.utf8)[login.bodyOffsets].count, "[[2026-11-02-2230-login|the login]]".utf8.count)
        XCTAssertEqual(login.target, .entry(path: "\(dir)/2026-11-02-2230-login.md", fragment: ""))
        XCTAssertEqual([found[1].range.line, found[1].range.column], [9, 10])
        XCTAssertEqual(found[2].form, .link)
        XCTAssertEqual(found[2].label, "see [[2026-11-02]]")
    }

    func testPrefixesResolveWhenUniqueAndAreAmbiguousOtherwise() {
        let rule = EntryLinks(diary)
        XCTAssertEqual(rule.resolve(id: "2026-11-02"), .entry(path: "\(dir)/2026-11-02-2230-login.md", fragment: ""))
        XCTAssertEqual(rule.resolve(id: "2026-11-03-0800-memo#plan"), .entry(path: "\(dir)/2026-11-03-0800-memo.md", fragment: "#plan"))
        // A whole id that is also a prefix of another names itself.
        XCTAssertEqual(rule.resolve(id: "2026-11-03-0800-memo"), .entry(path: "\(dir)/2026-11-03-0800-memo.md", fragment: ""))
        XCTAssertEqual(rule.resolve(id: "2026-11-03"), .ambiguous(paths: ["\(dir)/2026-11-03-0800-memo.md", "\(dir)/2026-11-03-0815-memo-two.md"]))
        XCTAssertEqual(rule.resolve(id: "2027"), .noEntry(path: nil))
        XCTAssertEqual(rule.resolve(id: "../2026-11-02"), .noEntry(path: nil))
    }

    func testRelativeLinksLeadToEntriesAttachmentsNothingOrOut() {
        let rule = EntryLinks(diary)
        let from = "\(dir)/2026-11-05-0900-links.md"
        XCTAssertEqual(rule.resolve(url: "2026-11-02-2230-login.md#x", from: from), .entry(path: "\(dir)/2026-11-02-2230-login.md", fragment: "#x"))
        XCTAssertEqual(rule.resolve(url: "../11/2026-11-03-0800-memo.md", from: from), .entry(path: "\(dir)/2026-11-03-0800-memo.md", fragment: ""))
        XCTAssertEqual(rule.resolve(url: "2026-11-02-2230-login/photo.png", from: from), .attachment(path: "\(dir)/2026-11-02-2230-login/photo.png"))
        XCTAssertEqual(rule.resolve(url: "2026-11-02-2230-login/gone.png", from: from), .noAttachment(path: "\(dir)/2026-11-02-2230-login/gone.png"))
        XCTAssertEqual(rule.resolve(url: "../10/2026-10-01-0900-gone.md", from: from), .noEntry(path: "entries/2026/10/2026-10-01-0900-gone.md"))
        XCTAssertEqual(rule.resolve(url: "../../etc/passwd", from: from), .outside(path: "entries/etc/passwd"))
        XCTAssertEqual(rule.resolve(url: "../../../../../etc/passwd", from: from), .outside(path: nil))
        XCTAssertEqual(rule.resolve(url: "../../../daybook.yml", from: from), .outside(path: "daybook.yml"))
        XCTAssertNil(rule.resolve(url: "https://example.org/a.md", from: from))
        XCTAssertNil(rule.resolve(url: "#part", from: from))
        XCTAssertNil(rule.resolve(url: "/etc/passwd", from: from))
    }

    func testASymbolicLinkIsNoAttachment() throws {
        try FileManager.default.createSymbolicLink(atPath: diary.url(dir + "/2026-11-02-2230-login/secret").path, withDestinationPath: "/etc/passwd")
        XCTAssertEqual(EntryLinks(diary).resolve(url: "2026-11-02-2230-login/secret", from: "\(dir)/x.md"),
                       .noAttachment(path: "\(dir)/2026-11-02-2230-login/secret"))
    }

    func testCheckWarnsOfLinksToNothingAtTheirPlace() throws {
        var e = try XCTUnwrap(diary.readEntry("\(dir)/2026-11-02-2230-login.md").entry)
        e.body = "ok [[2026-11-03-0800]], not [[2026-11-03]] nor [[none]].\n"
        let problems = EntryLinks(diary).problems(of: e)
        XCTAssertEqual(problems.map(\.severity), [.warning, .warning])
        XCTAssertEqual(problems.map { $0.location?.column }, [29, 48])
        XCTAssertTrue(problems[0].message.contains("names 2 entries (2026-11-03-0800-memo, 2026-11-03-0815-memo-two)"), problems[0].message)
        XCTAssertTrue(problems[1].message.contains("[[none]] leads to nothing"), problems[1].message)
    }

    func testBodiesWithoutLinkCharactersAreNotParsed() {
        XCTAssertFalse(EntryLinks.mayHaveLinks("plain [text] and (parens) ] ( [ [".utf8))
        XCTAssertTrue(EntryLinks.mayHaveLinks("a [[b]]".utf8))
        XCTAssertTrue(EntryLinks.mayHaveLinks("[a](b)".utf8))
        XCTAssertTrue(EntryLinks.mayHaveLinks("[a]\n\n[a]: b.md".utf8))
    }

    func testHTMLMakesWikiLinksIntoLinksAndLeavesOthersAsText() {
        let html = Markdown.html("a [[x|label]] b [[y]] `[[x]]`\n", wiki: { dest, label in
            dest == "x" ? ("/entries/X", label.isEmpty ? "Title" : label) : nil
        })
        XCTAssertEqual(html, "<p>a <a href=\"/entries/X\">label</a> b [[y]] <code>[[x]]</code></p>\n")
        let broken = Markdown.html("[gone](a.md) ![pic](b.png)\n", target: { _, _ in .some(nil) })
        XCTAssertEqual(broken, "<p><span class=\"broken-link\">gone</span> <span class=\"broken-link\">pic</span></p>\n")
    }

    func testTheIndexNamesEachEntryThatLinksToAnother() throws {
        let a = "\(dir)/2026-11-05-0900-a.md", b = "\(dir)/2026-11-06-0900-b.md"
        try "---\ndate: 2026-11-05T09:00:00+01:00\n---\n[[2026-11-02]] and [[2026-11-02-2230-login|again]] and [[2026-11-05-0900-a]]\n"
            .write(to: diary.url(a), atomically: false, encoding: .utf8)
        try "---\ndate: 2026-11-06T09:00:00+01:00\n---\n[it](2026-11-02-2230-login.md)\n".write(to: diary.url(b), atomically: false, encoding: .utf8)
        var d: [Diagnostic] = []
        let index = LinkIndex(diary.loadEntries(diagnostics: &d, bodies: false), links: EntryLinks(diary))
        XCTAssertEqual(index.backlinks["\(dir)/2026-11-02-2230-login.md"]?.map(\.from), [a, a, b])
        XCTAssertEqual(index.linking(to: "\(dir)/2026-11-02-2230-login.md"), [a, b])
        XCTAssertNil(index.backlinks[a], "a link of an entry to itself is no backlink")
        XCTAssertEqual(index.backlinks["\(dir)/2026-11-02-2230-login.md"]?.first?.link.range.line, 4)
    }
}
