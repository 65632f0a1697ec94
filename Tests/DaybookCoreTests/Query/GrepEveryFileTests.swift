// A search of the whole diary that reads every file, stamping each from the file it opened
// (`Grep.searchEveryFile`), finds what the search after a stat walk finds: the same entries, lines
// and counts in the same order, and the same problems, on a warm cache with files changed, added,
// removed, broken and mended since it was written.
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import DaybookCore

final class GrepEveryFileTests: DiaryTestCase {

    override func tearDownWithError() throws {
        Grep.rescanAfter = 1000
        try super.tearDownWithError()
    }

    func write(_ rel: String, _ text: String) throws {
        let url = diary.url(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func entry(_ month: Int, _ day: Int, _ n: Int, title: String, body: String, front: String = "") -> (String, String) {
        let name = String(format: "entries/2026/%02d/2026-%02d-%02d-09%02d-e%d.md", month, month, day, n % 60, n)
        return (name, "---\ntitle: \(title)\ndate: 2026-\(String(format: "%02d-%02dT09:%02d", month, day, n % 60)):00+01:00\n\(front)---\n\(body)")
    }

    /// What a search gives, in order: each entry's path, count and lines, and the problems sorted
    /// (the search after a walk tells the unreadable entries first, the other among its results).
    func search(_ pattern: String, everyFile: Bool, _ configure: (inout GrepOptions) -> Void = { _ in }) throws -> (found: [String], problems: [String]) {
        var options = GrepOptions()
        configure(&options)
        var policy = WordIndexPolicy()
        policy.minimumEntries = 0
        policy.everyFile = everyFile
        var found: [String] = []
        var problems: [String] = []
        try Grep(pattern, options: options).search(diary, filter: try EntryFilter().compile(clock: diary.clock, mondayFirst: true), index: policy,
                                                   problem: { problems.append($0.description) }) { r in
            found.append("\(r.path) \(r.id) \(r.matchingLines): " + r.lines.map { "\($0.number)\($0.isMatch ? ":" : "-")\($0.matches)\($0.text)" }.joined(separator: " | "))
        }
        return (found, problems.sorted())
    }

    let patterns = [#"\d{2}"#, "^", #"lo+g\s*in|fail(ed|ure)"#, "common", "Wörter", #"\bw1\d\b"#, "^title", "nowhere-at-all"]

    func compareBothWays(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for pattern in patterns {
            for (name, configure) in [("lines", { (_: inout GrepOptions) in }), ("-c", { $0.output = .count }), ("-l", { $0.output = .exists }),
                                      ("-C1 -i", { $0.before = 1; $0.after = 1; $0.ignoreCase = true }), ("--front-matter", { $0.frontMatter = true })]
                as [(String, (inout GrepOptions) -> Void)] {
                let walked = try search(pattern, everyFile: false, configure)
                let read = try search(pattern, everyFile: true, configure)
                XCTAssertEqual(read.found, walked.found, "\(label): \(pattern) \(name)", file: file, line: line)
                XCTAssertEqual(read.problems, walked.problems, "\(label): \(pattern) \(name)", file: file, line: line)
            }
        }
    }

    /// A diary of sixty entries over three months, with a broken one of each kind, a stroke file,
    /// a name beyond ASCII and a file without front matter; the cache written.
    func seed() throws -> [(String, String)] {
        var entries: [(String, String)] = []
        for n in 0..<60 {
            let words = ["login failed again", "common ground", "the w1\(n % 10) note", "Wörter und 42 Dinge", "loooogin failure"]
            entries.append(entry(9 + n % 3, 1 + n % 28, n, title: "Note \(n)", body: "common \(words[n % 5])\nline two \(n)\n\nlast line\n",
                                 front: n % 7 == 0 ? "tags: [t\(n)]\nmood: 3\n" : ""))
        }
        for (rel, text) in entries { try write(rel, text) }
        try write("entries/2026/10/2026-10-05-1000-broken-yaml.md", "---\ntitle: [unclosed\ndate: 2026-10-05T10:00:00+01:00\n---\nlogin failed common 12\n")
        try write("entries/2026/10/2026-10-06-1000-no-date.md", "---\ntitle: No date\n---\ncommon login 34\n")
        try write("entries/2026/10/2026-10-07-1000-mood.md", "---\ntitle: Mood\ndate: 2026-10-07T10:00:00+01:00\nmood: 99\n---\ncommon 56\n")
        try write("entries/2026/10/2026-10-08-1000-no-front.md", "common login 78 with no front matter\n")
        try write("entries/2026/11/2026-11-02-1000-café-ümlaut.md", "---\ntitle: Café 77\ndate: 2026-11-02T10:00:00+01:00\n---\nWörter common 88\n")
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: diary.url("entries/2026/10/2026-10-09-1000-binary.md"))
        try write("entries/2026/09/2026-09-03-0903-e3.strokes.json", #"{"version":1,"strokes":[]}"#)
        _ = diary.scanEntries()
        return entries
    }

    func testReadingEveryFileFindsWhatTheWalkFinds() throws {
        FileStamp.racyWindow = 0
        let entries = try seed()
        try compareBothWays("warm cache")
        // Changed since the cache: one longer, one broken, one mended, one new, one gone, a stroke
        // file added; none of it in the cache until a command writes it again.
        try write(entries[4].0, entries[4].1 + "login failed once more 99\n")
        try write(entries[5].0, "---\ntitle: [broken now\n---\ncommon 11\n")
        try write("entries/2026/10/2026-10-06-1000-no-date.md", "---\ntitle: Dated now\ndate: 2026-10-06T10:00:00+01:00\n---\ncommon login 34\n")
        try write(entry(11, 20, 99, title: "New", body: "login failed new 12\n").0, entry(11, 20, 99, title: "New", body: "login failed new 12\n").1)
        try FileManager.default.removeItem(at: diary.url(entries[6].0))
        try write(entries[8].0.replacingOccurrences(of: ".md", with: ".strokes.json"), #"{"version":1,"strokes":[]}"#)
        let cacheFile = diary.stateFolder.appendingPathComponent("cache/entries.bin")
        let before = try Data(contentsOf: cacheFile)
        _ = try search("common", everyFile: true)
        XCTAssertEqual(try Data(contentsOf: cacheFile), before, "reading every file leaves the cache to the next command")
        try compareBothWays("files changed since the cache")
        // Past `rescanAfter` files parsed, the search writes the cache again for the next one.
        for k in 10..<15 { try write(entries[k].0, entries[k].1 + "more words\n") }
        let current = try Data(contentsOf: cacheFile)
        Grep.rescanAfter = 3
        _ = try search("common", everyFile: true)
        let rescanned = try Data(contentsOf: cacheFile)
        XCTAssertNotEqual(rescanned, current, "more files parsed than rescanAfter: the cache is written again")
        _ = diary.scanEntries()
        XCTAssertEqual(try Data(contentsOf: cacheFile), rescanned, "and is then up to date")
        try compareBothWays("after the rescan")
    }

    func testAFileRewrittenJustNowWithItsSizeAndTimeIsReadAgain() throws {
        _ = try seed()
        // Written just now, so racy: the cache keeps the digest of what it parsed (and the stamp
        // of the file read afresh differs at least in its change time).
        let (rel, text) = entry(11, 21, 70, title: "Racy", body: "login failed racy 21\n")
        try write(rel, text)
        _ = diary.scanEntries()
        // The same size and modification time, other bytes.
        let url = diary.url(rel)
        var st = stat()
        XCTAssertEqual(stat(url.path, &st), 0)
        try write(rel, text.replacingOccurrences(of: "racy 21", with: "racy 22").replacingOccurrences(of: "title: Racy", with: "title: [Rac"))
        var times = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, url.path, &times, 0), 0)
        let read = try search("racy", everyFile: true)
        XCTAssertEqual(read.found.count, 1)
        XCTAssertTrue(read.found[0].contains("racy 22") && !read.found[0].contains("racy 21"),
                      "the bytes on disk are searched (they do not parse), not the entry the cache holds: \(read.found)")
        XCTAssertTrue(read.problems.contains { $0.contains("2026-11-21-0910-e70.md") }, "\(read.problems)")
        XCTAssertEqual(read.found, try search("racy", everyFile: false).found)
    }

    func decides(_ grep: Grep, _ runs: [String], _ filter: CompiledFilter) -> Bool {
        var policy = WordIndexPolicy()
        policy.minimumEntries = 0
        return grep.readsEveryFile(diary, runs: runs, filter: filter, policy: policy)
    }

    func testTheIndexChoosesWhenItNarrowsTheSearchDown() throws {
        FileStamp.racyWindow = 0
        _ = try seed()
        let grep = try Grep("common", options: GrepOptions())
        let all = try EntryFilter().compile(clock: diary.clock, mondayFirst: true)
        XCTAssertFalse(decides(grep, ["common"], all), "no index yet: the walk builds it")
        _ = try search("common", everyFile: false)
        XCTAssertNotNil(WordIndex.open(WordIndex.file(of: diary)))
        XCTAssertTrue(decides(grep, ["common"], all), "a word in every file")
        XCTAssertFalse(decides(grep, ["w13"], all), "a word in few files")
        XCTAssertTrue(decides(grep, [], all), "a pattern with no word to look up")
        var tagged = EntryFilter()
        tagged.tags = ["t7"]
        XCTAssertFalse(decides(grep, [], try tagged.compile(clock: diary.clock, mondayFirst: true)))
        var last = EntryFilter()
        last.last = 3
        XCTAssertFalse(decides(grep, [], try last.compile(clock: diary.clock, mondayFirst: true)))
        let lines = try Grep(#"\bw1\d\b"#, options: GrepOptions())
        XCTAssertTrue(decides(lines, [], all))
        let lookahead = try Grep("w(?=1)", options: GrepOptions())
        XCTAssertNil(lookahead.filePattern)
        XCTAssertFalse(decides(lookahead, [], all), "a pattern searched line by line takes the walk")
        XCTAssertEqual(WordIndexPolicy(environment: ["DAYBOOK_GREP_READ": "all"]).everyFile, true)
        XCTAssertEqual(WordIndexPolicy(environment: ["DAYBOOK_GREP_READ": "chosen"]).everyFile, false)
        XCTAssertNil(WordIndexPolicy(environment: [:]).everyFile)
    }

    func testAColdCacheIsFilledByTheWalk() throws {
        FileStamp.racyWindow = 0
        _ = try seed()
        let cacheFile = diary.stateFolder.appendingPathComponent("cache/entries.bin")
        try FileManager.default.removeItem(at: cacheFile)
        let read = try search("common", everyFile: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile.path), "a cold cache is filled as before")
        XCTAssertEqual(read.found, try search("common", everyFile: false).found)
    }
}
