// grep's search: which lines of an entry file are searched, the lines that match, and their context.
import Foundation

public struct GrepOptions: Sendable {
    public var ignoreCase = false
    public var wholeWord = false
    public var fixed = false
    /// Context lines shown before and after each matching line.
    public var before = 0
    public var after = 0
    /// Search every line of the file, front matter included (else the title and the body).
    public var frontMatter = false
    /// What a diary search reports of each entry.
    public var output = Output.lines

    public enum Output: Sendable {
        /// The matching lines and their context lines.
        case lines
        /// Only the number of matching lines (`-c`).
        case count
        /// Only whether a line matches (`-l`): the search of a file stops at its first match.
        case exists
    }

    public init() {}
}

/// A line of an entry file that matched, or that is shown around a match.
public struct GrepLine: Equatable, Sendable {
    /// 1-based line in the file.
    public var number: Int
    /// The line as in the file, without its line ending.
    public var text: String
    /// Byte ranges of the matches in `text`; empty for a context line.
    public var matches: [Range<Int>]

    public var isMatch: Bool { !matches.isEmpty }
    /// 1-based byte column of the first match.
    public var column: Int? { matches.first.map { $0.lowerBound + 1 } }

    /// One JSON Lines record (SPEC §3, plus `type`: `match` or `context`).
    public func json(id: String, path: String) -> JSONValue {
        .object([("type", .string(isMatch ? "match" : "context")), ("id", .string(id)), ("path", .string(path)),
                 ("line", .int(number)), ("column", column.map(JSONValue.int) ?? .null), ("text", .string(text)),
                 ("matches", .array(matches.map { .array([.int($0.lowerBound), .int($0.upperBound)]) }))])
    }
}

public final class Grep {
    public let pattern: Pattern
    public let options: GrepOptions
    /// The pattern as given, to compile it again for another thread.
    let source: String
    /// The pattern compiled for a whole file (with `^` and `$` at every line), when matching the
    /// whole file finds every line that can match (see `wholeFileIsSound`); nil when every
    /// searched line must be matched on its own.
    let filePattern: Pattern?
    /// Whether the pattern may hold `^` or `$` (conservatively: the characters anywhere in it).
    let mayAnchorStart: Bool
    let mayAnchorEnd: Bool
    /// A file's bytes and where its lines start, reused from file to file.
    let file = FileBytes()

    /// Whether a plain string is found as bytes (`ByteSearch`; else with PCRE2, for tests comparing the two).
    let plain: Bool

    public convenience init(_ pattern: String, options: GrepOptions) throws {
        try self.init(pattern, options: options, plain: true)
    }

    init(_ pattern: String, options: GrepOptions, plain: Bool) throws {
        self.plain = plain
        self.pattern = try Pattern(pattern, ignoreCase: options.ignoreCase, wholeWord: options.wholeWord, fixed: options.fixed, plain: plain)
        self.options = options
        source = pattern
        mayAnchorStart = !options.fixed && pattern.contains("^")
        mayAnchorEnd = !options.fixed && pattern.contains("$")
        filePattern = Grep.wholeFileIsSound(pattern, fixed: options.fixed)
            ? try Pattern(pattern, ignoreCase: options.ignoreCase, wholeWord: options.wholeWord, fixed: options.fixed, multiline: true, plain: plain)
            : nil
    }

    /// The same search, compiled again: a Pattern serves one thread at a time.
    func copy() throws -> Grep { try Grep(source, options: options, plain: plain) }

    /// Whether a line that matches on its own is sure to hold where a match of the whole file
    /// (in multiline mode) starts, at or after the start of any earlier line. A match in a line
    /// uses only the line's bytes, which are the same in the file; what differs is the context:
    /// - `^` and `$`: multiline mode puts them at every `\n` of the file, which is where lines
    ///   start and end; `$` before `\r\n` is the exception, and a file with `\r` has every line
    ///   searched (`mayAnchorEnd`); a title's value starts inside its line, so that line is
    ///   searched whenever the pattern may hold `^` (`mayAnchorStart`);
    /// - `\b`, `\B` and whole words (-w): next to a line's searched bytes the file has `\n`,
    ///   `\r`, a blank or the title's colon, none of them word characters, as the line's ends are;
    /// - `.`, `\N` and `$` take only `\n` for a newline (PCRE2's default), which no line holds;
    /// - a match that runs on into the next lines of the file only finds more, and the search
    ///   starts again at the line after each match's start.
    /// Refused, because they look beyond a match or change how a search goes on: lookahead and
    /// lookbehind, `\A \z \Z \G`, `\K` (moves the reported start), backtracking verbs `(*…)`,
    /// conditions `(?(…)`, callouts, and options switched off inside the pattern (`(?-m)`).
    static func wholeFileIsSound(_ pattern: String, fixed: Bool) -> Bool {
        if fixed { return true }
        let refused = ["\\A", "\\z", "\\Z", "\\G", "\\K", "(?=", "(?!", "(?<=", "(?<!", "(?*", "(?<*", "(*", "(?(", "(?C"]
        if refused.contains(where: { pattern.contains($0) }) { return false }
        let scalars = Array(pattern.unicodeScalars)
        for i in scalars.indices.dropLast() where scalars[i] == "(" && scalars[i + 1] == "?" {
            var k = i + 2
            while k < scalars.count, scalars[k].isASCII, scalars[k].properties.isAlphabetic || scalars[k] == "-" || scalars[k] == "^" {
                if scalars[k] == "-" || scalars[k] == "^" { return false }
                k += 1
            }
        }
        return true
    }

    /// Searches one entry file: its title and body, or every line with `frontMatter`. Returns the
    /// matching lines and their context lines, in file order. This is the per-file step: callers
    /// choose the files (a cache may choose fewer).
    public func search(_ doc: EntryText) -> [GrepLine] {
        var bytes = Array(doc.text.utf8)
        var starts: [Int] = []
        var at = 0
        for line in doc.lines {
            starts.append(at)
            at += line.utf8.count
        }
        let title = options.frontMatter ? nil : doc.span(of: "title").map { ($0, FileBytes.valueStart(doc.lines[$0.lowerBound])) }
        return bytes.withUnsafeMutableBufferPointer { buf in
            search(UnsafeBufferPointer(buf), starts: starts, closing: doc.closing, title: title, candidates: nil, output: .lines).lines
        }
    }

    /// Every line of a text that has no front matter.
    func searchLines(_ text: String) -> [GrepLine] {
        var bytes = Array(text.utf8)
        var starts: [Int] = bytes.isEmpty ? [] : [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") && i + 1 < bytes.count { starts.append(i + 1) }
        return bytes.withUnsafeMutableBufferPointer { buf in
            search(UnsafeBufferPointer(buf), starts: starts, closing: -1, title: nil, candidates: nil, output: .lines).lines
        }
    }

    /// Matches the lines of a file that are searched (`starts`: where each line starts in
    /// `bytes`): every line with `frontMatter`; else the title's lines, the first from its value
    /// on (so `title` itself is not a match and `^Word` finds a title starting with Word), and
    /// the body. With `candidates` (ascending line indices) only those are matched: the others
    /// cannot match. Returns the lines to show (with `output` `.lines`, else none) and the number
    /// of matching lines (with `.exists`, counting stops at 1).
    func search(_ bytes: UnsafeBufferPointer<UInt8>, starts: [Int], closing: Int, title: (lines: Range<Int>, valueStart: Int)?,
                candidates: [Int]?, output: GrepOptions.Output) -> (lines: [GrepLine], count: Int) {
        var matched: [(index: Int, ranges: [Range<Int>])] = []
        var count = 0
        var next = 0
        /// Matches one line; true to stop.
        func visit(_ index: Int, _ from: Int) -> Bool {
            if let candidates {
                while next < candidates.count, candidates[next] < index { next += 1 }
                guard next < candidates.count, candidates[next] == index else { return false }
            }
            let line = FileBytes.content(bytes, starts, index)
            guard line.lowerBound + from <= line.upperBound else { return false }
            let subject = UnsafeBufferPointer(rebasing: bytes[(line.lowerBound + from)..<line.upperBound])
            if output == .lines {
                let found = pattern.matches(in: subject)
                guard !found.isEmpty else { return false }
                matched.append((index, found.map { ($0.lowerBound + from)..<($0.upperBound + from) }))
            } else {
                guard pattern.hasMatch(in: subject) else { return false }
            }
            count += 1
            return output == .exists
        }
        var searched: [Int] = []
        if options.frontMatter {
            for i in starts.indices where visit(i, 0) { break }
            if output == .lines && count > 0 { searched = Array(starts.indices) }
        } else {
            var stop = false
            if let title {
                for i in title.lines where visit(i, i == title.lines.lowerBound ? title.valueStart : 0) { stop = true; break }
            }
            if !stop {
                for i in (closing + 1)..<max(closing + 1, starts.count) where visit(i, 0) { break }
            }
            if output == .lines && count > 0 { searched = Array(title?.lines ?? 0..<0) + Array((closing + 1)..<max(closing + 1, starts.count)) }
        }
        guard output == .lines, count > 0 else { return ([], count) }
        // The matching lines, and the searched lines within `before`/`after` lines of one.
        var lines: [GrepLine] = []
        var m = 0
        for index in searched {
            while m < matched.count, matched[m].index < index { m += 1 }
            let isMatch = m < matched.count && matched[m].index == index
            if !isMatch {
                let after = m > 0 && index - matched[m - 1].index <= options.after
                let before = m < matched.count && matched[m].index - index <= options.before
                guard after || before else { continue }
            }
            let line = FileBytes.content(bytes, starts, index)
            lines.append(GrepLine(number: index + 1, text: String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self),
                                  matches: isMatch ? matched[m].ranges : []))
        }
        return (lines, count)
    }
}
