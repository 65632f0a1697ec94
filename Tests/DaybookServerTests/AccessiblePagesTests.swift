// The pages' markup for assistive technology: a coding's name, fields tied to their labels and reasons.
import DaybookCore
@testable import DaybookServer
import XCTest

final class AccessiblePagesTests: XCTestCase {
    func testACodingIsNamedByItsCodeAndWhereItStartsAndEnds() {
        XCTAssertEqual(EntryPage.name(of: Coding(code: "frustration", quote: "login failed again")),
                       "code frustration: from “login” to “again”")
        XCTAssertEqual(EntryPage.name(of: Coding(code: "x", quote: "one two three four five six seven")),
                       "code x: from “one two three” to “five six seven”")
        XCTAssertEqual(EntryPage.name(of: Coding(code: "x", quote: "  alone\n")), "code x: “alone”")
        XCTAssertEqual(EntryPage.name(of: Coding(code: "x")), "code x: the whole entry")
        XCTAssertEqual(EntryPage.name(of: Coding(code: "x", source: .ink(stroke: 2))), "code x: highlighter stroke 3")
    }

    func testEachFieldIsLabelledAndDescribedAndAGroupHasALegend() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Diary.create(at: folder, name: nil)
        let diary = try Diary.open(folder, environment: ["DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "TZ": "Europe/Vienna"], workingDirectory: folder)
        var minutes = TemplateField(name: "minutes", kind: .number)
        minutes.max = 600
        var feeling = TemplateField(name: "feeling", kind: .choice)
        feeling.options = ["joy", "fear"]
        feeling.prompt = "General feeling"
        let page = EntryFormPage(diary: diary, entry: nil, version: nil, template: nil, startingBody: "")
        let number = page.field(minutes)
        XCTAssertTrue(number.contains("<label for=\"f-minutes\">minutes</label> <input id=\"f-minutes\" aria-describedby=\"f-minutes-error\" type=\"number\""), number)
        XCTAssertTrue(number.contains("<span class=\"field-error\" id=\"f-minutes-error\"></span>"), number)
        XCTAssertFalse(number.contains("role=\"alert\""), "one status region per page, not one per field")
        let group = page.field(feeling)
        XCTAssertTrue(group.contains("<fieldset class=\"options\" id=\"f-feeling\" aria-describedby=\"f-feeling-error\"><legend>General feeling</legend>"), group)
        XCTAssertFalse(group.hasPrefix("<div class=\"control\" data-field=\"feeling\"><label"), "the group is not inside a label")
        let form = page.html()
        XCTAssertTrue(form.contains("<label for=\"f-date\">When</label>"), form)
        XCTAssertTrue(form.contains("<span class=\"field-error\" id=\"f-date-error\"></span>"), "a bad When has a place for its reason")
        XCTAssertEqual(EntryFormPage.id("a b/ö"), "f-a_b__")
    }
}
