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
    /// Whether a match can never span a line or depend on where a line starts (a fixed string, or
    /// a pattern without regular-expression syntax): then a file without a match anywhere in its
    /// bytes has no matching line, and need not be split into lines.
    let isPlainText: Bool

    public init(_ pattern: String, options: GrepOptions) throws {
        self.pattern = try Pattern(pattern, ignoreCase: options.ignoreCase, wholeWord: options.wholeWord, fixed: options.fixed)
        self.options = options
        source = pattern
        isPlainText = options.fixed || !pattern.contains { "\\^$.|?*+()[]{}".contains($0) }
    }

    /// The same search, compiled again: a Pattern serves one thread at a time.
    func copy() throws -> Grep { try Grep(source, options: options) }

    /// Searches one entry file: its title and body, or every line with `frontMatter`. Returns the
    /// matching lines and their context lines, in file order. This is the per-file step: callers
    /// choose the files (a cache may choose fewer).
    public func search(_ doc: EntryText) -> [GrepLine] {
        // The lines searched, each with the byte where searching starts in it.
        var searched: [(index: Int, from: Int)] = []
        if options.frontMatter {
            searched = doc.lines.indices.map { ($0, 0) }
        } else {
            // A title written in the front matter is searched in its value only, so `title` itself
            // is not a match and `^Word` finds a title starting with Word.
            if let span = doc.span(of: "title") {
                for i in span { searched.append((i, i == span.lowerBound ? Grep.valueStart(doc.lines[i]) : 0)) }
            }
            for i in (doc.closing + 1)..<doc.lines.count { searched.append((i, 0)) }
        }
        var found: [GrepLine] = []
        var isMatch: [Bool] = []
        for (index, from) in searched {
            var text = Grep.withoutEnding(doc.lines[index])
            let ranges = text.withUTF8 { buf -> [Range<Int>] in
                guard from <= buf.count else { return [] }
                return pattern.matches(in: UnsafeBufferPointer(rebasing: buf[from...])).map { ($0.lowerBound + from)..<($0.upperBound + from) }
            }
            found.append(GrepLine(number: index + 1, text: text, matches: ranges))
            isMatch.append(!ranges.isEmpty)
        }
        if !isMatch.contains(true) { return [] }
        return Grep.withContext(found, isMatch: isMatch, before: options.before, after: options.after)
    }

    /// Keeps the matching lines and the lines within `before`/`after` file lines of one.
    static func withContext(_ lines: [GrepLine], isMatch: [Bool], before: Int, after: Int) -> [GrepLine] {
        var keep = isMatch
        if before > 0 || after > 0 {
            var lastMatch = Int.min / 2
            for (k, line) in lines.enumerated() {
                if isMatch[k] { lastMatch = line.number } else if line.number - lastMatch <= after { keep[k] = true }
            }
            var nextMatch = Int.max / 2
            for (k, line) in lines.enumerated().reversed() {
                if isMatch[k] { nextMatch = line.number } else if nextMatch - line.number <= before { keep[k] = true }
            }
        }
        return lines.indices.filter { keep[$0] }.map { lines[$0] }
    }

    /// Where a `key: value` line's value starts (after the colon and the blanks after it).
    static func valueStart(_ line: String) -> Int {
        let bytes = Array(line.utf8)
        guard var i = bytes.firstIndex(of: UInt8(ascii: ":")) else { return 0 }
        i += 1
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        return i
    }

    /// The line without `\n` or `\r\n`: what is shown and searched.
    static func withoutEnding(_ line: String) -> String {
        var bytes = line.utf8[...]
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        return bytes.count == line.utf8.count ? line : String(decoding: bytes, as: UTF8.self)
    }
}
