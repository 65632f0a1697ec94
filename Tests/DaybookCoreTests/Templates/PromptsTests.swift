// Prompts: prompts.md read line by line and by template, and one prompt a day rotating without repeats.
import XCTest
@testable import DaybookCore

final class PromptsTests: XCTestCase {
    let ten = (1...10).map { "Prompt \($0)?" }

    func testEveryPromptOnceInACycle() {
        for n in [3, 7, 10, 28] {
            let prompts = Array(ten.prefix(n)) + (n > 10 ? (11...n).map { "Prompt \($0)?" } : [])
            // Cycles of n days, starting at a multiple of n, some before 1970.
            for cycle in [-3, 0, 1, 2, 700, 20_000 / n] {
                let days = (0..<n).map { LocalDay(ordinal: cycle * n + $0) }
                let used = days.compactMap { PromptList.prompt(on: $0, from: prompts) }
                XCTAssertEqual(used.count, n)
                XCTAssertEqual(Set(used).count, n, "a repeat within cycle \(cycle) of \(n): \(used)")
            }
        }
    }

    func testTwoDaysInARowDiffer() {
        for n in [2, 3, 4, 10, 28] {
            let prompts = (1...n).map { "P\($0)" }
            for d in -60..<2000 {
                XCTAssertNotEqual(PromptList.prompt(on: LocalDay(ordinal: d), from: prompts),
                                  PromptList.prompt(on: LocalDay(ordinal: d + 1), from: prompts), "days \(d) and \(d + 1) of \(n)")
            }
        }
    }

    func testTheOrderChangesFromCycleToCycle() {
        let orders = Set((0..<20).map { PromptList.order(cycle: $0, count: 10) })
        XCTAssertGreaterThan(orders.count, 15)
    }

    func testTheSamePromptAllDay() throws {
        let body = "---\ntemplate: t\n---\n> {{prompt}}\n"
        let t = try Template.parse(body, name: "t", origin: .diary("templates/t.md"), path: "templates/t.md")
        let day = LocalDay(year: 2026, month: 11, day: 23)!
        let week = WeekSummary(entries: [], endingOn: day)
        let texts = Set(try [0, 3600 * 9, 3600 * 23 + 3599].map { second in
            try TemplateRenderer.render(t, date: LocalDateTime(day: day, secondOfDay: second, offset: 3600), title: nil, fields: [],
                                        prompts: { self.ten }) { week }
        })
        XCTAssertEqual(texts.count, 1)
        let text = try XCTUnwrap(texts.first)
        XCTAssertTrue(ten.contains { text == "> \($0)\n" }, text)
        let tomorrow = try TemplateRenderer.render(t, date: LocalDateTime(day: day.adding(days: 1), secondOfDay: 0, offset: 3600), title: nil,
                                                   fields: [], prompts: { self.ten }) { week }
        XCTAssertNotEqual(tomorrow, text)
    }

    func testAFieldCalledPromptWins() throws {
        let t = try Template.parse("{{prompt}}", name: "t", origin: .builtin, path: "builtin:t.md")
        let day = LocalDay(year: 2026, month: 11, day: 23)!
        let out = try TemplateRenderer.render(t, date: LocalDateTime(day: day, secondOfDay: 0, offset: 0), title: nil,
                                              fields: [("prompt", .string("mine"))], prompts: { self.ten }) { WeekSummary(entries: [], endingOn: day) }
        XCTAssertEqual(out, "mine")
    }

    func testParsingGeneralAndPerTemplatePrompts() {
        let text = "# My prompts\n\n- First?\n* Second?\nThird?\n\n## memo\n- Memo one?\n\n## daily\n+ Daily one?\n- First?\n"
        let (list, problems) = PromptList.parse(text, path: "prompts.md")
        XCTAssertEqual(problems, [])
        XCTAssertEqual(list.general, ["First?", "Second?", "Third?"])
        XCTAssertEqual(list.byTemplate["memo"], ["Memo one?"])
        XCTAssertEqual(list.prompts(for: "memo"), ["First?", "Second?", "Third?", "Memo one?"])
        XCTAssertEqual(list.prompts(for: "daily"), ["First?", "Second?", "Third?", "Daily one?"], "a prompt listed twice counts once")
        XCTAssertEqual(list.headings.map(\.line), [7, 10])
    }

    func testOnlyPerTemplatePromptsLeaveOtherTemplatesTheBuiltIns() {
        let (list, _) = PromptList.parse("## memo\n- Memo one?\n", path: "prompts.md")
        XCTAssertEqual(list.prompts(for: "memo"), ["Memo one?"])
        XCTAssertEqual(list.prompts(for: "daily"), BuiltinPrompts.all)
        XCTAssertEqual(PromptList().prompts(for: "daily"), BuiltinPrompts.all)
    }

    func testABadHeadingIsAProblemAtItsLine() {
        let (list, problems) = PromptList.parse("- One?\n### deep\n- Lost?\n##\n## ok\n- Kept?\n", path: "prompts.md")
        XCTAssertEqual(problems.map(\.location?.line), [2, 4])
        XCTAssertEqual(problems.map(\.location?.path), ["prompts.md", "prompts.md"])
        XCTAssertEqual(list.general, ["One?"])
        XCTAssertEqual(list.byTemplate, ["ok": ["Kept?"]])
    }

    func testBuiltInPromptsAreManyAndDistinct() {
        XCTAssertGreaterThanOrEqual(BuiltinPrompts.all.count, 20)
        XCTAssertEqual(Set(BuiltinPrompts.all).count, BuiltinPrompts.all.count)
    }

    func testSplitMix64IsTheReferenceSequence() {
        // The first outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
        var g = SplitMix64(seed: 0)
        XCTAssertEqual(g.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(g.next(), 0x6E78_9E6A_A1B9_65F4)
    }
}
