// `when:` conditions: the grammar, errors at the template's line, evaluation over answers, and the rules that follow from them.
import XCTest
@testable import DaybookCore

final class AskConditionTests: XCTestCase {
    let date = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 3600, offset: 0)

    static let smoking = """
        ---
        fields:
          smoked:
            type: bool
            required: true
          cigarettes:
            type: number
            min: 1
            required: true
            when: smoked == true
          place:
            type: choice
            options: [home, work, bar]
            when: smoked and cigarettes >= 5
          craving:
            type: scale
            min: 1
            max: 5
            when: not smoked
          mood:
            type: scale
            min: 1
            max: 10
          reason:
            type: text
            when: (mood <= 3 or mood in [9, 10]) and place != home
        ---
        Notes.

        """

    func smoking() throws -> Template {
        try Template.parse(Self.smoking, name: "smoking", origin: .diary("templates/smoking.md"), path: "templates/smoking.md")
    }

    /// The error a template with one extra field `f` whose `when` is `condition` gives (after a choice `a` of x, y and a number `n`).
    func error(_ condition: String) -> String? {
        let text = "---\nfields:\n  a:\n    type: choice\n    options: [x, y]\n  n:\n    type: number\n  f:\n    type: text\n    when: \"\(condition)\"\n---\n"
        do { _ = try Template.parse(text, name: "t", origin: .diary("templates/t.md"), path: "templates/t.md"); return nil } catch let e as DaybookError {
            return e.description
        } catch { return "\(error)" }
    }

    func testEveryOperatorParsesAndHolds() throws {
        let t = try smoking()
        func notAsked(_ answers: [String: JSONValue]) -> [String] {
            let skipped = t.fieldsNotAsked { answers[$0] }
            return t.fields.map(\.name).filter { skipped.contains($0) }
        }
        XCTAssertEqual(notAsked(["smoked": .bool(false)]), ["cigarettes", "place", "reason"], "a chain falls away: place needs cigarettes, reason needs place")
        XCTAssertEqual(notAsked(["smoked": .bool(true), "cigarettes": .int(4)]), ["place", "craving", "reason"])
        XCTAssertEqual(notAsked(["smoked": .bool(true), "cigarettes": .int(5), "place": .string("work"), "mood": .int(2)]), ["craving"])
        XCTAssertEqual(notAsked(["smoked": .bool(true), "cigarettes": .int(5), "place": .string("Home"), "mood": .int(2)]), ["craving", "reason"],
                       "options compare without case, as answers match them")
        XCTAssertEqual(notAsked(["smoked": .bool(true), "cigarettes": .double(5.5), "place": .string("bar"), "mood": .int(10)]), ["craving"])
        XCTAssertEqual(notAsked(["smoked": .bool(true), "cigarettes": .int(5), "place": .string("bar"), "mood": .int(5)]), ["craving", "reason"])
        XCTAssertEqual(notAsked([:]), ["cigarettes", "place", "reason"], "no answer: each comparison is false, `not smoked` holds")
    }

    func testAMissingAnswerMakesEveryComparisonFalseAndNotTrue() throws {
        let fields = try smoking().fields
        let none: (String) -> JSONValue? = { _ in nil }
        XCTAssertFalse(AskCondition.compare("cigarettes", .notEqual, .int(3)).holds(fields, answer: none), "`!=` with no answer is false too")
        XCTAssertTrue(AskCondition.not(.compare("cigarettes", .equal, .int(3))).holds(fields, answer: none))
        XCTAssertFalse(AskCondition.answered("place").holds(fields, answer: { _ in .string(" ") }), "blank text is no answer")
        XCTAssertTrue(AskCondition.answered("place").holds(fields, answer: { _ in .string("bar") }))
    }

    func testAMultiAnswerEqualsEachOptionChosen() throws {
        let t = try Template.parse("---\nfields:\n  symptoms:\n    type: multi\n    options: [cough, fever, none]\n  since:\n    type: date\n    when: symptoms in [cough, fever] and symptoms != none\n  seen:\n    type: bool\n    when: since < 2026-11-20\n---\n",
                                   name: "t", origin: .builtin, path: "t.md")
        XCTAssertEqual(t.fieldsNotAsked { ["symptoms": .array([.string("fever")]), "since": .string("2026-11-01")][$0] }, [])
        XCTAssertEqual(t.fieldsNotAsked { ["symptoms": .array([.string("fever")]), "since": .string("2026-11-25")][$0] }, ["seen"],
                       "dates compare as days")
        XCTAssertEqual(t.fieldsNotAsked { ["symptoms": .array([.string("none"), .string("cough")])][$0] }, ["since", "seen"])
    }

    func testTimesAndIntegersCompareInOrder() throws {
        let t = try Template.parse("---\nfields:\n  start:\n    type: time\n  lessons:\n    type: integer\n  lunch:\n    type: bool\n    when: start < 12:00 and lessons >= 3\n---\n",
                                   name: "t", origin: .builtin, path: "t.md")
        XCTAssertEqual(t.fieldsNotAsked { ["start": .string("09:15"), "lessons": .int(3)][$0] }, [])
        XCTAssertEqual(t.fieldsNotAsked { ["start": .int(14 * 60), "lessons": .int(4)][$0] }, ["lunch"], "an unquoted 14:00 read by YAML")
        XCTAssertEqual(t.fieldsNotAsked { ["start": .string("9:15"), "lessons": .int(2)][$0] }, ["lunch"])
    }

    func testErrorsNameTheTemplateLineAndWhatIsWrong() {
        XCTAssertEqual(error("a == z"), "templates/t.md:10:11: field `f`: `when: a == z`: `a` cannot be `z`: `z` is not one of x, y (nor their numbers 1–2)")
        XCTAssertEqual(error("zz > 3"), "templates/t.md:10:11: field `f`: `when: zz > 3`: `zz` is not a field asked before this one (earlier fields: a, n)")
        XCTAssertEqual(error("f == 1"), "templates/t.md:10:11: field `f`: `when: f == 1`: `f` is not a field asked before this one (earlier fields: a, n)")
        XCTAssertEqual(error("a < x"), "templates/t.md:10:11: field `f`: `when: a < x`: `<` compares numbers, integers, scales, dates and times; `a` is a choice field")
        XCTAssertEqual(error("n = 3"), "templates/t.md:10:11: field `f`: `when: n = 3`: `=` alone is not a comparison: write `==`")
        XCTAssertEqual(error("n > three"), "templates/t.md:10:11: field `f`: `when: n > three`: `n` cannot be `three`: `three` is not a number")
        XCTAssertEqual(error("(n > 3"), "templates/t.md:10:11: field `f`: `when: (n > 3`: expected `)`, found the end")
        XCTAssertEqual(error("a in [x, y"), "templates/t.md:10:11: field `f`: `when: a in [x, y`: expected `,` or `]`, found the end")
        XCTAssertEqual(error("n > 3 or"), "templates/t.md:10:11: field `f`: `when: n > 3 or`: expected a field's name, found the end")
        XCTAssertEqual(error("n > 3 n < 5"), "templates/t.md:10:11: field `f`: `when: n > 3 n < 5`: expected and, or or the end, found `n`")
        XCTAssertEqual(error("a == 'x"), "templates/t.md:10:11: field `f`: `when: a == 'x`: the quote ' before `x` is not closed")
        XCTAssertNil(error("not (a in (x) and n != 2.5) or a == 'y'"))
        XCTAssertNil(error("n"))
    }

    func testNewSkipsAFieldNotAskedAndRefusesAValueGivenForIt() throws {
        let t = try smoking()
        var asked: [String] = []
        var answers = ["no", "2", "7"]
        var d = EntryDraft(date: date, title: "Day")
        try TemplateFill.apply(t, to: &d, diaryMoodScale: 1...5) { field, _ in
            asked.append(field.name)
            return answers.removeFirst()
        }
        XCTAssertEqual(asked, ["smoked", "craving", "mood"], "cigarettes and place are not asked after no, nor reason, which needs place")
        XCTAssertEqual(d.fields.map(\.0), ["smoked", "craving"])
        XCTAssertEqual(d.mood, 7)

        d = EntryDraft(date: date, title: "Day")
        try d.setFields(["smoked=no", "cigarettes=4"])
        XCTAssertThrowsError(try TemplateFill.apply(t, to: &d, diaryMoodScale: 1...5, ask: nil)) { e in
            XCTAssertEqual((e as? DaybookError)?.message,
                           "--set cigarettes=4: field `cigarettes`: it is not asked, as `when: smoked == true` does not hold (template smoking)")
        }
        d = EntryDraft(date: date, title: "Day")
        try d.setFields(["smoked=no"])
        XCTAssertNoThrow(try TemplateFill.apply(t, to: &d, diaryMoodScale: 1...5, ask: nil), "a required field not asked is not missing")
    }

    func testAFormsAnswersToFieldsNotAskedAreNotCheckedNorKept() throws {
        let t = try smoking()
        let answers = ["smoked": "false", "cigarettes": "lots", "craving": "9"]
        XCTAssertEqual(TemplateFill.rejections(t, answers: answers), ["craving": "9 is off the scale 1–5"],
                       "cigarettes is hidden: neither its bad answer nor its being required counts")
        XCTAssertEqual(TemplateFill.answersAsked(t, answers: answers), ["smoked": "false", "craving": "9"])
        XCTAssertEqual(TemplateFill.rejections(t, answers: ["smoked": "true"]), ["cigarettes": "required, but missing"])
    }
}

final class FieldsAskedTests: DiaryTestCase {
    func testStatsAndCheckTellNotAskedFromNotAnswered() throws {
        try fixture.makeFolders("templates")
        try Data(AskConditionTests.smoking.utf8).write(to: fixture.url("templates/smoking.md"))
        for (i, sets) in [["smoked=no"], ["smoked=yes", "cigarettes=3"], ["smoked=yes", "cigarettes=6", "place=bar"]].enumerated() {
            var d = EntryDraft(date: LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 20 + i)!, secondOfDay: 3600, offset: 0), title: "Day \(i)")
            try d.setFields(sets)
            _ = try TemplateFill.prepare("smoking", diary: diary, draft: &d, ask: nil)
            d.body = "x"
            _ = try EntryWriter.commitNew(d, in: diary)
        }
        var problems: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &problems, bodies: false).sorted { $0.date < $1.date }
        var statistics = Statistics(diary: diary)
        statistics.fieldsAsked = FieldsAsked(diary: diary)
        let place = try XCTUnwrap(statistics.summary(entries, field: "place").field)
        XCTAssertEqual([place.entries, place.notAnswered, place.notAsked], [1, 0, 2])
        let craving = try XCTUnwrap(statistics.summary(entries, field: "craving").field)
        XCTAssertEqual([craving.entries, craving.notAnswered, craving.notAsked], [0, 1, 2], "asked once (after no), left empty")
        XCTAssertEqual(entries.map { FieldsAsked(diary: diary).notAsked(in: $0) },
                       [["cigarettes", "place", "reason"], ["place", "craving", "reason"], ["craving", "reason"]])

        // A hand edit answers a question that did not apply: check names the line and the condition.
        let first = entries[0].path
        var text = try XCTUnwrap(String(data: try XCTUnwrap(FileManager.default.contents(atPath: diary.url(first).path)), encoding: .utf8))
        text = text.replacingOccurrences(of: "smoked: false\n", with: "smoked: false\ncigarettes: 3\n")
        try Data(text.utf8).write(to: diary.url(first))
        let found = try TemplateFieldsCheck().problems(in: diary, entries: diary.loadEntries(diagnostics: &problems, bodies: false))
        XCTAssertEqual(found.map(\.description), [
            "\(first):6: field `cigarettes`: answered (`3`), but it is not asked, as `when: smoked == true` does not hold (template smoking)",
        ])
    }
}
