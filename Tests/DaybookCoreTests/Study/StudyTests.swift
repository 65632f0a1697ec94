// study.yml parsing (errors with their line), choosing and grouping participants, adherence, codes per participant.
import XCTest
@testable import DaybookCore

final class StudyTests: XCTestCase {
    let yml = """
    name: Night shift
    protocol: {goal: [mon, wed, fri], start: 2026-11-02, end: 2026-11-15}
    participants:
      p01:
        diary: ../diaries/p01
        attributes: {site: Leeds, condition: control, age: 24, consented: true}
      p02:
        diary: git://127.0.0.1/p02
        branch: trunk
        attributes:
          site: York
          condition: intervention
      p-03.b: alice@example.org:diaries/p03.git

    """

    func err(_ text: String) -> DaybookError? {
        do { _ = try Study.parse(text, path: "study.yml"); return nil } catch { return error as? DaybookError }
    }

    func testParsesEveryKey() throws {
        var s = try Study.parse(yml, path: "study.yml")
        s.folder = URL(fileURLWithPath: "/studies/night")
        XCTAssertEqual(s.name, "Night shift")
        XCTAssertEqual(s.goal, .days([2, 4, 6]))
        XCTAssertEqual(s.start, LocalDay(year: 2026, month: 11, day: 2))
        XCTAssertEqual(s.end, LocalDay(year: 2026, month: 11, day: 15))
        XCTAssertEqual(s.participants.map(\.id), ["p01", "p02", "p-03.b"])
        XCTAssertEqual(s.participants[0].attributes.map(\.key), ["site", "condition", "age", "consented"])
        XCTAssertEqual(s.participants[0].attribute("age"), .int(24))
        XCTAssertEqual(s.participants[0].attribute("consented"), .bool(true))
        XCTAssertEqual(s.participants[1].branch, "trunk")
        XCTAssertEqual(s.participants[1].location.line, 7)
        XCTAssertEqual(s.attributeNames, ["site", "condition", "age", "consented"])
        // A path is taken from the study folder; URLs and user@host:path stay as written.
        XCTAssertEqual(s.source(of: s.participants[0]), "/studies/diaries/p01")
        XCTAssertEqual(s.source(of: s.participants[1]), "git://127.0.0.1/p02")
        XCTAssertEqual(s.source(of: s.participants[2]), "alice@example.org:diaries/p03.git")
        XCTAssertEqual(s.copy(of: s.participants[2]).path, "/studies/night/participants/p-03.b")
    }

    func testErrorsNameTheLineAndWhatIsWrong() {
        let cases: [(String, Int, String)] = [
            ("participantz: {}\n", 1, "unknown key `participantz` in study.yml (did you mean `participants`?)"),
            ("participants:\n  p01:\n    diary: x\n    atributes: {a: 1}\n", 4, "(did you mean `attributes`?)"),
            ("participants:\n  p01: {branch: main}\n", 2, "participant `p01` has no diary"),
            ("participants:\n  p01:\n    diary: x\n    attributes: {a: [1, 2]}\n", 4, "attribute `a` must be one value"),
            ("participants:\n  .hidden: x\n", 2, "participant id `.hidden` must be"),
            ("participants:\n  a/b: x\n", 2, "participant id `a/b` must be"),
            ("protocol: {goal: sometimes}\nparticipants: {p: x}\n", 1, "protocol.goal must be daily"),
            ("protocol:\n  start: 2026-13-01\nparticipants: {p: x}\n", 2, "protocol.start must be a date"),
            ("protocol: {start: 2026-11-10, end: 2026-11-01}\nparticipants: {p: x}\n", 1, "is before protocol.start"),
            ("name: x\n", 1, "names no participant"),
            ("participants:\n  p01: x\n  p01: y\n", 2, "appears twice"),
            ("participants: [p01\n", 1, "invalid YAML"), // where the `[` opens (issue 39)
        ]
        for (text, line, message) in cases {
            let e = err(text)
            XCTAssertEqual(e?.kind, .input, text)
            XCTAssertEqual(e?.location?.path, "study.yml", text)
            XCTAssertEqual(e?.location?.line, line, text)
            XCTAssertTrue(e?.message.contains(message) == true, "\(text): \(e?.message ?? "no error")")
        }
    }

    func testSelectingAndGroupingParticipants() throws {
        let s = try Study.parse(yml, path: "study.yml")
        XCTAssertEqual(try s.select(ids: [], conditions: [FieldCondition("site=leeds")]).map(\.id), ["p01"])
        XCTAssertEqual(try s.select(ids: [], conditions: [FieldCondition("condition")]).map(\.id), ["p01", "p02"])
        XCTAssertEqual(try s.select(ids: [], conditions: [FieldCondition("age>=30")]).map(\.id), [])
        XCTAssertEqual(try s.select(ids: [], conditions: [FieldCondition("site!=York")]).map(\.id), ["p01", "p-03.b"])
        XCTAssertEqual(try s.select(ids: ["p02", "p01"], conditions: []).map(\.id), ["p01", "p02"])
        XCTAssertThrowsError(try s.select(ids: ["p1"], conditions: [])) { e in
            XCTAssertTrue((e as? DaybookError)?.message.contains("did you mean `p01`") == true)
        }
        let groups = Study.groups(s.participants, by: "condition")
        XCTAssertEqual(groups.map(\.value), ["control", "intervention", Study.noValue])
        XCTAssertEqual(groups.map { $0.members.map(\.id) }, [["p01"], ["p02"], ["p-03.b"]])
    }

    func testAdherenceCountsTheDaysTheGoalAsksFor() throws {
        let d = { (n: Int) in LocalDay(year: 2026, month: 11, day: n)! }
        // Mon 2 … Sun 15 November 2026; mon/wed/fri asks for 2, 4, 6, 9, 11, 13.
        let written: Set<LocalDay> = [d(2), d(3), d(4), d(9), d(11), d(13), d(20)]
        let a = Adherence(written: written, goal: .days([2, 4, 6]), period: d(2)...d(15))
        XCTAssertEqual(a.asked, 6)
        XCTAssertEqual(a.kept, 5)
        XCTAssertEqual(a.written, 6)  // the 20th is after the period
        XCTAssertEqual(a.rate, 5.0 / 6.0)
        // Streaks as `daybook streak` counts them, as of the period's last day: 6 missed breaks the first run.
        XCTAssertEqual(a.streak?.longest, StreakRun(days: 3, start: d(9), end: d(13)))
        XCTAssertEqual(a.streak?.current?.days, 3)
        let none = Adherence(written: [], goal: .daily, period: nil)
        XCTAssertEqual(none.asked, 0)
        XCTAssertNil(none.rate)
        var s = try Study.parse(yml, path: "study.yml")
        XCTAssertEqual(s.period(first: d(5), today: d(10)), d(2)...d(10))
        s.start = nil; s.end = nil
        XCTAssertEqual(s.period(first: d(5), today: d(10)), d(5)...d(10))
        XCTAssertNil(s.period(first: nil, today: d(10)))
        XCTAssertNil(s.period(first: d(12), today: d(10)))
    }

    func testCodesPerParticipantAddUpToTheTotals() {
        func entry(_ codes: String) -> Entry {
            EntryParser(config: DiaryConfig()).parse(Data("---\ndate: 2026-11-02\ncodes: \(codes)\n---\nx y\n".utf8),
                                                     relativePath: "entries/2026/11/x.md", displayPath: "x").entry!
        }
        let table = StudyCodeTable([
            ("p01", [entry("[{code: trust, coder: ann}, {code: fear, quote: x, coder: ann}, {code: fear, quote: y}]")]),
            ("p02", [entry("[{code: fear, coder: bob}]"), entry("[]")]),
            ("p03", []),
        ])
        XCTAssertEqual(table.participants, ["p01", "p02", "p03"])
        XCTAssertEqual(table.rows.map(\.total.code), ["fear", "trust"])
        XCTAssertEqual(table.rows[0].total.codings, 3)
        XCTAssertEqual(table.rows[0].total.entries, 2)
        XCTAssertEqual(table.rows[0].total.coders, ["ann", "bob"])
        XCTAssertEqual(table.rows.map(\.codings), [[2, 1, 0], [1, 0, 0]])
    }

    func testCodebooksMergeFirstDefinitionWins() {
        var a = Codebook(codes: [Codebook.Code(name: "emotions", children: [Codebook.Code(name: "fear", color: "#ff0000")])])
        a.merge(Codebook(codes: [Codebook.Code(name: "fear", color: "#00ff00", children: [Codebook.Code(name: "panic")]),
                                 Codebook.Code(name: "work", children: [Codebook.Code(name: "shift")])]))
        XCTAssertEqual(a.allCodes, ["emotions", "fear", "work", "shift"])
        XCTAssertEqual(a.color(of: "fear"), "#ff0000")
    }

    func testVariableTypes() {
        XCTAssertEqual(REFIXML.variableType([.int(3), .int(4), .null]), "Integer")
        XCTAssertEqual(REFIXML.variableType([.int(3), .double(4.5)]), "Float")
        XCTAssertEqual(REFIXML.variableType([.bool(true), .bool(false)]), "Boolean")
        XCTAssertEqual(REFIXML.variableType([.int(3), .string("n/a")]), "Text")
        XCTAssertEqual(REFIXML.variableType([]), "Text")
    }
}
