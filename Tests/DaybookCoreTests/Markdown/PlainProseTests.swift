// Prose counted without a Markdown tree must equal prose counted from cmark's tree: a generated
// property test over text made of words, punctuation and the markup that must send it to cmark.
import XCTest
@testable import DaybookCore

final class PlainProseTests: XCTestCase {
    static let pieces = [
        "word", "Ward", "night", "café", "日記", "don't", "it's.", "end.", "(aside)", "\"said\"", "50%", "$3", "a/b", "e.g.",
        "1", "2.", "3)", "-", "+", "=", "---", "===", "*", "**bold**", "_it_", "`code`", "#tag", "#12", "[link](x)", "<b>",
        "&amp;", "\\*", "|", "~~x~~", "user@example.org", "www.example.org", "WWW.x.org", "http://x.org", ":", "!", "?",
        "\u{A0}", "\t", "  ", "\r", "\u{3000}", "—", "…",
        // `#`: a tag, a heading, or text (the plain reader keeps the first and the last).
        "#", "# ", "#\n", "##x", "#tag-", "#tag/x/", "a#b", "#1a", "#Über", "#-x", "#_x", "#x#y", "#\t", "#\u{A0}x", "#é",
        "(#paren)", "#Tag.", "#tag,", "#日記", "#\r\n", "x#", "#x\\y",
    ]

    func testAgreesWithTheTree() {
        var rng = SplitMix64(seed: 19)
        var plain = 0, tree = 0
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) {
                let r = rng.next() % 10
                if r == 0 { text += "\n" } else if r == 1 { text += "\n\n" } else if r < 6 { text += " " }
                if rng.next() % 3 == 0 {
                    text += PlainProseTests.pieces[Int(rng.next() % UInt64(PlainProseTests.pieces.count))]
                } else {
                    text += ["Around", "system", "nurse", "quiet", "chart", "we", "Über", "la"][Int(rng.next() % 8)]
                }
            }
            let fromTree = Prose(document: Markdown.parse(text))
            let quick = Prose(markdown: text)
            if Prose.plain(text) != nil { plain += 1 } else { tree += 1 }
            XCTAssertEqual(quick.words, fromTree.words, text.debugDescription)
            XCTAssertEqual(quick.firstHeading, fromTree.firstHeading, text.debugDescription)
            XCTAssertEqual(quick.inlineTags, fromTree.inlineTags, text.debugDescription)
        }
        // Both ways were taken many times, or the test shows nothing.
        XCTAssertGreaterThan(plain, 500)
        XCTAssertGreaterThan(tree, 500)
    }

    /// `scanTags` reads bytes; the rule it states, over the text's characters, is this one.
    static func referenceTags(_ s: String) -> [String] {
        var tags: [String] = [], seen = Set<String>()
        let scalars = Array(s.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "#" else { i += 1; continue }
            let prevOK = i == 0 || !(DaybookCore.Tag.isTagCharacter(scalars[i - 1]) || scalars[i - 1] == "#" || scalars[i - 1] == "&")
            var j = i + 1
            while j < scalars.count, DaybookCore.Tag.isTagCharacter(scalars[j]) { j += 1 }
            while j > i + 1, scalars[j - 1] == "/" || scalars[j - 1] == "-" { j -= 1 }
            if prevOK, j > i + 1 {
                let name = String(String.UnicodeScalarView(scalars[(i + 1)..<j])).lowercased()
                if name.unicodeScalars.contains(where: { !CharacterSet.decimalDigits.contains($0) }), DaybookCore.Tag.isValid(name),
                   seen.insert(name).inserted { tags.append(name) }
            }
            i = max(j, i + 1)
        }
        return tags
    }

    func testTagsFromBytesFollowTheRuleOverCharacters() {
        var rng = SplitMix64(seed: 23)
        let pieces = ["#", "#", "##", "tag", "Tag", "12", "/", "-", "_", "&", " ", "\n", "é", "e\u{301}", "日記", "٣", "🙂", "\u{A0}",
                      "\u{93E}", "x", ".", "İ", "ß", "#/", "#-"]
        var found = 0
        for _ in 0..<20000 {
            let text = (0..<Int(rng.next() % 14)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            var tags: [String] = [], seen = Set<String>()
            Prose.scanTags(text, into: &tags, seen: &seen)
            XCTAssertEqual(tags, PlainProseTests.referenceTags(text), text.debugDescription)
            found += tags.count
        }
        XCTAssertGreaterThan(found, 1000)
    }

    func testSendsMarkupToTheTree() {
        for text in ["a *b*", "# H", "H\n===", "H\n---", "- item", "1. one", "    code", "see www.x.org", "a@b.org", "a & b", "a\\b",
                     "x #", "#\nx", "## x", "x ##tag", "#\tx", "x #\r\n", "a\n\r\tcode"] {
            XCTAssertNil(Prose.plain(text), text)
        }
        XCTAssertEqual(Prose.plain("Met #Fieldwork and #night/shift, #1 and a#b.\n\n#again #fieldwork")?.inlineTags, ["fieldwork", "night/shift", "again"])
        XCTAssertEqual(Prose.plain("Plain words, (here) too.\n\nTwo paragraphs!")?.words, 6)
    }

    /// The eight-bytes-at-once test must say of every byte, at every lane, what a test of the one
    /// byte says: the bytes around each range's ends, and every byte value at each lane.
    func testEightBytesAtOnceAgreeWithOneByteAtATime() {
        func one(_ c: UInt8) -> UInt8? {
            if c == 0x20 { return 0 }
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) ? 0x80 : nil
        }
        func check(_ bytes: [UInt8]) {
            let x = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            let each = bytes.map(one)
            let expected: UInt64? = each.contains(where: { $0 == nil }) ? nil
                : each.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element!) << (8 * $1.offset) }
            let got = Prose.leadingLettersDigitsAndSpaces(x)
            XCTAssertEqual(got.count == 8 ? got.alnum : nil, expected, "\(bytes)")
            // The leading run: up to the first other byte.
            let n = each.firstIndex(where: { $0 == nil }) ?? 8
            let leading = each.prefix(n).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element!) << (8 * $1.offset) }
            XCTAssertEqual(got.count, n, "\(bytes)")
            XCTAssertEqual(got.alnum, leading, "\(bytes)")
        }
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x7F, 0x80, 0xC3, 0xFF]
        var rng = SplitMix64(seed: 8)
        for _ in 0..<20000 { check((0..<8).map { _ in rng.next() % 3 == 0 ? edges[Int(rng.next() % UInt64(edges.count))] : [0x61, 0x20, 0x5A][Int(rng.next() % 3)] }) }
        for lane in 0..<8 {
            for c in 0...255 {
                var bytes = [UInt8](repeating: 0x61, count: 8)
                bytes[lane] = UInt8(c)
                check(bytes)
            }
        }
    }

    /// SSE2's classes of 64 bytes must be those of each byte: every byte value at every lane.
    func testLanesAgreeWithOneByteAtATime() throws {
        try XCTSkipUnless(Prose.hasLanes, "no SSE2 lanes on this processor")
        func check(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { b in
                XCTAssertEqual(Prose.lanes(b.baseAddress!), Prose.lanesOneByOne(b.baseAddress!), "\(bytes)")
            }
        }
        for lane in 0..<64 {
            for c in 0...255 {
                var bytes = [UInt8](repeating: 0x61, count: 64)
                bytes[lane] = UInt8(c)
                check(bytes)
            }
        }
        var rng = SplitMix64(seed: 64)
        for _ in 0..<2000 { check((0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
    }

    /// `plain` taking ordinary prose 64 bytes at a time must say what it says a byte (or a run of
    /// eight) at a time: texts long enough to cross many blocks, with every mark at every place
    /// of a block (line starts, `#`, `www.`, bytes beyond ASCII, words carried across blocks).
    func testOrdinaryRunsAgreeWithOneByteAtATime() throws {
        try XCTSkipUnless(Prose.hasLanes, "no SSE2 lanes on this processor")
        var rng = SplitMix64(seed: 6464)
        // Words between separators (a text of only these is mostly plain), and anything anywhere.
        let words = ["word", "Night", "ward7", "x", "don't", "(aside)", "\"said\"", "ok!", "why?", "a;b", "self-report", "café", "日記",
                     "#tag", "#Tag/x", "a#b", "wow.", "ww.", "WwW.x", "#", "##", "www."]
        let separators = [" ", " ", " ", " ", ", ", ". ", "\n", "\n\n", "\r\n", "\r", "  "]
        let any = ["#\n", "# ", "-", "1", "2024", "=", "+", "\t", "*", ":", "@", "_", "&", "|", "`", "\u{A0}", " "]
        var plain = 0, notPlain = 0, fullBlocks = 0
        for _ in 0..<6000 {
            let rare = rng.next() % 3 == 0 // most texts only of words and separators, some with anything
            var text = ""
            let length = Int(rng.next() % 700)
            while text.utf8.count < length {
                text += words[Int(rng.next() % UInt64(words.count - (rng.next() % 8 == 0 ? 0 : 6)))]
                text += separators[Int(rng.next() % UInt64(separators.count))]
                if rare, rng.next() % 6 == 0 { text += any[Int(rng.next() % UInt64(any.count))] }
            }
            let fast = Prose.plain(text, lanes: true), slow = Prose.plain(text, lanes: false)
            XCTAssertEqual(fast == nil, slow == nil, text.debugDescription)
            XCTAssertEqual(fast?.words, slow?.words, text.debugDescription)
            XCTAssertEqual(fast?.inlineTags, slow?.inlineTags, text.debugDescription)
            if fast == nil { notPlain += 1 } else { plain += 1 }
            var t = text, state = Prose.PlainState()
            t.withUTF8 { b in
                Prose.byteClasses.withUnsafeBufferPointer { table in
                    if Prose.ordinaryRun(b, at: 0, table: table, state: &state) == 64 { fullBlocks += 1 }
                }
            }
        }
        // Both answers came often, and whole blocks were taken, or the test shows nothing.
        XCTAssertGreaterThan(plain, 1000)
        XCTAssertGreaterThan(notPlain, 1000)
        XCTAssertGreaterThan(fullBlocks, 1000)
    }
}
