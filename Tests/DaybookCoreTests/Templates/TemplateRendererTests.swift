// Mustache rendering of a template's body: date, time, weekday, title, field values and the week's statistics.
import XCTest
@testable import DaybookCore

final class TemplateRendererTests: XCTestCase {
    let saturday = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 9 * 3600 + 5 * 60, offset: 3600)

    func template(_ body: String) throws -> Template {
        try Template.parse("---\ndescription: x\n---\n" + body, name: "t", origin: .diary("templates/t.md"), path: "templates/t.md")
    }

    func render(_ body: String, title: String? = nil, fields: [(String, JSONValue)] = [], week: WeekSummary? = nil) throws -> String {
        let fallback = WeekSummary(entries: [], endingOn: saturday.day)
        return try TemplateRenderer.render(try template(body), date: saturday, title: title, fields: fields) { week ?? fallback }
    }

    func testVariables() throws {
        XCTAssertEqual(try render("{{weekday}}, {{date}}, {{time}}: {{title}}\n", title: "Ward 3"), "Saturday, 2026-11-21, 09:05: Ward 3\n")
        XCTAssertEqual(try render("[{{title}}]\n"), "[]\n")
    }

    func testValuesAreNotHTMLEscaped() throws {
        XCTAssertEqual(try render("{{title}}\n", title: "Tom & <Jerry> \"quoted\""), "Tom & <Jerry> \"quoted\"\n")
    }

    func testFieldValuesByName() throws {
        let out = try render("{{mood}}/{{feelings}}/{{#late}}late{{/late}}\n", fields: [("mood", .int(7)), ("feelings", .array([.string("a"), .string("b")])), ("late", .bool(true))])
        XCTAssertEqual(out, "7/a, b/late\n")
    }

    func testWeekSection() throws {
        var week = WeekSummary(entries: [], endingOn: saturday.day)
        week.entries = 3
        week.words = 120
        week.tags = [.init(name: "fieldwork", entries: 2), .init(name: "interview", entries: 1)]
        week.moodAverage = 3.5
        week.previousMoodAverage = 2.25
        let body = """
        {{#week}}
        {{from}}–{{to}}: {{entries}} entries, {{words}} words
        {{#mood}}
        mood {{average}} (before {{last_week}}, {{change}})
        {{/mood}}
        tags: {{#tags}}{{name}} ({{entries}}){{^last()}}, {{/last()}}{{/tags}}
        {{^empty(codes)}}
        codes!
        {{/empty(codes)}}
        {{/week}}

        """
        XCTAssertEqual(try render(body, week: week), """
        2026-11-15–2026-11-21: 3 entries, 120 words
        mood 3.5 (before 2.2, +1.3)
        tags: fieldwork (2), interview (1)

        """)
    }

    func testTheWeekIsOnlyComputedWhenUsed() throws {
        var computed = false
        _ = try TemplateRenderer.render(try template("{{date}}\n"), date: saturday, title: nil, fields: []) {
            computed = true
            return WeekSummary(entries: [], endingOn: self.saturday.day)
        }
        XCTAssertFalse(computed)
        XCTAssertTrue(TemplateRenderer.mentionsWeek("{{# week}}x{{/week}}"))
        XCTAssertTrue(TemplateRenderer.mentionsWeek("{{week.words}}"))
        XCTAssertFalse(TemplateRenderer.mentionsWeek("{{weekday}}"))
    }

    func testBadMustacheNamesTheTemplateLine() throws {
        XCTAssertThrowsError(try render("line one\n{{#week}} never closed\n")) { e in
            let error = e as? DaybookError
            XCTAssertEqual(error?.location?.path, "templates/t.md")
            XCTAssertTrue(error?.message.hasPrefix("the template text is not valid Mustache") == true, "\(e)")
        }
        XCTAssertThrowsError(try render("{{#a}}x{{/b}}\n")) { e in
            XCTAssertEqual((e as? DaybookError)?.location?.line, 4)
        }
    }
}
