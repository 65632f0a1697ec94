// `export json`, `export jsonl` and `check` on every core (issue 19): the same bytes and the same
// problems, in the same order, as the first, one-entry-at-a-time code, kept here as the reference;
// on one core and on all; from a fresh parse and from the entry cache; and bodies split off at the
// bytes exactly as the text path splits them.
import XCTest
@testable import DaybookCore

final class ParallelEntryWorkTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(name: "Parallel \"test\" diary", racyWindow: 0) }

    /// Every entry file written, relative path → bytes.
    var files: [(rel: String, bytes: [UInt8])] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try "codes:\n  trust: {}\n  care: {}\n".write(to: tmp.appendingPathComponent("codebook.yml"), atomically: true, encoding: .utf8)
        diary = try open()
        files = ParallelEntryWorkTests.generate(count: 700, seed: 19)
        for (rel, bytes) in files {
            try FileManager.default.createDirectory(at: diary.url(rel).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: diary.url(rel))
        }
    }

    override func tearDownWithError() throws {
        InOrder.sequential = false
        try super.tearDownWithError()
    }

    // MARK: A generated diary with every kind of trouble

    /// Entry files: most sound, with bodies full of what JSON escapes (quotes, backslashes,
    /// control characters, CRLF, U+2028, characters beyond the BMP) and links that lead somewhere
    /// or nowhere; codings that are orphaned, duplicated or sound; and files that do not parse
    /// (no front matter, an open one, broken YAML, a mood out of range, bytes that are not UTF-8,
    /// fences with blanks or with characters beyond ASCII after the dashes).
    static func generate(count: Int, seed: UInt64) -> [(rel: String, bytes: [UInt8])] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        let words = ["nurse", "ward", "login", "failed", "\"quoted\"", "back\\slash", "tab\there", "bell\u{7}", "nul\u{0}", "esc\u{1b}",
                     "line\u{2028}sep", "para\u{2029}sep", "🙂", "日本語", "e\u{301}", "[[2026-01-01-0900-e0]]", "[[nowhere]]",
                     "[a](../01/2026-01-01-0900-e0.md)", "[b](missing.md)", "#tag", "trust me", "care"]
        var out: [(String, [UInt8])] = []
        for i in 0..<count {
            let month = 1 + i % 3
            let day = 1 + (i / 3) % 28
            let id = String(format: "2026-%02d-%02d-%04d-e%d", month, day, 900 + i % 1000, i)
            let rel = String(format: "entries/2026/%02d/", month) + id + ".md"
            let crlf = rng.next() % 7 == 0
            let nl = crlf ? "\r\n" : "\n"
            var body = ""
            for _ in 0..<Int(rng.next() % 60) { body += pick(words) + (rng.next() % 9 == 0 ? nl + nl : " ") }
            if rng.next() % 5 == 0 { body += nl + "---" + nl + "after a rule" + nl }
            var front = ["date: " + String(format: "2026-%02d-%02dT09:00:00+01:00", month, day), "title: Entry \(i)"]
            if rng.next() % 3 == 0 { front.append("tags: [a, b]") }
            if rng.next() % 4 == 0 {
                front.append("codes:")
                front.append("  - code: trust")
                front.append("    quote: \"\(pick(["trust me", "never written", "care"]))\"")
                if rng.next() % 2 == 0 { front += ["  - code: trust", "    quote: \"trust me\""] }
                if rng.next() % 3 == 0 { front += ["  - unknown-code"] }
            }
            var opening = "---", closing = "---"
            let trouble = rng.next() % 40
            if trouble == 2 { front.append("title2: [unclosed") }
            if trouble == 3 { front.append("mood: 9") }
            if trouble == 4 { closing = "---  \t" }
            if trouble == 5 { closing = "---\u{A0}" } // a no-break space: Foundation's to tell
            if trouble == 6 { opening = "---\u{301}" } // the accent joins the last dash
            if trouble == 7 { closing = "--- x" } // no fence: the front matter runs on
            let text: String
            switch trouble {
            case 0: text = body // no front matter
            case 1: text = "---" + nl + front.joined(separator: nl) + nl + body // never closed
            default: text = opening + nl + front.joined(separator: nl) + nl + closing + (rng.next() % 30 == 0 && body.isEmpty ? "" : nl) + body
            }
            var bytes = Array(text.utf8)
            switch rng.next() % 50 {
            case 0: bytes.insert(0xFF, at: bytes.count / 2) // not UTF-8 somewhere
            case 1: bytes.append(contentsOf: [0xED, 0xA0, 0x80]) // a surrogate, encoded
            case 2: bytes.append(contentsOf: [0xC0, 0xAF]) // an overlong slash
            case 3: bytes.insert(contentsOf: [0xE2, 0x82], at: min(6, bytes.count)) // cut short in the front matter
            case 4: bytes = [0xEF, 0xBB, 0xBF] + bytes // a byte order mark
            default: break
            }
            out.append((rel, bytes))
        }
        return out
    }

    // MARK: The first code, as the reference

    /// A body as the first code read it: the file as text, split into lines.
    func referenceBody(_ rel: String) throws -> String {
        let display = diary.displayPath(rel)
        guard let data = FileManager.default.contents(atPath: diary.url(rel).path) else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: display))
        }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        return try EntryText(text, path: display).body
    }

    /// `check` as it was: every entry file parsed in turn, links found while the body is there,
    /// then every other check, the codings one entry after another with the text read first.
    func referenceCheck() throws -> [String] {
        var problems: [Diagnostic] = []
        var entries: [Entry] = []
        let files = diary.entryFiles()
        let links = EntryLinks(diary) { files }
        for rel in files {
            let o = diary.readEntry(rel)
            if var e = o.entry {
                problems += links.problems(of: e)
                e.body = ""
                entries.append(e)
            } else {
                problems += o.problems.map { Diagnostic($0, severity: .error) }
            }
        }
        for check in DiaryChecks.all {
            if check is CodingCheck {
                let book = try Codebook.load(diary)
                for e in entries where !e.codings.isEmpty {
                    let path = diary.displayPath(e.path)
                    let text = FileManager.default.contents(atPath: diary.url(e.path).path)
                        .flatMap { String(validatingUTF8Data: $0) }.flatMap { try? EntryText($0, path: path) }
                    problems += referenceCodingProblems(of: e, text: text, codebook: book)
                }
            } else {
                problems += try check.problems(in: diary, entries: entries)
            }
        }
        return problems.map { "\($0.severity.rawValue) \($0)" }
    }

    /// The coding problems of one entry as the first code found them: every coding placed first.
    func referenceCodingProblems(of e: Entry, text: EntryText?, codebook book: Codebook) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let path = diary.displayPath(e.path)
        let places = Dictionary(grouping: text.map { CodingLines($0).located } ?? [], by: { $0.coding })
        var placed: [Coding: Int] = [:]
        var seen: Set<[String?]> = []
        for (k, c) in e.codings.enumerated() {
            var at = SourceLocation(path: path)
            var quoteAt: SourceLocation?
            if c.source == .frontMatter, let lines = places[c], placed[c, default: 0] < lines.count {
                let place = lines[placed[c, default: 0]]
                placed[c, default: 0] += 1
                at.line = place.line
                quoteAt = place.quoteLine.map { SourceLocation(path: path, line: $0) }
            } else if case .ink = c.source {
                at = SourceLocation(path: String(path.dropLast(3)) + ".strokes.json")
            }
            let what = c.quote.map { "`\(c.code)` on \"\($0)\"" } ?? "`\(c.code)`"
            if let q = c.quote, e.anchor(k) == nil {
                var search = QuoteSearch((try? referenceBody(e.path)) ?? "")
                let n = search.count(of: q)
                let why = n == 0 ? "the quote no longer occurs in the body" : "the quote occurs \(n) time\(n == 1 ? "" : "s"), not \(c.occurrence ?? 1)"
                out.append(Diagnostic(.warning, "orphaned coding \(what): \(why); it is kept until you fix the quote or remove it", at: quoteAt ?? at))
            }
            if diary.config.strictCodebook, !book.contains(c.code) {
                let close = book.closeNames(to: c.code)
                out.append(Diagnostic(.error, "the code `\(c.code)` is not in the codebook (strict)" + (close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")), at: at))
            }
            if !seen.insert([c.code, c.quote, String(c.occurrence ?? 1), c.coder]).inserted {
                out.append(Diagnostic(.warning, "duplicate coding \(what)\(c.coder.map { " by \($0)" } ?? "")", at: at))
            }
        }
        return out
    }

    func check() throws -> [String] {
        try DiaryChecks.run(diary, fix: false).problems.map { "\($0.severity.rawValue) \($0)" }
    }

    // MARK: Tests

    /// A body, or the problem that kept it from being read, in words.
    func outcome(_ read: () throws -> String) -> String {
        do { return "body " + (try read()) } catch { return "error \(error)" }
    }

    func testBodiesSplitAtTheBytesAsTheTextPathSplitsThem() throws {
        var fast = 0
        for (rel, bytes) in files {
            XCTAssertEqual(outcome { try diary.entryBody(rel) }, outcome { try referenceBody(rel) }, rel)
            if bytes.withUnsafeBufferPointer({ EntryText.bodyOffset($0) }) != nil { fast += 1 }
        }
        XCTAssertGreaterThan(fast, 500, "most files take the byte path")
        XCTAssertLessThan(fast, files.count, "some files take the text path")
    }

    func testCheckFindsWhatTheFirstCodeFound() throws {
        let expected = try referenceCheck()
        XCTAssertGreaterThan(expected.count, 100)
        for kind in ["leads to nothing", "orphaned coding", "duplicate coding", "no front matter", "not UTF-8", "not closed"] {
            XCTAssertTrue(expected.contains { $0.contains(kind) }, kind)
        }
        // Cold (every file parsed), warm (from the cache), and on one core.
        try? FileManager.default.removeItem(at: diary.stateFolder.appendingPathComponent("cache"))
        XCTAssertEqual(try check(), expected)
        XCTAssertEqual(try check(), expected)
        InOrder.sequential = true
        XCTAssertEqual(try check(), expected)
    }

    func testStreamedExportsWriteWhatTheFirstCodeWrote() throws {
        var diagnostics: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &diagnostics, bodies: false)
        XCTAssertGreaterThan(entries.count, 500)
        // Files that changed after the cache was read: one gone, one no longer UTF-8.
        try FileManager.default.removeItem(at: diary.url(entries[10].path))
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF]).write(to: diary.url(entries[20].path))
        // The reference: bodies read as text, each entry written scalar by scalar, re-indented.
        let writing = JSONValueWritingTests.self
        var json = "{\n  \"diary\": " + writing.reference(ExportContext(diary: diary).diaryJSON, pretty: true, indent: 1) + ",\n"
        json += "  \"codebook\": " + writing.reference(try ExportContext(diary: diary).codebookJSON(), pretty: true, indent: 1) + ",\n"
        json += "  \"entries\": ["
        var jsonl = ""
        var warnings: [String] = []
        var first = true
        for var e in entries {
            do { e.body = try referenceBody(e.path) } catch let problem as DaybookError {
                warnings.append("\(Diagnostic(problem))")
                continue
            }
            json += (first ? "\n    " : ",\n    ") + writing.reference(e.json(includeBody: true), pretty: true, indent: 2)
            jsonl += writing.reference(e.json(includeBody: true), pretty: false, indent: 0) + "\n"
            first = false
        }
        json += "\n  ]\n}\n"
        XCTAssertFalse(warnings.isEmpty)

        for sequential in [false, true] {
            InOrder.sequential = sequential
            for (format, expected) in [(JSONExport() as ExportFormat, json), (JSONLinesExport(), jsonl)] {
                var done: [Int] = []
                let context = ExportContext(diary: diary, progress: { n, _ in done.append(n) })
                context.bodiesLoaded = false
                let out = StringSink()
                try format.export(entries, context: context, to: .stream(out))
                XCTAssertTrue(out.text == expected, "\(type(of: format)), sequential: \(sequential)")
                XCTAssertEqual(context.warnings.map { "\($0)" }, warnings)
                XCTAssertEqual(done, Array(1...entries.count))
            }
        }
        // To a file, through the byte path.
        let file = tmp.appendingPathComponent("out.json")
        let sink = try FileSink(file)
        let context = ExportContext(diary: diary)
        context.bodiesLoaded = false
        try JSONExport().export(entries, context: context, to: .stream(sink))
        try sink.finish()
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8) == json)
    }
}
