// Writing prompts: the diary's prompts.md (or the built-in ones) and `{{prompt}}`, one a day, rotating without repeats.
import Foundation

/// The prompts of `prompts.md`: one a line (list markers and blank lines ignored); `## NAME` starts
/// the prompts of template NAME alone; lines before any heading are for every template.
public struct PromptList: Sendable {
    /// The prompts before any heading: for every template.
    public var general: [String] = []
    /// The prompts under `## NAME`, by template name, in the file's order of headings.
    public var byTemplate: [String: [String]] = [:]
    /// Each `## NAME` heading with its line, for `check`.
    public var headings: [(name: String, line: Int)] = []

    public init() {}

    public static let fileName = "prompts.md"

    /// Reads `text`; what is not a prompt (a heading that names no template) is a problem at its line.
    public static func parse(_ text: String, path: String) -> (list: PromptList, problems: [Diagnostic]) {
        var list = PromptList()
        var problems: [Diagnostic] = []
        var current: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let level = line.prefix { $0 == "#" }.count
                let name = line.dropFirst(level).trimmingCharacters(in: .whitespaces)
                // A `# Title` line names the file, not a template: it is no prompt.
                if level == 1 { continue }
                guard level == 2, Template.isValidName(name) else {
                    problems.append(Diagnostic(.warning, "`\(line)` is not a prompt heading: write `## NAME` with a template's name (letters, digits, _ and -); its prompts are ignored",
                                               at: SourceLocation(path: path, line: i + 1)))
                    current = ""
                    continue
                }
                current = name
                list.headings.append((name, i + 1))
                continue
            }
            for marker in ["- ", "* ", "+ "] where line.hasPrefix(marker) {
                line = line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
                break
            }
            if line.isEmpty { continue }
            switch current {
            case nil: list.general.append(line)
            case ""?: break
            case let name?: list.byTemplate[name, default: []].append(line)
            }
        }
        return (list, problems)
    }

    /// The diary's `prompts.md` read, with its problems (not UTF-8 at its first bad byte; a bad
    /// heading at its line); nil without the file.
    public static func load(_ diary: Diary) -> (list: PromptList, problems: [Diagnostic])? {
        guard let data = diary.regularFileContents(fileName) else { return nil }
        let path = diary.displayPath(fileName)
        guard let text = String(validatingUTF8Data: data) else {
            return (PromptList(), [Diagnostic(EntryParser.utf8Error(data, path: path), severity: .warning)])
        }
        return parse(text, path: path)
    }

    /// The prompts a template draws from: the general ones and its own, each once; the built-in
    /// prompts when there are none.
    public func prompts(for template: String) -> [String] {
        var seen = Set<String>()
        let mine = (general + (byTemplate[template] ?? [])).filter { seen.insert($0).inserted }
        return mine.isEmpty ? BuiltinPrompts.all : mine
    }

    /// The prompt of `day`: the same all day and on every machine (nothing is stored), and no
    /// prompt again until all were used. Day d of n prompts is place d mod n in an order shuffled
    /// by the cycle d div n; a cycle that would start with the prompt the last one ended on swaps
    /// its first two, so two days in a row differ whenever there are two prompts.
    public static func prompt(on day: LocalDay, from prompts: [String]) -> String? {
        let n = prompts.count
        guard n > 0 else { return nil }
        if n <= 2 { return prompts[mod(day.ordinal, n)] }
        let cycle = floorDiv(day.ordinal, n)
        return prompts[order(cycle: cycle, count: n)[mod(day.ordinal, n)]]
    }

    /// The order of the prompts in one cycle (indices), for n ≥ 3.
    static func order(cycle: Int, count n: Int) -> [Int] {
        var order = shuffled(count: n, seed: UInt64(bitPattern: Int64(cycle)))
        if order[0] == shuffled(count: n, seed: UInt64(bitPattern: Int64(cycle - 1)))[n - 1] { order.swapAt(0, 1) }
        return order
    }

    /// 0..<n in a Fisher–Yates shuffle driven by SplitMix64 from `seed`: the same on every machine.
    static func shuffled(count n: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed)
        var a = Array(0..<n)
        for i in stride(from: n - 1, to: 0, by: -1) {
            a.swapAt(i, Int(generator.next() % UInt64(i + 1)))
        }
        return a
    }

    static func mod(_ a: Int, _ n: Int) -> Int { ((a % n) + n) % n }
    static func floorDiv(_ a: Int, _ n: Int) -> Int { (a - mod(a, n)) / n }
}

/// Steele, Lea and Flood's SplitMix64: a small, fast generator whose output depends on its seed
/// alone (the tests' seeded generators are this one too).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `check`: a prompts.md that is not UTF-8, or has a heading that names no template, is warned about at its line.
struct PromptsCheck: DiaryCheck {
    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        guard let (list, problems) = PromptList.load(diary) else { return [] }
        let known = Set(TemplateLibrary(diary: diary).allNames)
        return problems + list.headings.filter { !known.contains($0.name) }.map {
            Diagnostic(.warning, "`## \($0.name)` names no template (the templates are: \(known.sorted().joined(separator: ", "))); its prompts are never used",
                       at: SourceLocation(path: diary.displayPath(PromptList.fileName), line: $0.line))
        }
    }
}
