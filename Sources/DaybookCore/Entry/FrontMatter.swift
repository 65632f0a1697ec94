// An entry file as lines: the front matter between `---` lines, and the body after it.
import Foundation

/// The text of an entry file split into lines that keep their own endings, so that editing a key
/// leaves every other byte as it was.
public struct EntryText: Equatable, Sendable {
    /// Every line of the file, each with its line ending (the last may have none).
    public private(set) var lines: [String]
    /// Index of the closing `---` line (the opening one is at 0).
    public private(set) var closing: Int

    /// Splits `text`; `path` names the file in errors.
    public init(_ text: String, path: String) throws {
        let lines = EntryText.splitLines(text)
        self.lines = lines
        guard let first = lines.first, EntryText.isFence(first) else {
            throw DaybookError.input("no front matter: an entry starts with a line `---`", at: SourceLocation(path: path, line: 1, column: 1))
        }
        guard let end = lines.indices.dropFirst().first(where: { EntryText.isFence(lines[$0]) }) else {
            throw DaybookError.input("the front matter is not closed by a line `---`",
                                     at: SourceLocation(path: path, line: lines.count, column: 1))
        }
        closing = end
    }

    /// Builds a new entry text from front matter lines (without fences) and a body.
    public init(frontMatter: [String], body: String) {
        lines = ["---\n"] + frontMatter.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" } + ["---\n"]
        closing = lines.count - 1
        lines += EntryText.splitLines(body)
    }

    public var text: String { lines.joined() }

    /// The YAML between the fences.
    public var yaml: String { lines[1..<closing].joined() }

    /// The body: everything after the closing fence.
    public var body: String { lines[(closing + 1)...].joined() }

    /// The file line (1-based) on which the body starts.
    public var bodyStartLine: Int { closing + 2 }

    /// The line ending this file uses (its first line's), for lines daybook adds.
    public var lineEnding: String { lines.first?.hasSuffix("\r\n") == true ? "\r\n" : "\n" }

    static func isFence(_ line: String) -> Bool {
        var line = line
        if let answer = line.withUTF8({ isFence(bytes: $0) }) { return answer }
        return line.hasPrefix("---") && line.trimmingCharacters(in: .whitespacesAndNewlines) == "---"
    }

    /// `isFence` told from a line's bytes (its ending included): `---` and ASCII blanks. Nil when a
    /// character beyond ASCII follows the dashes before anything else does: whether that is
    /// whitespace (or joins the last dash) is Foundation's to say.
    static func isFence(bytes line: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard line.count >= 3, line[0] == 0x2D, line[1] == 0x2D, line[2] == 0x2D else { return false }
        for c in line[3...] where c != 0x20 && c != 0x09 && c != 0x0A && c != 0x0D {
            return c >= 0x80 ? nil : false
        }
        return true
    }

    /// Where the body starts in an entry file's bytes, by `init`'s rule: after the line of the
    /// first fence that follows the opening one. Nil when `init` would throw, or when a line
    /// needs Foundation to tell whether it is a fence (then the String path decides).
    static func bodyOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var start = 0, opened = false
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start)
            let end = newline.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) + 1 } ?? bytes.count
            guard let fence = isFence(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
            if fence && opened { return end }
            guard opened || fence else { return nil }
            opened = true
            start = end
        }
        return nil
    }

    /// An entry file's bytes cut where `bodyOffset` says, both parts valid UTF-8: the front matter
    /// (fences included) and the body. Nil when the bytes cannot settle it; then `init` decides.
    static func cut(_ bytes: UnsafeBufferPointer<UInt8>) -> (head: String, body: String)? {
        guard let (head, rest) = cutHead(bytes), let body = String(validatingUTF8Bytes: rest) else { return nil }
        return (head, body)
    }

    /// `cut` with the body left as bytes (not validated).
    static func cutHead(_ bytes: UnsafeBufferPointer<UInt8>) -> (head: String, body: UnsafeBufferPointer<UInt8>)? {
        guard let at = bodyOffset(bytes), let head = String(validatingUTF8Bytes: UnsafeBufferPointer(rebasing: bytes[..<at])) else { return nil }
        return (head, UnsafeBufferPointer(rebasing: bytes[at...]))
    }

    /// Splits after every `\n`, keeping the endings.
    public static func splitLines(_ text: String) -> [String] {
        var out: [String] = []
        var start = text.utf8.startIndex
        let utf8 = text.utf8
        var i = start
        while i != utf8.endIndex {
            if utf8[i] == UInt8(ascii: "\n") {
                let next = utf8.index(after: i)
                out.append(String(text[start..<next]))
                start = next
            }
            i = utf8.index(after: i)
        }
        if start != utf8.endIndex { out.append(String(text[start...])) }
        return out
    }

    // MARK: Editing top-level keys in place

    /// The line indices (within `lines`) a top-level key occupies: its own line and the lines
    /// that continue its value (indented lines, block sequence items, blank lines inside).
    public func span(of key: String) -> Range<Int>? {
        var i = 1
        while i < closing {
            if EntryText.keyName(lines[i]) == key {
                var end = i + 1
                while end < closing, EntryText.continuesValue(lines[end]) { end += 1 }
                // Blank lines at the end belong to what follows.
                while end > i + 1, lines[end - 1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { end -= 1 }
                return i..<end
            }
            i += 1
        }
        return nil
    }

    /// The top-level key a line starts, if it does.
    static func keyName(_ line: String) -> String? {
        guard let c = line.first, !c.isWhitespace, c != "#", c != "-" else { return nil }
        if c == "\"" || c == "'" {
            let rest = line.dropFirst()
            guard let close = rest.firstIndex(of: c) else { return nil }
            let after = rest[rest.index(after: close)...]
            return after.hasPrefix(":") ? String(rest[..<close]) : nil
        }
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let after = line[line.index(after: colon)...]
        guard after.isEmpty || after.first!.isWhitespace else { return nil }
        return String(line[..<colon]).trimmingCharacters(in: .whitespaces)
    }

    static func continuesValue(_ line: String) -> Bool {
        // Bytes, not Characters: "\r\n" is a single Character in Swift.
        guard let c = line.utf8.first else { return false }
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { return true }
        return c == UInt8(ascii: "-") && (line.hasPrefix("- ") || line.hasPrefix("-\n") || line.hasPrefix("-\r"))
    }

    /// Replaces the lines of `key` with `newLines` (each without an ending), or adds them before
    /// the closing fence when the key is absent. Every other line keeps its bytes.
    public mutating func set(key: String, lines newLines: [String]) {
        let span = self.span(of: key)
        let ending = span.map { lines[$0.lowerBound].hasSuffix("\r\n") ? "\r\n" : "\n" } ?? lineEnding
        let rendered = newLines.map { $0 + ending }
        if let span {
            lines.replaceSubrange(span, with: rendered)
            closing += rendered.count - span.count
        } else {
            lines.insert(contentsOf: rendered, at: closing)
            closing += rendered.count
        }
    }

    /// Removes `key` and its value lines; does nothing when it is absent.
    public mutating func remove(key: String) {
        guard let span = self.span(of: key) else { return }
        lines.removeSubrange(span)
        closing -= span.count
    }

    /// Adds a paragraph after the last line of the file, a blank line before it (none when the
    /// body is empty): only bytes after the file's end are added, except a line ending the last
    /// line lacked. `paragraph` is its lines without endings; they get the file's line ending.
    public mutating func appendParagraph(_ paragraph: [String]) {
        let ending = lineEnding
        // Bytes, not Characters: "\r\n" is one Character in Swift.
        if let last = lines.indices.last, lines[last].utf8.last != UInt8(ascii: "\n") { lines[last] += ending }
        let lastBodyLine = lines.count - 1 > closing ? lines.last.map(EntryText.withoutEnding) : nil
        if let lastBodyLine, !lastBodyLine.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(ending) }
        lines += paragraph.map { $0 + ending }
    }

    /// Replaces the body, keeping the front matter bytes.
    public mutating func setBody(_ body: String) {
        lines.removeSubrange((closing + 1)...)
        lines += EntryText.splitLines(body)
    }

    /// The lines of `key` as they are now (with endings), for callers that keep a style.
    public func currentLines(of key: String) -> [String] {
        span(of: key).map { Array(lines[$0]) } ?? []
    }

    /// A line without its `\n` or `\r\n` (which Swift counts as one Character).
    public static func withoutEnding(_ line: String) -> String {
        var s = line.unicodeScalars
        if s.last == "\n" { s.removeLast(); if s.last == "\r" { s.removeLast() } }
        return String(s)
    }
}
