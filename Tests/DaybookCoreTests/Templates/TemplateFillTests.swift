// Filling a draft from a template: --set values, defaults, required fields, and answers asked for until they fit.
import XCTest
@testable import DaybookCore

final class TemplateFillTests: XCTestCase {
    let date = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 3600, offset: 0)

    func emotion() throws -> Template { try XCTUnwrap(try TemplateLibrary().template(named: "emotion")) }

    func draft(_ sets: [String]) throws -> EntryDraft {
        var d = EntryDraft(date: date, title: "Feeling")
        d.tags = ["evening"]
        try d.setFields(sets)
        return d
    }

    func testSetValuesAreTypedAndOrderedAsTheTemplateDeclaresThem() throws {
        var d = try draft(["extra=plain", "minutes=45 min", "feeling=Fear", "mood=7"])
        try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5, ask: nil)
        XCTAssertEqual(d.template, "emotion")
        XCTAssertEqual(d.tags, ["mood", "evening"])
        XCTAssertEqual(d.mood, 7)
        XCTAssertEqual(d.fields.map(\.0), ["feeling", "minutes", "extra"])
        XCTAssertEqual(d.fields.map(\.1), [.string("fear"), .int(45), .string("plain")])
        XCTAssertTrue(try d.text().contains("mood: 7\ntemplate: emotion\nfeeling: fear\nminutes: 45\nextra: plain\n"))
    }

    func testInvalidOrMissingValuesNameTheFieldWithoutATerminal() throws {
        func error(_ sets: [String]) throws -> String? {
            var d = try draft(sets)
            do { try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5, ask: nil); return nil } catch let e as DaybookError {
                XCTAssertEqual(e.kind, .usage)
                return e.message
            }
        }
        XCTAssertEqual(try error(["mood=11"]), "--set mood=11: field `mood`: 11 is off the scale 1–10 (template emotion)")
        XCTAssertEqual(try error(["mood=5", "feeling=bored"]), "--set feeling=bored: field `feeling`: `bored` is not one of enjoyment, sadness, anger, fear, disgust, surprise (nor their numbers 1–6) (template emotion)")
        XCTAssertEqual(try error(["mood=5", "emotion=" + String(repeating: "x", count: 41)])?.contains("longer than 40 characters (41)"), true)
        XCTAssertEqual(try error([]), "field `mood` is required by template emotion: give it with --set mood=VALUE (1–10)")
        XCTAssertNil(try error(["mood=1"]))
        // Every value that does not fit is said at once, in the template's order, not only the first.
        XCTAssertEqual(try error(["minutes=lots", "mood=11", "feeling=bored"]), """
            3 fields do not fit template emotion; nothing saved:
              --set mood=11: field `mood`: 11 is off the scale 1–10 (template emotion)
              --set feeling=bored: field `feeling`: `bored` is not one of enjoyment, sadness, anger, fear, disgust, surprise (nor their numbers 1–6) (template emotion)
              --set minutes=lots: field `minutes`: `lots` is not a number (template emotion)
            """)
        XCTAssertEqual(try error(["minutes=lots"]), """
            2 fields do not fit template emotion; nothing saved:
              field `mood` is required by template emotion: give it with --set mood=VALUE (1–10)
              --set minutes=lots: field `minutes`: `lots` is not a number (template emotion)
            """)
    }

    func testYAMLSetValuesMeetTheFieldTypes() throws {
        var d = try draft(["mood=7", "feeling=enjoyment", "emotion=yes", "minutes=12.5"])
        try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5, ask: nil)
        XCTAssertEqual(d.mood, 7)
        XCTAssertEqual(d.fields.map(\.1), [.string("enjoyment"), .string("yes"), .double(12.5)], "a text field keeps `yes` as typed")
        func error(_ sets: [String]) throws -> String? {
            var d = try draft(sets)
            do { try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5, ask: nil); return nil } catch let e as DaybookError { return e.message }
        }
        XCTAssertEqual(try error(["mood=7", "feeling=[enjoyment, fear]"]),
                       "--set feeling=[enjoyment, fear]: field `feeling`: must be one of enjoyment, sadness, anger, fear, disgust, surprise, not a list (template emotion)")
        XCTAssertEqual(try error(["mood=7", "minutes={a: 1}"]), "--set minutes={a: 1}: field `minutes`: must be a number, not a mapping (template emotion)")
        XCTAssertEqual(try error(["mood=7", "minutes=\"12\""]), nil, "a quoted number is still a number's text")
    }

    func testAListFillsAMultiField() throws {
        let multi = try Template.parse("---\nfields:\n  feelings: {type: multi, options: [joy, fear]}\n---\n", name: "m", origin: .diary("templates/m.md"), path: "m.md")
        var d = try draft(["feelings=[Joy, fear, joy]"])
        try TemplateFill.apply(multi, to: &d, diaryMoodScale: 1...5, ask: nil)
        XCTAssertEqual(d.fields.first?.1, .array([.string("joy"), .string("fear")]))
        d = try draft(["feelings=[joy, anger]"])
        XCTAssertThrowsError(try TemplateFill.apply(multi, to: &d, diaryMoodScale: 1...5, ask: nil))
    }

    func testDefaultsFillFieldsNotGiven() throws {
        let planning = try XCTUnwrap(try TemplateLibrary().template(named: "planning"))
        var d = EntryDraft(date: date, title: nil)
        try TemplateFill.apply(planning, to: &d, diaryMoodScale: 1...5, ask: nil)
        XCTAssertEqual(d.fields.map(\.0), ["horizon"])
        XCTAssertEqual(d.fields.first?.1, .string("week"))
    }

    func testAMoodOutsideATemplatesFieldsKeepsTheDiarysScale() throws {
        let memo = try XCTUnwrap(try TemplateLibrary().template(named: "memo"))
        var d = try draft(["mood=7"])
        XCTAssertThrowsError(try TemplateFill.apply(memo, to: &d, diaryMoodScale: 1...5, ask: nil))
        d = try draft(["mood=4"])
        XCTAssertNoThrow(try TemplateFill.apply(memo, to: &d, diaryMoodScale: 1...5, ask: nil))
    }

    func testAskingRepeatsUntilTheAnswerFits() throws {
        var answers = ["11", "", "7", "bored", "Anger", "", ""]
        var asked: [(String, String?)] = []
        var d = try draft(["minutes=lots"])
        try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5) { field, rejection in
            asked.append((field.name, rejection?.reason))
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        XCTAssertEqual(asked.map(\.0), ["mood", "mood", "mood", "feeling", "feeling", "emotion", "minutes"])
        XCTAssertEqual(asked.map(\.1), [nil, "11 is off the scale 1–10", "required, but missing", nil,
                                        "`bored` is not one of enjoyment, sadness, anger, fear, disgust, surprise (nor their numbers 1–6)", nil, "`lots` is not a number"])
        XCTAssertEqual(d.mood, 7)
        XCTAssertEqual(d.fields.map(\.0), ["feeling"], "empty answers leave optional fields out")
    }

    func testValidSetValuesAreNotAskedAgainAndEndOfInputStops() throws {
        var d = try draft(["mood=3", "feeling=fear", "emotion=calm", "minutes=5"])
        try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5) { field, _ in
            XCTFail("asked for \(field.name)")
            return nil
        }
        d = try draft([])
        XCTAssertThrowsError(try TemplateFill.apply(try emotion(), to: &d, diaryMoodScale: 1...5) { _, _ in nil }) { e in
            XCTAssertEqual((e as? DaybookError)?.message, "no answer for field `mood` (input ended); nothing saved")
        }
    }
}
