// Template files: front matter, the built-ins shipped as resources, and a diary's own templates overriding them.
import XCTest
@testable import DaybookCore

final class TemplateLibraryTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(create: false) }
    var folder: URL { tmp }

    func testEveryBuiltinParsesAndTheSpecOnesAreThere() throws {
        let names = TemplateLibrary.builtinNames
        for n in ["memo", "methodological", "theoretical", "planning", "daily", "emotion", "weekly-review"] {
            XCTAssertTrue(names.contains(n), n)
        }
        let library = TemplateLibrary()
        for n in names {
            let t = try XCTUnwrap(try library.template(named: n))
            XCTAssertEqual(t.origin, .builtin)
            XCTAssertNotNil(t.description, n)
            XCTAssertFalse(t.body.isEmpty, n)
        }
    }

    func testEmotionIsTheSpecExample() throws {
        let t = try XCTUnwrap(try TemplateLibrary().template(named: "emotion"))
        XCTAssertEqual(t.tags, ["mood"])
        XCTAssertEqual(t.fields.map(\.name), ["mood", "feeling", "emotion", "minutes"])
        XCTAssertEqual(t.fields.map(\.kind), [.scale, .choice, .text, .number])
        XCTAssertEqual(t.field("mood")?.required, true)
        XCTAssertEqual(t.field("emotion")?.max, 40)
        XCTAssertEqual(t.field("minutes")?.unit, "min")
        XCTAssertEqual(t.body, "## What happened?\n\n")
        XCTAssertEqual(t.bodyStartLine, 11)
    }

    func testTheTopLevelTemplatesFolderIsTheBuiltinFolder() throws {
        // `templates/` in the repository is a symlink to the resources, so the readable copies cannot drift.
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try FileManager.default.contentsOfDirectory(atPath: repo.appendingPathComponent("templates").path).sorted()
        XCTAssertEqual(shipped, TemplateLibrary.builtinNames.map { $0 + ".md" })
        for name in shipped {
            let readable = try String(contentsOf: repo.appendingPathComponent("templates/" + name), encoding: .utf8)
            XCTAssertEqual(try TemplateLibrary().template(named: String(name.dropLast(3)))?.text, readable)
        }
    }

    func testTheDiarysTemplateOverridesTheBuiltin() throws {
        try "---\ntemplate: daily\ndescription: mine\n---\nMY OWN DAILY PROMPT\n".write(to: folder.appendingPathComponent("daily.md"), atomically: true, encoding: .utf8)
        try "Just a body, no front matter.\n".write(to: folder.appendingPathComponent("plain.md"), atomically: true, encoding: .utf8)
        let library = TemplateLibrary(folder: folder)
        let daily = try XCTUnwrap(try library.template(named: "daily"))
        XCTAssertEqual(daily.origin, .diary("templates/daily.md"))
        XCTAssertEqual(daily.body, "MY OWN DAILY PROMPT\n")
        XCTAssertEqual(try library.template(named: "memo")?.origin, .builtin)
        XCTAssertEqual(try library.template(named: "plain")?.body, "Just a body, no front matter.\n")
        XCTAssertTrue(library.allNames.contains("plain"))
        XCTAssertEqual(library.allNames.filter { $0 == "daily" }.count, 1)
    }

    func testUnknownAndUnsafeNames() throws {
        let library = TemplateLibrary(folder: folder)
        XCTAssertNil(try library.template(named: "nope"))
        XCTAssertThrowsError(try library.require("dayly")) { e in
            XCTAssertTrue((e as? DaybookError)?.message.hasPrefix("no template `dayly` (did you mean `daily`?)") == true, "\(e)")
        }
        XCTAssertThrowsError(try library.template(named: "../daybook")) { e in
            XCTAssertEqual((e as? DaybookError)?.kind, .usage)
        }
    }

    func testBrokenTemplatesNameFileAndLine() throws {
        func error(_ text: String) -> DaybookError? {
            do { _ = try Template.parse(text, name: "t", origin: .diary("templates/t.md"), path: "templates/t.md"); return nil } catch { return error as? DaybookError }
        }
        XCTAssertEqual(error("---\ntemplate: other\n---\n")?.message, "`template: other` does not match the file name t.md")
        let unknown = error("---\ndescription: x\ntagz: [a]\n---\n")
        XCTAssertEqual(unknown?.message, "unknown key `tagz` in a template (known: template, description, tags, fields, append_under) (did you mean `tags`?)")
        XCTAssertEqual(unknown?.location, SourceLocation(path: "templates/t.md", line: 3, column: 1))
        XCTAssertEqual(error("---\ntags: [a b]\n---\n")?.message, "`a b` is not a tag: use letters, digits, _, - and /")
        XCTAssertEqual(error("---\nfields: [a]\n---\n")?.message, "`fields` must be a mapping of field names to their types")
        XCTAssertEqual(error("---\nfields: {\n---\n")?.location?.path, "templates/t.md")
        XCTAssertEqual(error("---\ndescription: x\n")?.message, "the front matter is not closed by a line `---`")
    }

    func testABrokenDiaryTemplateIsAProblemNotAnAbort() throws {
        try "---\nfields: {x: {type: nope}}\n---\n".write(to: folder.appendingPathComponent("broken.md"), atomically: true, encoding: .utf8)
        var problems: [Diagnostic] = []
        let all = TemplateLibrary(folder: folder).all(problems: &problems)
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.location?.line, 2)
        XCTAssertFalse(all.contains { $0.name == "broken" })
        XCTAssertTrue(all.contains { $0.name == "memo" })
    }

    func testMoodScalesComeFromTheTemplate() throws {
        let scales = TemplateMoodScales(folder: folder)
        XCTAssertEqual(scales.scale(of: "emotion"), 1...10)
        XCTAssertNil(scales.scale(of: "memo"))
        XCTAssertNil(scales.scale(of: "gone"))
    }
}
