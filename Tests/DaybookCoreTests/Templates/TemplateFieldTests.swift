// Field validation for every type: answers typed at a prompt, values read from an entry, and declarations.
import XCTest
@testable import DaybookCore

final class TemplateFieldTests: XCTestCase {
    /// A template with one field declared as `declaration` (YAML flow mapping).
    func field(_ declaration: String) throws -> TemplateField {
        let t = try Template.parse("---\nfields:\n  f: \(declaration)\n---\nbody\n", name: "t", origin: .builtin, path: "t.md")
        return try XCTUnwrap(t.fields.first)
    }

    func reason(_ declaration: String, answer: String) throws -> String? {
        do { _ = try field(declaration).value(fromAnswer: answer); return nil } catch let r as FieldRejection { return r.reason }
    }

    func testText() throws {
        let f = try field("{type: text, min: 2, max: 5}")
        XCTAssertEqual(try f.value(fromAnswer: " abc "), .string("abc"))
        XCTAssertEqual(try reason("{type: text, min: 2, max: 5}", answer: "a"), "shorter than 2 characters (1)")
        XCTAssertEqual(try reason("{type: text, min: 2, max: 5}", answer: "abcdef"), "longer than 5 characters (6)")
        XCTAssertNil(f.reason(rejecting: .int(101)), "YAML reads `room: 101` as a number; it is still text")
        XCTAssertEqual(f.reason(rejecting: .bool(true)), "must be text, not `true`")
        XCTAssertEqual(f.reason(rejecting: .string("ÄÖÜ")), nil, "length counts characters, not bytes")
    }

    func testNumberTakesIntegersDecimalsAndTheUnit() throws {
        let f = try field("{type: number, unit: min, min: 0, max: 600}")
        XCTAssertEqual(try f.value(fromAnswer: "45"), .int(45))
        XCTAssertEqual(try f.value(fromAnswer: "45 min"), .int(45))
        XCTAssertEqual(try f.value(fromAnswer: "2.5"), .double(2.5))
        XCTAssertEqual(try f.value(fromAnswer: "2,5"), .double(2.5))
        XCTAssertEqual(try reason("{type: number, unit: min, min: 0, max: 600}", answer: "700"), "700 is above the maximum 600 min")
        XCTAssertEqual(try reason("{type: number, min: 0}", answer: "-1"), "-1 is below the minimum 0")
        XCTAssertEqual(try reason("{type: number}", answer: "lots"), "`lots` is not a number")
        XCTAssertEqual(try reason("{type: number}", answer: "nan"), "`nan` is not a number")
        XCTAssertEqual(f.reason(rejecting: .string("45")), "must be a number, not `45`", "quoted in YAML is text, not a number")
    }

    func testIntegerIsAWholeNumberWithLimitsAndUnit() throws {
        let f = try field("{type: integer, min: 0, max: 40, unit: cigarettes}")
        XCTAssertEqual(try f.value(fromAnswer: "12"), .int(12))
        XCTAssertEqual(try f.value(fromAnswer: "12 cigarettes"), .int(12))
        XCTAssertEqual(try reason("{type: integer}", answer: "2.5"), "`2.5` is not a whole number")
        XCTAssertEqual(try reason("{type: integer, max: 40}", answer: "41"), "41 is above the maximum 40")
        XCTAssertEqual(f.reason(rejecting: .double(2.5)), "must be a whole number, not `2.5`")
        XCTAssertEqual(f.hint, "0–40 cigarettes")
        XCTAssertThrowsError(try field("{type: integer, min: 0.5}"))
    }

    func testTimeIsATimeOfDayWrittenZeroPadded() throws {
        let f = try field("{type: time, default: \"8:00\"}")
        XCTAssertEqual(f.defaultValue, .string("08:00"))
        XCTAssertEqual(try f.value(fromAnswer: "9:15"), .string("09:15"))
        XCTAssertEqual(try f.value(fromAnswer: "14:05:30"), .string("14:05:30"))
        XCTAssertEqual(try reason("{type: time}", answer: "25:00"), "`25:00` is not a time of day (HH:MM)")
        XCTAssertEqual(try reason("{type: time}", answer: "noon"), "`noon` is not a time of day (HH:MM)")
        XCTAssertNil(f.reason(rejecting: .int(840)), "an unquoted 14:00 is 840 to YAML, and still a time")
        XCTAssertNil(f.reason(rejecting: .string("14:00")))
        XCTAssertEqual(f.reason(rejecting: .string("2026-11-28")), "must be a time of day (HH:MM), not `2026-11-28`")
        XCTAssertEqual(f.hint, "HH:MM")
    }

    func testScaleIsWholeNumbersInRange() throws {
        let f = try field("{type: scale, min: 1, max: 10}")
        XCTAssertEqual(try f.value(fromAnswer: "10"), .int(10))
        XCTAssertEqual(try reason("{type: scale, min: 1, max: 10}", answer: "11"), "11 is off the scale 1–10")
        XCTAssertEqual(try reason("{type: scale, min: 1, max: 10}", answer: "0"), "0 is off the scale 1–10")
        XCTAssertNotNil(try reason("{type: scale, min: 1, max: 10}", answer: "7.5"))
        XCTAssertEqual(f.reason(rejecting: .double(7.5)), "must be a whole number on the scale 1–10, not `7.5`")
    }

    func testChoiceIsOneOption() throws {
        let f = try field("{type: choice, options: [enjoyment, sadness]}")
        XCTAssertEqual(try f.value(fromAnswer: "Sadness"), .string("sadness"), "written as the option is declared")
        XCTAssertEqual(try reason("{type: choice, options: [enjoyment, sadness]}", answer: "bored"), "`bored` is not one of enjoyment, sadness (nor their numbers 1–2)")
        XCTAssertEqual(f.reason(rejecting: .array([.string("sadness")])), "must be one of enjoyment, sadness, not a list")
    }

    /// Issue 43: a typed answer may be the option's number or an unambiguous start of its name;
    /// a value read from an entry file must still be the option itself.
    func testChoiceTakesANumberOrAnUnambiguousStart() throws {
        let f = try field("{type: choice, options: [enjoyment, sadness, surprise, fear]}")
        XCTAssertEqual(try f.value(fromAnswer: "2"), .string("sadness"))
        XCTAssertEqual(try f.value(fromAnswer: "4"), .string("fear"))
        XCTAssertEqual(try f.value(fromAnswer: "enj"), .string("enjoyment"))
        XCTAssertEqual(try f.value(fromAnswer: "SUR"), .string("surprise"))
        XCTAssertEqual(try reason("{type: choice, options: [enjoyment, sadness, surprise, fear]}", answer: "s"),
                       "`s` could be sadness or surprise: type more of it")
        XCTAssertEqual(try reason("{type: choice, options: [enjoyment, sadness, surprise, fear]}", answer: "5"),
                       "`5` is not one of enjoyment, sadness, surprise, fear (nor their numbers 1–4)")
        XCTAssertEqual(try reason("{type: choice, options: [enjoyment, sadness, surprise, fear]}", answer: "0"),
                       "`0` is not one of enjoyment, sadness, surprise, fear (nor their numbers 1–4)")
        XCTAssertEqual(f.reason(rejecting: .string("sad")), "`sad` is not one of enjoyment, sadness, surprise, fear")
        // An option that is a number is itself, never another option's position.
        let n = try field("{type: choice, options: ['3', '1', '2']}")
        XCTAssertEqual(try n.value(fromAnswer: "1"), .string("1"))
        XCTAssertEqual(f.hint, "1 enjoyment / 2 sadness / 3 surprise / 4 fear")
        let m = try field("{type: multi, options: [apple, avocado, pear]}")
        XCTAssertEqual(try m.value(fromAnswer: "3, ap"), .array([.string("pear"), .string("apple")]))
    }

    func testMultiIsSeveralOptionsSeparatedByCommas() throws {
        let f = try field("{type: multi, options: [a, b, c]}")
        XCTAssertEqual(try f.value(fromAnswer: "c, a,a"), .array([.string("c"), .string("a")]))
        XCTAssertNil(try f.value(fromAnswer: " , "))
        XCTAssertEqual(try reason("{type: multi, options: [a, b, c]}", answer: "a, d"), "`d` is not one of a, b, c (nor their numbers 1–3)")
        XCTAssertNil(f.reason(rejecting: .string("b")), "a single option written without a list is one item")
        XCTAssertEqual(f.reason(rejecting: .array([.string("a"), .int(4)])), "`4` is not one of a, b, c")
    }

    func testDate() throws {
        let f = try field("{type: date}")
        XCTAssertEqual(try f.value(fromAnswer: "2026-12-01"), .string("2026-12-01"))
        XCTAssertEqual(try reason("{type: date}", answer: "2026-02-30"), "`2026-02-30` is not a date (YYYY-MM-DD)")
        XCTAssertEqual(try reason("{type: date}", answer: "tomorrow"), "`tomorrow` is not a date (YYYY-MM-DD)")
        XCTAssertNil(f.reason(rejecting: .string("2026-12-01T10:00:00+01:00")))
        XCTAssertNotNil(f.reason(rejecting: .string("2026-12-01 and more")))
        XCTAssertNotNil(f.reason(rejecting: .int(2026)))
    }

    func testBool() throws {
        let f = try field("{type: bool}")
        XCTAssertEqual(try f.value(fromAnswer: "Yes"), .bool(true))
        XCTAssertEqual(try f.value(fromAnswer: "n"), .bool(false))
        XCTAssertEqual(try reason("{type: bool}", answer: "maybe"), "`maybe` is not yes or no")
        XCTAssertEqual(f.reason(rejecting: .string("yes")), "must be true or false, not `yes`")
    }

    func testRequiredAndEmptyAnswers() throws {
        let f = try field("{type: text, required: true}")
        XCTAssertEqual(f.reason(rejecting: nil), "required, but missing")
        XCTAssertEqual(f.reason(rejecting: .null), "required, but missing")
        XCTAssertNil(try f.value(fromAnswer: "   "), "an empty answer is no value, not empty text")
        XCTAssertNil(try field("{type: text}").reason(rejecting: nil))
    }

    func testDefaultsAreTypedAndChecked() throws {
        XCTAssertEqual(try field("{type: scale, min: 1, max: 5, default: 3}").defaultValue, .int(3))
        XCTAssertEqual(try field("{type: multi, options: [a, b], default: [b]}").defaultValue, .array([.string("b")]))
        XCTAssertEqual(try field("{type: bool, default: yes}").defaultValue, .bool(true))
        XCTAssertThrowsError(try field("{type: scale, min: 1, max: 5, default: 9}")) { e in
            XCTAssertEqual((e as? DaybookError)?.message, "field `f`: the default 9 is off the scale 1–5")
        }
    }

    func testShortFormIsJustTheType() throws {
        XCTAssertEqual(try field("bool").kind, .bool)
    }

    func testBadDeclarationsNameTheLine() throws {
        func error(_ declaration: String) -> DaybookError? {
            do { _ = try field(declaration); return nil } catch { return error as? DaybookError }
        }
        XCTAssertEqual(error("{type: colour}")?.message, "field `f`: unknown type `colour` (one of text, number, integer, scale, choice, multi, date, time, bool)")
        XCTAssertEqual(error("{type: colour}")?.location?.line, 3)
        XCTAssertEqual(error("{type: text, maxx: 3}")?.message, "field `f`: unknown key `maxx` (known: type, required, default, prompt, min, max, unit, options, when, help, placeholder)")
        XCTAssertEqual(error("{prompt: x}")?.message.hasPrefix("field `f` has no `type`"), true)
        XCTAssertEqual(error("{type: scale, min: 1}")?.message, "field `f`: a scale needs `min` and `max`")
        XCTAssertEqual(error("{type: choice}")?.message, "field `f`: a choice field needs `options`")
        XCTAssertEqual(error("{type: number, min: 5, max: 1}")?.message, "field `f`: `min` is larger than `max`")
        XCTAssertEqual(error("{type: number, min: lots}")?.message, "field `f`: `min` must be a number")
        XCTAssertEqual(error("{type: text, unit: cm}")?.message, "field `f`: `unit` applies to number and integer fields")
        XCTAssertEqual(error("{type: text, options: [a]}")?.message, "field `f`: `options` applies to choice and multi fields")
        XCTAssertEqual(error("{type: bool, required: maybe}")?.message, "field `f`: `required` must be true or false")
        XCTAssertEqual(error("[text]")?.message, "field `f`: write `{type: text, …}` or just the type")
    }

    func testReservedAndMoodFields() throws {
        XCTAssertThrowsError(try Template.parse("---\nfields:\n  date: {type: date}\n---\n", name: "t", origin: .builtin, path: "t.md"))
        XCTAssertThrowsError(try Template.parse("---\nfields:\n  mood: {type: number}\n---\n", name: "t", origin: .builtin, path: "t.md"))
        XCTAssertNoThrow(try Template.parse("---\nfields:\n  mood: {type: scale, min: 1, max: 10}\n---\n", name: "t", origin: .builtin, path: "t.md"))
    }
}
