// No read goes through a symbolic link in the diary, and no commit daybook makes adds one (issue 41).
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class SymbolicLinkTests: DiaryTestCase {
    let rel = "entries/2026/11/2026-11-21-1200-visit.md"
    /// A file outside the diary, which a link would give away.
    var secret: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        secret = tmp.appendingPathComponent("secret.txt")
        try "root:x:0:0:SECRET\n".write(to: secret, atomically: true, encoding: .utf8)
        let change = try Change(diary)
        try change.write("---\ndate: 2026-11-21T12:00:00+01:00\ntitle: Visit\n---\nThe ward.\n", to: rel)
        try change.commit("new: Visit")
    }

    func link(_ rel: String, to target: URL) {
        XCTAssertEqual(symlink(target.path, diary.url(rel).path), 0)
    }

    func assertRefusal(_ error: Error, naming link: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let e = error as? DaybookError else { return XCTFail("not a DaybookError: \(error)", file: file, line: line) }
        XCTAssertEqual(e.message, Diary.symbolicLinkMessage, file: file, line: line)
        XCTAssertEqual(e.location?.path, diary.displayPath(link), file: file, line: line)
        XCTAssertFalse(e.description.contains("SECRET"), file: file, line: line)
    }

    func testFileBytesRefusesALinkAsTheFileOrOnTheWay() throws {
        XCTAssertEqual(try diary.fileBytes(rel).map { String(decoding: $0.dropLast(), as: UTF8.self) }?.hasSuffix("The ward.\n"), true)
        XCTAssertNil(try diary.fileBytes("entries/2026/11/none.md"))
        let ink = StrokeFile.path(ofEntry: rel)
        link(ink, to: secret)
        XCTAssertThrowsError(try diary.fileBytes(ink)) { assertRefusal($0, naming: ink) }
        // A folder on the way that leads out: the month folder moved away and linked back.
        let outside = tmp.appendingPathComponent("outside-month")
        try FileManager.default.moveItem(at: diary.url("entries/2026/11"), to: outside)
        link("entries/2026/11", to: outside)
        XCTAssertThrowsError(try diary.fileBytes(rel)) { assertRefusal($0, naming: "entries/2026/11") }
        XCTAssertEqual(diary.readEntry(rel).problems.first?.message, Diary.symbolicLinkMessage)
        XCTAssertNil(diary.readEntry(rel).entry)
        XCTAssertThrowsError(try diary.entryBody(rel)) { assertRefusal($0, naming: "entries/2026/11") }
    }

    func testALinkedStrokeFileGivesAnEntryNoInk() throws {
        link(StrokeFile.path(ofEntry: rel), to: secret)
        let outcome = diary.readEntry(rel)
        XCTAssertEqual(outcome.entry?.title, "Visit")
        XCTAssertFalse(outcome.entry?.hasInk ?? true)
    }

    func testALinkedCodebookOrTemplateIsRefused() throws {
        link("codebook.yml", to: secret)
        XCTAssertThrowsError(try Codebook.load(diary)) { assertRefusal($0, naming: "codebook.yml") }
        try FileManager.default.createDirectory(at: diary.templatesFolder, withIntermediateDirectories: true)
        link("templates/visit.md", to: secret)
        XCTAssertThrowsError(try TemplateLibrary(diary: diary).template(named: "visit")) { assertRefusal($0, naming: "templates/visit.md") }
    }

    /// The modes of HEAD's tree, as git lists them.
    func modes() throws -> [String: String] {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", diary.root.path, "ls-tree", "-r", "HEAD"]
        let pipe = Pipe()
        git.standardOutput = pipe
        try git.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        var modes: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            modes[String(parts[1])] = String(parts[0].split(separator: " ")[0])
        }
        return modes
    }

    func testLinksMadeOutsideAreLeftOutOfEveryCommitAndSaid() throws {
        var notices: [Diagnostic] = []
        let before = Change.notice
        Change.notice = { notices.append($0) }
        defer { Change.notice = before }
        let ink = StrokeFile.path(ofEntry: rel)
        link(ink, to: secret)
        // Beside it, an edit by hand, which is committed as usual.
        try "---\ndate: 2026-11-21T12:00:00+01:00\ntitle: Visit\n---\nThe ward, by hand.\n".write(to: diary.url(rel), atomically: true, encoding: .utf8)
        // A new folder holding a file and a link: the folder is staged by libgit2's walk.
        try FileManager.default.createDirectory(at: diary.url("entries/2026/11/2026-11-21-1200-visit"), withIntermediateDirectories: true)
        try "a photo".write(to: diary.url("entries/2026/11/2026-11-21-1200-visit/photo.png"), atomically: true, encoding: .utf8)
        link("entries/2026/11/2026-11-21-1200-visit/passwd.png", to: secret)
        let change = try Change(diary)
        XCTAssertNotNil(change.outsideCommit)
        try change.write("---\ndate: 2026-11-22T09:00:00+01:00\n---\nNext day.\n", to: "entries/2026/11/2026-11-22-0900-next.md")
        try change.commit("new: next")
        let tree = try modes()
        XCTAssertFalse(tree.values.contains("120000"), "\(tree)")
        XCTAssertNil(tree[ink])
        XCTAssertNil(tree["entries/2026/11/2026-11-21-1200-visit/passwd.png"])
        XCTAssertEqual(tree["entries/2026/11/2026-11-21-1200-visit/photo.png"], "100644")
        XCTAssertEqual(tree["entries/2026/11/2026-11-22-0900-next.md"], "100644")
        XCTAssertEqual(change.linksLeftOut.sorted(), [ink, "entries/2026/11/2026-11-21-1200-visit/passwd.png"].sorted())
        XCTAssertEqual(notices.compactMap(\.location?.path).sorted(), change.linksLeftOut.map(diary.displayPath).sorted())
        XCTAssertTrue(notices.allSatisfy { $0.message.contains("symbolic link, left out of the commit") })
        let message = try History.log(diary.repository())[1].commit.message
        XCTAssertTrue(message.hasPrefix("edit outside daybook:"), message)
        XCTAssertFalse(message.contains("strokes.json"), message)
        // A file that becomes a link keeps its committed version.
        try FileManager.default.removeItem(at: diary.url("entries/2026/11/2026-11-22-0900-next.md"))
        link("entries/2026/11/2026-11-22-0900-next.md", to: secret)
        _ = try Change(diary).commit("nothing")
        XCTAssertEqual(try modes()["entries/2026/11/2026-11-22-0900-next.md"], "100644")
    }
}
