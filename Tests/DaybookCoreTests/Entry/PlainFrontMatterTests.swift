// The fast reader of one-line `key: value` front matter must give what Yams gives, entry for
// entry and problem for problem: a generated property test over values chosen to be awkward.
import XCTest
@testable import DaybookCore
import Yams

final class PlainFrontMatterTests: XCTestCase {
    /// Values that look alike but read differently in YAML 1.1 (booleans, nulls, numbers in bases,
    /// sexagesimal times, dates), text with indicators inside, and lines the fast reader must leave
    /// to Yams (comments, escapes, tabs, trailing blanks, `: ` inside, line breaks YAML knows).
    static let values = [
        "plain words", "Procedure meeting role", "yes", "No", "ON", "off", "y", "n", "true", "False", "null", "Null", "~",
        "1", "-3", "+7", "012", "0x1F", "0o17", "0b101", "1_000", "1e3", "3.14", ".inf", "-.Inf", ".NaN", "12:30", "190:20:30",
        "2024-01-01", "2026-11-21T10:30:00+01:00", "2026-11-21 10:30", "a, b", "it's", "say \"hi\"", "x#y", "x #y", "a: b",
        "a:b", "ends with colon:", "trailing ", "\ttab", "-dash", "- item", "*alias", "&anchor x", "!tag x", "|", ">", "%x",
        "@at", "`tick`", "?q", "[a, b]", "[]", "[yes, 2, a-b/c, Éte]", "[a,b]", "[a, ]", "[a b]", "[\"q\"]", "{a: 1}",
        "\"quoted\"", "\"yes\"", "\"12\"", "\"\"", "\"esc\\n\"", "\"a\" b", "'single'", "'it''s'", "Über café", "日本語の日記",
        "emoji 🙂 ok", "nel\u{85}x", "ls\u{2028}x", "bom\u{FEFF}x", "c1\u{90}x", "del\u{7F}x",
    ]
    static let keys = ["date", "title", "tags", "mood", "template", "codes", "energy", "location", "yes", "Weather", "a-b", "x_1", "title"]

    func testAgreesWithYamsOnGeneratedFrontMatter() {
        var rng = SplitMix64(seed: 20261123)
        var fast = 0, left = 0
        let parser = EntryParser(config: DiaryConfig())
        for n in 0..<4000 {
            var lines: [String] = []
            if rng.next() % 8 != 0 { lines.append("date: 2026-11-\(10 + Int(rng.next() % 18))T0\(rng.next() % 10):15:00+01:00") }
            for _ in 0..<Int(rng.next() % 5) {
                let key = PlainFrontMatterTests.keys[Int(rng.next() % UInt64(PlainFrontMatterTests.keys.count))]
                var value = PlainFrontMatterTests.values[Int(rng.next() % UInt64(PlainFrontMatterTests.values.count))]
                if key == "mood", rng.next() % 2 == 0 { value = String(rng.next() % 12) }
                if key == "tags", rng.next() % 2 == 0 { value = "[fieldwork, ward-3/night]" }
                lines.append("\(key): \(value)")
            }
            if rng.next() % 3 == 0 { lines += PlainFrontMatterTests.block(&rng) }
            if rng.next() % 10 == 0 { lines.shuffle(using: &rng) }
            let ending = rng.next() % 5 == 0 ? "\r\n" : "\n"
            let text = "---" + ending + lines.map { $0 + ending }.joined() + "---" + ending + "Body with #inline tag and words.\n"
            let doc: EntryText
            do { doc = try EntryText(text, path: "e.md") } catch { XCTFail("\(error)"); continue }
            if PlainFrontMatter.compose(doc) != nil { fast += 1 } else { left += 1 }
            EntryParser.plainFrontMatter = true
            let a = parser.parse(doc, relativePath: "entries/2026/11/e\(n).md", displayPath: "e.md")
            EntryParser.plainFrontMatter = false
            let b = parser.parse(doc, relativePath: "entries/2026/11/e\(n).md", displayPath: "e.md")
            EntryParser.plainFrontMatter = true
            XCTAssertEqual(summary(a), summary(b), "front matter:\n\(lines.joined(separator: "\n"))")
        }
        // The test means something only if both readers were used many times.
        XCTAssertGreaterThan(fast, 1000)
        XCTAssertGreaterThan(left, 1000)
    }

    /// A block list as `codes:` (or any key) is written: plain or quoted items, mappings of a
    /// coding's keys indented under `- `, and the mistakes (a key twice, a deeper line, a blank).
    static func block(_ rng: inout SplitMix64) -> [String] {
        var lines = [["codes:", "tags:", "people:", "codes: "][Int(rng.next() % 4)]]
        for _ in 0..<Int(rng.next() % 4) {
            let quote = values[Int(rng.next() % UInt64(values.count))]
            switch rng.next() % 6 {
            case 0: lines.append("  - " + ["trust", "care", "\"quoted\"", "yes", "time-pressure", "a: b", "12"][Int(rng.next() % 7)])
            case 1: lines += ["  - code: trust", "    quote: \(quote)", "    coder: mp"]
            case 2: lines += ["  - code: relief", "    occurrence: \(rng.next() % 3)", "    memo: \"why\""]
            case 3: lines += ["  - code: care", "    code: trust"]
            case 4: lines += ["  - code: care", [" ", "      deeper: x", "- top", "  -", "    quote:"][Int(rng.next() % 5)]]
            default: lines += ["  - quote: \(quote)", "    code: bias/observer"]
            }
        }
        return lines
    }

    func testReadsNumbersAsYamsDoes() {
        for text in ["0", "7", "-12", "012", "-0", "00", "1_000", "123456789012345678", "1234567890123456789", "+5", "1.5", "0x1F", "12:30", "-", ""] {
            let s = Node.Scalar(text, Yams.Tag(.implicit), .plain)
            let node = Node.scalar(s)
            let yams: JSONValue = node.null != nil ? .null : node.bool.map(JSONValue.bool) ?? node.int.map(JSONValue.int)
                ?? node.float.map(JSONValue.double) ?? .string(text)
            XCTAssertEqual(YAML.scalarValue(s), yams, text)
        }
    }

    func testReadsTheValuesAsYamsDoes() throws {
        let doc = try EntryText("---\ndate: 2026-11-21T10:30:00+01:00\ntitle: \"yes\"\nflag: yes\nn: 012\nt: 12:30\nnone: null\ntags: [a, B]\n---\n", path: "e.md")
        let root = try XCTUnwrap(PlainFrontMatter.compose(doc))
        guard case let .map(m) = root else { return XCTFail("not a mapping") }
        let values = m.map { $0.1.value }
        XCTAssertEqual(values, [.string("2026-11-21T10:30:00+01:00"), .string("yes"), .bool(true), .int(10), .int(750), .null,
                                .array([.string("a"), .string("B")])])
    }

    func testLeavesOtherYAMLToYams() throws {
        for yaml in ["a: b # note", "a:\n- x", "a:\n  - x\n   y", "a:\n\n  - x", "a: \"x\\ty\"", "a: 'x'", "a: x ", "\"a\": x", "a: {b: 1}", "# comment", "a: [x,y]", "a:  x"] {
            let doc = try EntryText("---\n\(yaml)\n---\n", path: "e.md")
            XCTAssertNil(PlainFrontMatter.compose(doc), yaml)
        }
    }

    /// What a parse gave, as text: the entry's JSON and its other numbers, or each problem with its place.
    private func summary(_ o: EntryParser.Outcome) -> String {
        if let e = o.entry {
            return e.json().serialized() + " words=\(e.words) line=\(e.bodyStartLine) inline=\(e.inlineTags)"
        }
        return o.problems.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }.joined(separator: "\n")
    }
}

/// The byte reader of daybook's own date form must agree with the reader of every form.
final class CanonicalDateTests: XCTestCase {
    func testAgreesWithTheGeneralReader() {
        var rng = SplitMix64(seed: 7)
        let zone = TimeZone(identifier: "Europe/Vienna")!
        let pieces = ["2026", "1999", "0000", "-", "11", "02", "13", "29", "30", "31", "00", "T", "t", " ", ":", "23", "24", "59",
                      "60", "+", "01", "18", "19", "Z", "z", ".5", "x", "٣", "1"]
        var canonical = 0
        for n in 0..<20000 {
            var s: String
            if n % 4 == 0 {
                // daybook's own form with values drawn across their whole ranges.
                let two = { (limit: UInt64) in String(format: "%02d", Int(rng.next() % limit)) }
                s = "\(1900 + rng.next() % 200)-\(two(13))-\(two(32))T\(two(25)):\(two(61)):\(two(61))"
                    + (rng.next() % 5 == 0 ? "Z" : "\(rng.next() % 2 == 0 ? "+" : "-")\(two(20)):\(two(61))")
            } else if n % 2 == 0 {
                // Near daybook's form: each field drawn from values in and out of range.
                let f = { (a: [String]) in a[Int(rng.next() % UInt64(a.count))] }
                s = f(["2026", "1999", "2024", "0000", "20x6"]) + "-" + f(["11", "02", "13", "00"]) + "-" + f(["21", "29", "30", "31", "00"])
                    + f(["T", "T", "t", " "]) + f(["00", "09", "23", "24"]) + ":" + f(["00", "30", "59", "60"]) + ":" + f(["00", "59", "60"])
                    + f(["+01:00", "-05:30", "+18:00", "+19:00", "+01:60", "Z", "z", "+0100", "", "+01:00 "])
            } else {
                s = (0..<Int(rng.next() % 12)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            }
            if LocalDateTime.canonical(s) != nil { canonical += 1 }
            let fast = LocalDateTime.parseNotingClockChange(s, timeZone: zone)
            let general = LocalDateTime.parseAnyForm(s, timeZone: zone)
            XCTAssertEqual(fast?.time, general?.time, s)
            XCTAssertEqual(fast?.note == nil, general?.note == nil, s)
        }
        XCTAssertGreaterThan(canonical, 1000)
    }
}

/// Tags told from ASCII bytes must be the tags Unicode's properties give.
final class TagCharacterTests: XCTestCase {
    func testASCIIAgreesWithUnicodeProperties() {
        for v in 0..<0x80 {
            let u = Unicode.Scalar(UInt8(v))
            let general = u.properties.isAlphabetic || CharacterSet.decimalDigits.contains(u) || u == "_" || u == "-" || u == "/"
            XCTAssertEqual(Tag.isTagCharacter(u), general, "U+\(String(v, radix: 16))")
        }
        for s in ["Ward", " ward ", "#Ward", "\u{A0}ward", "wárd", "\tward", "ward\n", ""] {
            XCTAssertEqual(Tag.normalize(s), {
                var t = s.trimmingCharacters(in: .whitespaces)
                if t.hasPrefix("#") { t.removeFirst() }
                return t.lowercased()
            }(), s.debugDescription)
        }
    }
    /// The byte test for `//` must answer as Foundation's search of the String does.
    func testDoubleSlashAgreesWithTheStringSearch() {
        var rng = SplitMix64(seed: 11)
        let pieces = ["/", "/", "a", "é", "\u{301}", "\u{93E}", "//", "x/y", "\u{200D}", "🧪"]
        for _ in 0..<20000 {
            let s = (0..<Int(rng.next() % 8)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            XCTAssertEqual(DaybookCore.Tag.hasDoubleSlash(s), s.contains("//"), s.debugDescription)
        }
    }

    /// A text `mayBeBool` turns away is never one Yams reads as a boolean.
    func testBoolPrecheckNeverTurnsAwayAYamsBoolean() {
        var rng = SplitMix64(seed: 12)
        let pieces = ["t", "T", "r", "u", "e", "E", "y", "Y", "s", "o", "O", "n", "N", "f", "F", "a", "l", "\u{130}", "K", "\u{212A}", "1", " "]
        var booleans = 0
        for n in 0..<30000 {
            let s = n < 12 ? ["true", "TRUE", "Yes", "oN", "off", "No", "FALSE", "yES", "y", "n", "tru", "falsey"][n]
                : (0..<Int(rng.next() % 7)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let node = Node.scalar(Node.Scalar(s, Yams.Tag(.implicit), .plain))
            if node.bool != nil { booleans += 1; XCTAssertTrue(YAML.mayBeBool(s), s) }
            if !YAML.mayBeBool(s) { XCTAssertFalse(YAML.isBool(node), s) }
        }
        XCTAssertGreaterThan(booleans, 20)
    }
}
