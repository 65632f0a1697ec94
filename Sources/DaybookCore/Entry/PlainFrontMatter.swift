// The front matter most entries have — one `key: value` per line, and lists such as `codes:`
// indented under their key — read without libyaml into nodes that read as Yams' would (`PlainNode`).
// Anything else (comments, deeper nesting, flow mappings, escapes, anchors, tabs) is left to Yams.

enum PlainFrontMatter {
    /// The front matter's mapping when every line is `key: value` with a value this reader knows
    /// (a plain scalar on one line, a double-quoted text without escapes, or a flow list of plain
    /// words), or `key:` over a block list indented two spaces whose items are such values or
    /// mappings of such `key: value` lines (as `codes:` is written); nil for anything else. Nodes
    /// carry no marks: a caller that finds a problem in them reads the front matter again with
    /// Yams, whose nodes place it.
    static func compose(_ doc: EntryText) -> PlainNode? { compose(head: doc.lines[...doc.closing].joined()) }

    /// The same from the text of the front matter, its two fences included, read as bytes (no
    /// String per line).
    static func compose(head text: String) -> PlainNode? {
        var text = text
        return text.withUTF8 { b in compose(Head(b)) }
    }

    private static func compose(_ head: Head) -> PlainNode? {
        guard head.closing > 1 else { return nil }
        var pairs: [(PlainNode, PlainNode)] = []
        pairs.reserveCapacity(head.closing - 1)
        var i = 1
        while i < head.closing {
            guard let read = Line(head[i], indent: 0) else { return nil }
            switch read {
            case let .pair(key, value):
                pairs.append((key, value))
                i += 1
            case let .blockKey(key):
                guard let (list, next) = blockList(head, from: i + 1) else { return nil }
                pairs.append((key, list))
                i = next
            case .item, .end: return nil
            }
        }
        return .map(pairs)
    }

    /// The front matter's lines (split after each `\n`, as `EntryText.splitLines` splits),
    /// counted from the opening fence (line 0) to the closing one.
    private struct Head {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where each line starts, and the end.
        var starts: [Int] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            starts.reserveCapacity(16) // most front matter: one allocation
            starts.append(0)
            for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") { starts.append(i + 1) }
            if starts.last != bytes.count { starts.append(bytes.count) }
        }

        var closing: Int { starts.count - 2 }
        subscript(i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[starts[i]..<starts[i + 1]]) }
    }

    /// What one line holds.
    private enum Line {
        /// `key: value`
        case pair(PlainNode, PlainNode)
        /// `key:` and nothing after it
        case blockKey(PlainNode)
        /// `- value` or `- key: value` (a mapping's first pair)
        case item(PlainNode?, PlainNode)
        /// A line that starts at a lesser indentation: the block ends before it.
        case end

        /// Reads a line whose content starts after `indent` spaces; nil for anything this reader leaves to Yams.
        init?(_ b: UnsafeBufferPointer<UInt8>, indent: Int) {
            var end = b.count
            if end > 0, b[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end > 0, b[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            var k = 0
            while k < indent, k < end, b[k] == UInt8(ascii: " ") { k += 1 }
            if k < indent {
                guard k < end, PlainFrontMatter.isLetter(b[k]) else { return nil }
                self = .end
                return
            }
            if indent > 0, k + 1 < end, b[k] == UInt8(ascii: "-"), b[k + 1] == UInt8(ascii: " ") {
                if let (key, value) = PlainFrontMatter.pair(b, k + 2, end) { self = .item(key, value); return }
                guard let value = PlainFrontMatter.value(b, (k + 2)..<end) else { return nil }
                self = .item(nil, value)
                return
            }
            if let (key, value) = PlainFrontMatter.pair(b, k, end) { self = .pair(key, value); return }
            // `key:` alone opens a block (at the top level only).
            guard indent == 0, end >= 2, b[end - 1] == UInt8(ascii: ":"), let key = PlainFrontMatter.key(b, 0, end - 1) else { return nil }
            self = .blockKey(key)
        }
    }

    /// The block list that starts at line `first`: items `  - …`, a mapping item's further pairs
    /// `    key: value`. The list and the line after it; nil for anything else, an empty list, or a
    /// key repeated within an item (Yams' error to report).
    private static func blockList(_ doc: Head, from first: Int) -> (PlainNode, Int)? {
        var items: [PlainNode] = []
        var open: [(PlainNode, PlainNode)]?
        var keys = SmallSet()
        func close() {
            if let open { items.append(.map(open)) }
            open = nil
        }
        var i = first
        while i < doc.closing {
            let item = Line(doc[i], indent: 2)
            if case .end? = item { break }
            if case let .item(key, value)? = item {
                close()
                if let key {
                    open = [(key, value)]
                    keys = SmallSet()
                    _ = keys.insert(key.keyText!)
                } else {
                    items.append(value)
                }
                i += 1
                continue
            }
            // Not an item: a further pair of the open mapping item, four spaces in.
            guard open != nil, case let .pair(key, value)? = Line(doc[i], indent: 4),
                  keys.insert(key.keyText!) else { return nil }
            open!.append((key, value))
            i += 1
        }
        close()
        guard !items.isEmpty else { return nil }
        return (.list(items), i)
    }

    /// `key: value` from byte `start` to `end`.
    private static func pair(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (PlainNode, PlainNode)? {
        var k = start
        while k < end, b[k] != UInt8(ascii: ":") { k += 1 }
        guard k + 2 < end, b[k + 1] == UInt8(ascii: " "), b[k + 2] != UInt8(ascii: " "),
              let key = key(b, start, k), let value = value(b, (k + 2)..<end) else { return nil }
        return (key, value)
    }

    /// A key: a letter, then letters, digits, `_` and `-` (libyaml takes up to 1,024 characters
    /// as a key without a `?`).
    private static func key(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> PlainNode? {
        guard end > start, end - start < 1024, isLetter(b[start]) else { return nil }
        for i in start..<end where !(isLetter(b[i]) || isDigit(b[i]) || b[i] == UInt8(ascii: "_") || b[i] == UInt8(ascii: "-")) {
            return nil
        }
        return .text(text(b, start..<end), quoted: false)
    }

    private static func value(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> PlainNode? {
        guard !r.isEmpty else { return nil }
        switch b[r.lowerBound] {
        case UInt8(ascii: "\""): return quoted(b, r)
        case UInt8(ascii: "["): return flowList(b, r)
        default: return plain(b, r)
        }
    }

    /// `"text"` without backslashes: its text, read as text whatever it says (as YAML reads a quoted scalar).
    private static func quoted(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> PlainNode? {
        guard r.count >= 2, b[r.upperBound - 1] == UInt8(ascii: "\"") else { return nil }
        let inner = (r.lowerBound + 1)..<(r.upperBound - 1)
        guard scan(b, inner, allowed: { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return nil }
        return .text(text(b, inner), quoted: true)
    }

    /// A plain scalar on one line: it starts with a letter or digit (no indicator), has no ` #`
    /// (a comment), no `:` followed by a space or the end (a mapping), no tab and no trailing blank.
    private static func plain(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> PlainNode? {
        guard !r.isEmpty, isLetter(b[r.lowerBound]) || isDigit(b[r.lowerBound]) || b[r.lowerBound] >= 0x80,
              b[r.upperBound - 1] != UInt8(ascii: " "), b[r.upperBound - 1] != UInt8(ascii: ":") else { return nil }
        for i in r {
            if b[i] == UInt8(ascii: "#"), b[i - 1] == UInt8(ascii: " ") { return nil }
            if b[i] == UInt8(ascii: ":"), b[i + 1] == UInt8(ascii: " ") { return nil }
        }
        guard scan(b, r, allowed: { _ in true }) else { return nil }
        return .text(text(b, r), quoted: false)
    }

    /// `[a, b-c, d/e]` (or `[]`): items of letters, digits, `_`, `-`, `/` and non-ASCII letters,
    /// each starting with a letter or digit, separated by `, `.
    private static func flowList(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> PlainNode? {
        guard r.count >= 2, b[r.upperBound - 1] == UInt8(ascii: "]") else { return nil }
        var items: [PlainNode] = []
        var i = r.lowerBound + 1
        let end = r.upperBound - 1
        var commas = 0
        for k in i..<max(i, end) where b[k] == UInt8(ascii: ",") { commas += 1 }
        items.reserveCapacity(commas + 1)
        while i < end {
            let start = i
            guard isLetter(b[i]) || isDigit(b[i]) || b[i] >= 0x80 else { return nil }
            while i < end, b[i] != UInt8(ascii: ",") { i += 1 }
            let word = start..<i
            let ok = scan(b, word) { c in
                isLetter(c) || isDigit(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "/") || c >= 0x80
            }
            guard ok else { return nil }
            items.append(.text(text(b, word), quoted: false))
            if i < end {
                // `, ` and another item.
                guard i + 2 < end, b[i + 1] == UInt8(ascii: " ") else { return nil }
                i += 2
            }
        }
        return .list(items)
    }

    /// Whether every byte of the range is printable the way YAML reads it (no control character,
    /// no tab) and passes `allowed`; non-ASCII characters must be ones YAML reads as plain text
    /// (not a line break such as U+0085, U+2028, U+2029, nor U+FEFF or a C1 control).
    private static func scan(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, allowed: (UInt8) -> Bool) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            let c = b[i]
            if c < 0x80 {
                guard c >= 0x20, c != 0x7F, allowed(c) else { return false }
                i += 1
                continue
            }
            // The line is valid UTF-8 already (it is a String): decode one scalar.
            let n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2
            guard i + n <= r.upperBound else { return false }
            var u = UInt32(c) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
            for j in 1..<n { u = u << 6 | UInt32(b[i + j] & 0x3F) }
            guard u >= 0xA0, u != 0x2028, u != 0x2029, u != 0xFEFF, u < 0xFFFE else { return false }
            i += n
        }
        return true
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self)
    }
}
