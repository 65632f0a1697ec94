// Formats read bodies one entry at a time when they are given entries without them (a metadata cache).
import XCTest
@testable import DaybookCore

final class ExportContextTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false, folders: ["entries/2026/11"]) }
    var folder: URL { tmp }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try "name: Test\n".write(to: folder.appendingPathComponent("daybook.yml"), atomically: true, encoding: .utf8)
        for (id, body) in [("2026-11-20-0900-a", "first body\n"), ("2026-11-21-0900-b", "second body\n")] {
            try "---\ndate: \(id.prefix(10))T09:00:00+01:00\n---\n\(body)"
                .write(to: folder.appendingPathComponent("entries/2026/11/\(id).md"), atomically: true, encoding: .utf8)
        }
    }

    func testBodiesAreReadOneAtATimeWhenNotLoaded() throws {
        let diary = try fixture.open()
        var diags: [Diagnostic] = []
        let stripped = diary.loadEntries(diagnostics: &diags).map { e -> Entry in var e = e; e.body = ""; return e }
        // One entry disappears after it was listed: it is skipped with a warning, the rest is exported.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("entries/2026/11/2026-11-21-0900-b.md"))
        var done: [Int] = []
        let context = ExportContext(diary: diary, progress: { n, _ in done.append(n) })
        context.bodiesLoaded = false
        let out = StringSink()
        try JSONLinesExport().export(stripped, context: context, to: .stream(out))
        XCTAssertTrue(out.text.contains("\"body\":\"first body\\n\""), out.text)
        XCTAssertEqual(out.text.split(separator: "\n").count, 1)
        XCTAssertEqual(context.warnings.count, 1)
        XCTAssertEqual(done, [1, 2])
    }
}
