// Cutting an entry file at its fences on the bytes must read every file as `EntryText` reads it:
// a generated property test over files built to be awkward at the fences and in the encoding.
import XCTest
@testable import DaybookCore

final class EntryCutTests: XCTestCase {
    static let fences = ["---\n", "---\r\n", "--- \n", "---\t\n", "----\n", "--\n", "---é\n", "---\u{A0}\n", "--- x\n", "---"]
    static let lines = ["date: 2026-11-21T10:30:00+01:00\n", "title: Ward round\n", "tags: [care, night]\n", "mood: 3\n",
                        "title: Über café\r\n", "note: \"x\"\n", "\n", "# Heading\n", "words and #tag here\n", "— em dash\n",
                        "body without end", "\u{FEFF}bom\n", "---\n", "  ---\n"]

    func testCuttingAtTheBytesReadsAsEntryTextDoes() {
        var rng = SplitMix64(seed: 20261123)
        let parser = EntryParser(config: DiaryConfig())
        var cut = 0
        for n in 0..<3000 {
            var bytes: [UInt8] = []
            func pick(_ from: [String]) -> String { from[Int(rng.next() % UInt64(from.count))] }
            if rng.next() % 12 == 0 { bytes += [0xEF, 0xBB, 0xBF] } // a byte order mark before the fence
            bytes += Array((rng.next() % 10 == 0 ? pick(EntryCutTests.fences) : "---\n").utf8)
            for _ in 0..<Int(rng.next() % 4) { bytes += Array(pick(EntryCutTests.lines).utf8) }
            if rng.next() % 8 != 0 { bytes += Array((rng.next() % 6 == 0 ? pick(EntryCutTests.fences) : "---\n").utf8) }
            for _ in 0..<Int(rng.next() % 5) { bytes += Array(pick(EntryCutTests.lines).utf8) }
            // Bytes that are not UTF-8, in the front matter or the body.
            if rng.next() % 15 == 0 { bytes.insert([0xFF, 0xC3, 0x80, 0xE2][Int(rng.next() % 4)], at: Int(rng.next() % UInt64(bytes.count + 1))) }
            let rel = "entries/2026/11/2026-11-21-1030-e\(n).md"
            let bodyOffset = bytes.withUnsafeBufferPointer { EntryText.bodyOffset($0) }
            if bodyOffset != nil { cut += 1 }
            EntryParser.cutAtBytes = true
            let a = parser.parse(Data(bytes), relativePath: rel, displayPath: "e.md")
            EntryParser.cutAtBytes = false
            let b = parser.parse(Data(bytes), relativePath: rel, displayPath: "e.md")
            EntryParser.cutAtBytes = true
            XCTAssertEqual(EntryCutTests.summary(a), EntryCutTests.summary(b), "file: \(bytes)")
            // The body starts on the line after the closing fence, as EntryText counts its lines.
            if let e = a.entry, let text = String(validatingUTF8Data: Data(bytes)), let doc = try? EntryText(text, path: "e.md") {
                XCTAssertEqual(e.bodyStartLine, doc.closing + 2, "file: \(bytes)")
            }
        }
        // A closing fence that ends the file, without a line break: the body (empty) starts below it.
        for (file, line) in [("---\ndate: 2026-11-21T10:30:00+01:00\n---", 4), ("---\r\ndate: 2026-11-21T10:30:00+01:00\r\ntitle: x\r\n---", 5),
                             ("---\ndate: 2026-11-21T10:30:00+01:00\n---\n", 4), ("---\ndate: 2026-11-21T10:30:00+01:00\n---\nbody", 4)] {
            for atBytes in [true, false] {
                EntryParser.cutAtBytes = atBytes
                let e = parser.parse(Data(file.utf8), relativePath: "entries/2026/11/2026-11-21-1030-x.md", displayPath: "e.md").entry
                XCTAssertEqual(e?.bodyStartLine, line, file.debugDescription)
            }
            EntryParser.cutAtBytes = true
        }
        // Both ways must have been taken many times for the comparison to mean something.
        XCTAssertGreaterThan(cut, 1000)
        XCTAssertLessThan(cut, 2800)
    }

    /// The entry scan keeps no body: read that way (`keepBody: false`), a body of plain prose in
    /// ASCII is read from the bytes and not made a String unless the entry needs it. The entry
    /// must be the one the whole parse gives, but for its body: generated files with and without a
    /// title, codings and a stroke file, over bodies plain and not, ASCII and not, valid and not.
    func testAnEntryReadWithoutItsBodyIsTheSameEntry() {
        var rng = SplitMix64(seed: 20261124)
        let parser = EntryParser(config: DiaryConfig())
        var fromBytes = 0, bodiless = 0, asText = 0
        for n in 0..<4000 {
            func pick(_ from: [String]) -> String { from[Int(rng.next() % UInt64(from.count))] }
            var head = "---\ndate: 2026-11-21T10:30:00+01:00\n"
            if rng.next() % 10 < 7 { head += pick(["title: Ward round\n", "title: Über café\n"]) }
            if rng.next() % 4 == 0 { head += pick(["codes:\n  - calm\n", "codes:\n  - code: calm\n    quote: \"nurse\"\n"]) }
            if rng.next() % 2 == 0 { head += pick(["tags: [care, night]\n", "mood: 3\n", "note: x\n"]) }
            head += "---\n"
            var body = ""
            for _ in 0..<Int(rng.next() % 30) {
                let r = rng.next() % 10
                if r == 0 { body += "\n" } else if r == 1 { body += "\n\n" } else if r < 6 { body += " " }
                body += rng.next() % 24 == 0 ? pick(PlainProseTests.pieces) : pick(["Around", "system", "nurse", "quiet", "#night", "chart", "we"])
            }
            var bytes = Array((head + body).utf8)
            if rng.next() % 40 == 0 { bytes.append(0xFF) } // not UTF-8
            let hasInk = rng.next() % 5 == 0
            let rel = "entries/2026/11/2026-11-21-1030-e\(n).md"
            let (a, b) = bytes.withUnsafeBufferPointer { all in
                (parser.parse(bytes: all, relativePath: rel, displayPath: "e.md", hasInk: hasInk, keepBody: false),
                 parser.parse(bytes: all, relativePath: rel, displayPath: "e.md", hasInk: hasInk))
            }
            XCTAssertEqual(EntryCutTests.summary(a, body: false), EntryCutTests.summary(b, body: false), "file: \((head + body).debugDescription)")
            let plain = bytes.withUnsafeBufferPointer { all in EntryText.cutHead(all).flatMap { Prose.plainASCII($0.body) } } != nil
            if plain { fromBytes += 1 } else { asText += 1 }
            if let e = a.entry, let whole = b.entry {
                // The places of codings, as the diary works them out from the body it is given.
                XCTAssertEqual("\(QuoteAnchor.locate(e.codings, in: e.body))", "\(QuoteAnchor.locate(whole.codings, in: whole.body))")
                // Kept where the places of codings are worked out from it, or the title.
                if !whole.codings.isEmpty || hasInk || !head.contains("title:") { XCTAssertEqual(e.body, whole.body, "file: \((head + body).debugDescription)") }
                if e.body.isEmpty && !whole.body.isEmpty { bodiless += 1 } else { XCTAssertEqual(e.body, whole.body) }
            }
        }
        // Each way taken many times, or the comparison shows nothing.
        XCTAssertGreaterThan(fromBytes, 1000)
        XCTAssertGreaterThan(asText, 1000)
        XCTAssertGreaterThan(bodiless, 500)
    }

    static func summary(_ o: EntryParser.Outcome, body: Bool = true) -> String {
        var o = o
        if !body { o.entry?.body = "" }
        var out = o.problems.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }.joined(separator: "\n")
        if let e = o.entry {
            out += e.json(includeBody: true).serialized() + " words=\(e.words) line=\(e.bodyStartLine) inline=\(e.inlineTags)"
        }
        return out
    }
}
