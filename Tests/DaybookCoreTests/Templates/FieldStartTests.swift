// What a form starts a field with: the entry's value, the declared default, or nothing (issue 41).
import XCTest
@testable import DaybookCore

final class FieldStartTests: XCTestCase {
    let template = """
    ---
    fields:
      energy: {type: scale, min: 1, max: 7}
      calm: {type: scale, min: 1, max: 7, default: 3}
      slept_well: bool
      place: {type: choice, options: [home, ward]}
      mood: {type: scale, min: 1, max: 5}
    ---
    body

    """

    func fields() throws -> [String: TemplateField] {
        let t = try Template.parse(template, name: "study", origin: .builtin, path: "study.md")
        return Dictionary(uniqueKeysWithValues: t.fields.map { ($0.name, $0) })
    }

    func entry(_ frontMatter: String) throws -> Entry {
        let text = "---\ndate: 2026-11-21T12:00:00+01:00\n\(frontMatter)---\nx\n"
        let outcome = EntryParser(config: DiaryConfig()).parse(Data(text.utf8), relativePath: "entries/2026/11/2026-11-21-1200-x.md",
                                                                displayPath: "x.md")
        return try XCTUnwrap(outcome.entry, "\(outcome.problems)")
    }

    /// A new entry: no midpoint, no false, no first option; only what the template declares.
    func testANewEntryStartsUnansweredButForDeclaredDefaults() throws {
        let f = try fields()
        XCTAssertNil(f["energy"]?.startingValue(in: nil))
        XCTAssertNil(f["slept_well"]?.startingValue(in: nil))
        XCTAssertNil(f["place"]?.startingValue(in: nil))
        XCTAssertEqual(f["calm"]?.startingValue(in: nil), .int(3))
    }

    /// An entry being edited: its own answers, and nothing (not the default) where it has none.
    func testAnEditStartsWithTheEntrysAnswersOnly() throws {
        let f = try fields()
        let e = try entry("energy: 5\nslept_well: false\nmood: 2\n")
        XCTAssertEqual(f["energy"]?.startingValue(in: e), .int(5))
        XCTAssertEqual(f["slept_well"]?.startingValue(in: e), .bool(false))
        XCTAssertEqual(f["mood"]?.startingValue(in: e), .int(2))
        XCTAssertNil(f["calm"]?.startingValue(in: e))
        XCTAssertNil(f["place"]?.startingValue(in: e))
    }

    /// A form may answer only the template's fields; with no template, none (issue 41).
    func testAnswersToUndeclaredFieldsAreRefused() throws {
        let t = try Template.parse(template, name: "study", origin: .builtin, path: "study.md")
        XCTAssertEqual(TemplateFill.unknownFields(t, answers: ["energy": "3", "salary": "1"]), ["salary": "not a field of template study"])
        XCTAssertEqual(TemplateFill.unknownFields(nil, answers: ["energy": "3"]).keys.sorted(), ["energy"])
        XCTAssertEqual(EntryRevision(fields: ["salary": "1"]).rejections(template: t), ["salary": "not a field of template study"])
        XCTAssertEqual(EntryRevision(fields: ["salary": "1"]).rejections(template: nil).keys.sorted(), ["salary"])
    }

    /// A text area's value without a final newline is saved with one, as `new` writes a body.
    func testARevisedBodyKeepsItsFinalNewline() throws {
        let e = try entry("")
        var text = try EntryText("---\ndate: 2026-11-21T12:00:00+01:00\n---\nx\n", path: "x.md")
        try EntryRevision(body: "Rewritten").apply(to: &text, entry: e, template: nil)
        XCTAssertTrue(text.text.hasSuffix("---\nRewritten\n"), text.text)
        var same = try EntryText("---\ndate: 2026-11-21T12:00:00+01:00\n---\nx\n", path: "x.md")
        try EntryRevision(body: "x").apply(to: &same, entry: e, template: nil)
        XCTAssertEqual(same.text, "---\ndate: 2026-11-21T12:00:00+01:00\n---\nx\n", "the same body without its newline changes nothing")
    }
}
