// Property: on a random diary, grep with the word index, whole-file matching and the byte search for plain
// strings gives exactly what matching every searched line of every entry with PCRE2 gives, for
// many random patterns and options.
import XCTest
@testable import DaybookCore

final class WordIndexPropertyTests: DiaryTestCase {
    override class var options: TemporaryDiary.Options { .init(racyWindow: 0) }

    /// A small deterministic generator (xorshift*), so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
    }

    static let words = ["login", "Login", "LOGIN", "loggin", "logged", "failed", "fail", "nurse", "Nurse", "nurses", "ward", "wards",
                        "pharmacist", "café", "Grüße", "\u{212A}elvin", "kelvin", "Mi\u{017F}s", "miss", "x_y", "a1b2", "the", "in",
                        "on", "log", "loog", "gin", "color", "colour", "title", "mood", "tags", "e", "ee", "eee", "night-shift",
                        "(sic)", "C++", "a.b", "tab\there", "end."]

    func sentence(_ r: inout Random) -> String {
        (0..<(1 + r.int(8))).map { _ in r.pick(WordIndexPropertyTests.words) }.joined(separator: r.chance(0.2) ? "  " : " ")
    }

    /// An entry file: front matter with a title (sometimes on two lines) and tags, a body of
    /// random lines, some empty, some ending in `\r\n`.
    func entry(_ r: inout Random, day: Int) -> String {
        let nl = r.chance(0.1) ? "\r\n" : "\n"
        var lines = ["---", "title: " + sentence(&r), "date: 2026-10-\(String(format: "%02d", day))T09:00:00+02:00",
                     "tags: [" + (r.chance(0.5) ? "ward" : "memo") + "]", "mood: \(1 + r.int(5))", "---"]
        if r.chance(0.1) { lines.insert("  " + sentence(&r), at: 2) }
        for _ in 0..<r.int(12) { lines.append(r.chance(0.15) ? "" : sentence(&r)) }
        return lines.joined(separator: nl) + (r.chance(0.9) ? nl : "")
    }

    func randomPattern(_ r: inout Random) -> (String, GrepOptions) {
        var o = GrepOptions()
        o.ignoreCase = r.chance(0.3)
        o.wholeWord = r.chance(0.2)
        o.frontMatter = r.chance(0.15)
        if r.chance(0.1) { o.before = r.int(3); o.after = r.int(3) }
        o.output = r.pick([.lines, .lines, .count, .exists])
        let regexes = ["log+in\\s+fail", "^nurse", "ward$", "[lk]elvin", "n.rse", "(nurse|ward) ", "colou?r", "\\bthe\\b", "mi[sſ]s",
                       "x_y|a1b2", "(?i)kelvin", "ph?armacist", "l(o)+g", "\\w+ed$", "^$", "e{2,}", "(?<=log)in", "fail(?=ed)",
                       "^title", "Gr..e", "\\d", "[[:upper:]]{3}", "a\\.b", "\\(sic\\)", "ee\\b", "^\\s*$", "s$", "^[A-Z]", "\\bin\\b.*\\bon\\b",
                       "(?:night|day)-shift", "mood: [1-3]", "caf.", "log(?:gin|in)", "\\Klogin", "\\Aw", "\\x{212A}", "x*", "^",
                       // plain strings, found as bytes (ByteSearch): in the front matter only, across lines, Unicode
                       "nurse", "mood: 3", "tags", "memo", "title: ", "ward\nnurse", "Grüße", "\u{212A}elvin", "end. ", "C-",
                       "x_y a1b2", "e ee", ": ", "café Grüße"]
        switch r.int(4) {
        case 0:
            return (r.pick(WordIndexPropertyTests.words), o)
        case 1:
            let w = Array(r.pick(WordIndexPropertyTests.words))
            let a = r.int(w.count), b = a + r.int(w.count - a) + 1
            o.fixed = r.chance(0.5)
            return (String(w[a..<b]), o)
        case 2:
            o.fixed = true
            let joint = r.pick([" ", " ", "\n", "\r\n", "  "])
            return (r.pick(WordIndexPropertyTests.words) + joint + r.pick(WordIndexPropertyTests.words), o)
        default:
            return (r.pick(regexes), o)
        }
    }

    struct Found: Equatable {
        var path: String
        var count: Int
        var lines: [GrepLine]
    }

    func searched(_ pattern: String, _ options: GrepOptions, index: Bool) throws -> [Found] {
        var policy = WordIndexPolicy()
        policy.enabled = index
        policy.minimumEntries = 0
        var out: [Found] = []
        try Grep(pattern, options: options).search(diary, filter: try EntryFilter().compile(clock: diary.clock, mondayFirst: true),
                                                   index: policy, problem: { _ in }) { out.append(Found(path: $0.path, count: $0.matchingLines, lines: $0.lines)) }
        return out
    }

    /// What matching every searched line of every entry file on its own with PCRE2 gives.
    func expected(_ pattern: String, _ options: GrepOptions) throws -> [Found] {
        var diagnostics: [Diagnostic] = []
        let grep = try Grep(pattern, options: options, plain: false)
        var out: [Found] = []
        for entry in diary.loadEntries(diagnostics: &diagnostics, bodies: false).sorted(by: { $0.path < $1.path }) {
            let text = try String(contentsOf: diary.url(entry.path), encoding: .utf8)
            let lines = grep.search(try EntryText(text, path: entry.path))
            let count = lines.filter(\.isMatch).count
            guard count > 0 else { continue }
            switch options.output {
            case .lines: out.append(Found(path: entry.path, count: count, lines: lines))
            case .count: out.append(Found(path: entry.path, count: count, lines: []))
            case .exists: out.append(Found(path: entry.path, count: 1, lines: []))
            }
        }
        return out
    }

    func testIndexedSearchEqualsLineByLineSearch() throws {
        var r = Random(state: 0x9E37_79B9_7F4A_7C15)
        let folder = diary.url("entries/2026/10")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var names: [String] = []
        for k in 0..<300 {
            let day = 1 + k % 28
            let name = "2026-10-\(String(format: "%02d", day))-\(String(format: "%04d", k))-e.md"
            names.append(name)
            try entry(&r, day: day).write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        _ = try searched("nurse", GrepOptions(), index: true)
        let lookup = WordIndexLookup(diary)
        XCTAssertEqual(lookup.indexed.filter { $0 >= 0 }.count, 300, "the index holds every file")
        var checked = 0
        for round in 0..<3 {
            if round > 0 {
                // Files changed, added and removed since the build.
                for _ in 0..<10 {
                    try entry(&r, day: 1).write(to: folder.appendingPathComponent(r.pick(names)), atomically: r.chance(0.5), encoding: .utf8)
                }
                let added = "2026-10-28-9\(round)00-added.md"
                try entry(&r, day: 28).write(to: folder.appendingPathComponent(added), atomically: false, encoding: .utf8)
                names.append(added)
                let gone = names.remove(at: r.int(names.count - 1))
                try FileManager.default.removeItem(at: folder.appendingPathComponent(gone))
            }
            for _ in 0..<70 {
                let (pattern, options) = randomPattern(&r)
                let want = try expected(pattern, options)
                let what = "pattern \(pattern) -i \(options.ignoreCase) -w \(options.wholeWord) -F \(options.fixed) --front-matter \(options.frontMatter) -B \(options.before) -A \(options.after) \(options.output)"
                for index in [true, false] {
                    let got = try searched(pattern, options, index: index)
                    if got != want {
                        let first = zip(got, want).first { $0 != $1 }.map { "\($0.0.path): \($0.0.count) lines, not \($0.1.path): \($0.1.count)" }
                        XCTFail("\(what) index \(index): \(got.count) entries found, \(want.count) wanted; \(first ?? "one list is longer")")
                    }
                }
                checked += want.count
            }
        }
        XCTAssertGreaterThan(checked, 1000, "the patterns find something")
    }
}
