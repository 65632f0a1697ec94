// What the prose of a body holds: its words, its first heading, its inline #tags.
import Foundation

public struct Prose: Sendable {
    public var words: Int
    public var firstHeading: String?
    /// Inline tags in order of first appearance, lowercase.
    public var inlineTags: [String]

    public init(markdown text: String) {
        if let plain = Prose.plain(text) { self = plain } else { self.init(document: Markdown.parse(text)) }
    }

    private init(words: Int) {
        self.words = words
        firstHeading = nil
        inlineTags = []
    }

    /// Prose that holds nothing Markdown reads as markup is counted without building its tree: no
    /// character that starts emphasis, code, links, HTML, entities, escapes, tables or autolinks
    /// (`:`, `@`, `www.`), no line that could start a block other than a paragraph (indented, a
    /// list item, a heading underline), and no `#` that could open a heading (a `#` followed by a
    /// space, a line break, another `#` or the end). Its paragraphs' words are then the text's
    /// words, it has no heading, and its inline tags are those `scanTags` finds in the text (a `#`
    /// elsewhere is text to Markdown; the text's line breaks and blank lines part tags as the
    /// tree's soft breaks and paragraphs do). Nil for anything else.
    static func plain(_ text: String) -> Prose? { plain(text, lanes: true) }

    /// `plain`, with or without `ordinaryRun` (a test compares the two).
    static func plain(_ text: String, lanes: Bool) -> Prose? {
        var text = text
        guard let state = text.withUTF8({ plainState($0, lanes: lanes) }) else { return nil }
        var prose = Prose(words: state.high ? Prose.countWords(text) : state.words)
        if state.hashes {
            var seen = Set<String>()
            Prose.scanTags(text, into: &prose.inlineTags, seen: &seen)
        }
        return prose
    }

    /// `plain` of a text given as bytes (an entry file's body, no String made of it): the same
    /// answer when the bytes are ASCII; nil when they are not plain, or not all ASCII (then the
    /// caller makes the String, which also validates it as UTF-8).
    static func plainASCII(_ b: UnsafeBufferPointer<UInt8>) -> Prose? {
        guard let state = plainState(b, lanes: true), !state.high else { return nil }
        var prose = Prose(words: state.words)
        if state.hashes {
            var seen = Set<String>()
            Prose.scanTags(bytes: b, into: &prose.inlineTags, seen: &seen)
        }
        return prose
    }

    /// What `plain` finds in the bytes (words, whether there are `#` and bytes beyond ASCII);
    /// nil when they are not plain prose.
    private static func plainState(_ b: UnsafeBufferPointer<UInt8>, lanes: Bool) -> PlainState? {
        var state = PlainState()
        let isPlain = Prose.byteClasses.withUnsafeBufferPointer { table -> Bool in
            // Without a branch per byte: `seen` gathers every class met, `state.counted` says
            // the current word (a run of non-space) has had its letter or digit, so a word is
            // counted at its first one, as `countWords` counts it.
            var seen: UInt8 = 0
            var i = 0
            while i < b.count {
                // Up to 64 bytes of ordinary prose at once, where the processor can.
                if lanes {
                    guard let taken = Prose.ordinaryRun(b, at: i, table: table, state: &state) else { return false }
                    if taken > 0 { i += taken; continue }
                }
                // Eight bytes of letters, digits and spaces inside a line at once (most of prose).
                // (Those of the eight before the first other byte, so a `.` costs one byte's test.)
                if state.afterNewline == 0 {
                    let n = Prose.wordsInRun(b, at: i, words: &state.words, counted: &state.counted)
                    if n > 0 { i += n; continue }
                }
                let c = b[i], k = table[Int(c)]
                seen |= k | (state.afterNewline & (k & Prose.startsBlock) << 5) // a block start shows as 64
                // `#` is text unless it could open a heading: then the tree decides.
                if k & Prose.hash != 0, i + 1 == b.count || table[Int(b[i + 1])] & (Prose.space | Prose.hash) != 0 {
                    return false
                }
                // `www.` starts an autolink.
                if k & Prose.dot != 0, i >= 3, (b[i - 1] | 0x20) == UInt8(ascii: "w"), (b[i - 2] | 0x20) == UInt8(ascii: "w"),
                   (b[i - 3] | 0x20) == UInt8(ascii: "w") {
                    return false
                }
                Prose.wordStep(k, words: &state.words, counted: &state.counted)
                // A lone `\r` ends a line too (to Markdown, `\n\r` holds a blank line).
                state.afterNewline = c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") ? 0xFF : 0
                i += 1
            }
            if seen & Prose.high != 0 { state.high = true }
            if seen & Prose.hash != 0 { state.hashes = true }
            return seen & (Prose.markup | Prose.blockStart) == 0
        }
        return isPlain ? state : nil
    }

    /// Counts the words that start in the run of letters, digits and spaces at byte `i` (up to
    /// eight bytes, before the first other byte) and returns how many bytes it took: 0 when byte
    /// `i` is another byte or fewer than eight are left. A word counts at its first letter or
    /// digit; `counted` says whether the word under way has had one (as `wordStep` keeps it).
    @inline(__always)
    static func wordsInRun(_ b: UnsafeBufferPointer<UInt8>, at i: Int, words: inout Int, counted: inout Int) -> Int {
        guard i + 8 <= b.count else { return 0 }
        let (n, alnum) = leadingLettersDigitsAndSpaces(UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)))
        guard n > 0 else { return 0 }
        words += (alnum & ~(alnum << 8 | UInt64(counted) << 7)).nonzeroBitCount
        counted = Int(alnum >> (8 * n - 1)) & 1
        return n
    }

    /// One byte of class `k` (`byteClasses`) for the word count, without a branch.
    @inline(__always)
    static func wordStep(_ k: UInt8, words: inout Int, counted: inout Int) {
        let alnum = Int(k >> 4) & 1, space = Int(k >> 3) & 1
        words += alnum & (counted ^ 1)
        counted = (counted | alnum) & (space ^ 1)
    }

    /// How many of eight bytes, from the first, are ASCII letters, digits or spaces (0 to 8), and
    /// 0x80 in the place of each letter and digit among those. The bytes are tested side by side:
    /// adding 0x80 - n to a byte below 0x80 sets its top bit exactly when it is n or more, and
    /// never carries into the next byte; a byte from 0x80 may carry, but only into later bytes,
    /// which come after it and so are not counted.
    static func leadingLettersDigitsAndSpaces(_ x: UInt64) -> (count: Int, alnum: UInt64) {
        let high: UInt64 = 0x8080_8080_8080_8080, low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        func atLeast(_ v: UInt64, _ n: UInt8) -> UInt64 { (v &+ UInt64(0x80 - n) &* 0x0101_0101_0101_0101) & high }
        let ascii = ~x & high
        let lower = x | 0x2020_2020_2020_2020 // A–Z read as a–z (and nothing else as a letter)
        let letters = atLeast(lower, 0x61) & ~atLeast(lower, 0x7B)
        let digits = atLeast(x, 0x30) & ~atLeast(x, 0x3A)
        let y = x ^ 0x2020_2020_2020_2020 // a space becomes a zero byte
        let spaces = ~((y & low7) &+ low7 | y) & high
        let alnum = (letters | digits) & ascii
        let other = ~(alnum | spaces) & high
        guard other != 0 else { return (8, alnum) }
        let n = other.trailingZeroBitCount / 8
        return (n, alnum & (UInt64(1) << (8 * n) &- 1))
    }

    // What each byte is to `plain` and `countWords`, one table look-up instead of a chain of tests.
    static let markup: UInt8 = 1, startsBlock: UInt8 = 2, dot: UInt8 = 4, space: UInt8 = 8, alnum: UInt8 = 16, hash: UInt8 = 32
    /// Not in the table: `plain` marks a line that starts with `startsBlock` (2 << 5), and bytes beyond ASCII.
    static let blockStart: UInt8 = 64, high: UInt8 = 128
    static let byteClasses: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        // Characters that start markup (emphasis, code, links, HTML, entities, escapes, tables,
        // autolinks), and control characters; `#` (a tag, or a heading) is told apart by `plain`.
        for c in "\\`*_[]<>&|~@:".utf8 { t[Int(c)] |= markup }
        t[Int(UInt8(ascii: "#"))] |= hash
        for c in [0x00...0x08, 0x0B...0x0C, 0x0E...0x1F, 0x7F...0x7F].joined() { t[c] |= markup }
        // At the start of a line: an indented block, a list item, a heading underline.
        for c in " \t-+=0123456789".utf8 { t[Int(c)] |= startsBlock }
        t[Int(UInt8(ascii: "."))] |= dot
        for c in [0x20...0x20, 0x09...0x0D].joined() { t[c] |= space }
        for c in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8 { t[Int(c)] |= alnum }
        for c in 0x80...0xFF { t[c] |= high }
        return t
    }()

    public init(document: MarkdownNode) {
        var walk = Walk()
        walk.visit(document)
        words = walk.words
        firstHeading = walk.heading
        inlineTags = walk.tags
    }

    /// One pass over the tree, gathering words, the first heading and inline tags.
    private struct Walk {
        var words = 0
        var heading: String?
        var tags: [String] = []
        var seen = Set<String>()

        mutating func visit(_ node: MarkdownNode) {
            switch node.kind {
            case .codeBlock, .htmlBlock:
                return
            case .heading:
                if heading == nil { heading = node.plainText.trimmingCharacters(in: .whitespaces) }
            default:
                break
            }
            // Words are counted over a block's inline text as a whole, so markup inside a word
            // (`un**believ**able`) does not split it.
            if node.children.contains(where: \.isInline) {
                var text = ""
                Prose.appendProse(of: node, to: &text)
                words += Prose.countWords(text)
            }
            scanTags(in: node)
        }

        /// Tags live in runs of text only: adjacent text siblings form one run (cmark splits text
        /// at `[`, `!`, …); code, links, images and raw HTML hold none. Blocks are visited.
        mutating func scanTags(in node: MarkdownNode) {
            var run = ""
            for child in node.children {
                switch child.kind {
                case .text: run += child.literal; continue
                case .softBreak, .lineBreak: run += " "; continue
                default: break
                }
                Prose.scanTags(run, into: &tags, seen: &seen)
                run = ""
                switch child.kind {
                case .emphasis, .strong, .strikethrough: scanTags(in: child)
                case .code, .htmlInline, .image, .link, .footnoteReference: break
                default: visit(child)
                }
            }
            Prose.scanTags(run, into: &tags, seen: &seen)
        }
    }

    /// The inline children of `node` as a reader reads them: emphasis and link text kept, URLs of
    /// autolinks, images, raw HTML and footnote markers replaced by a space (they separate words).
    static func appendProse(of node: MarkdownNode, to text: inout String) {
        for child in node.children {
            switch child.kind {
            case .text, .code: text += child.literal
            case .softBreak, .lineBreak, .image, .htmlInline, .footnoteReference: text += " "
            case .link where isAutolink(child): text += " "
            case .emphasis, .strong, .strikethrough, .link: appendProse(of: child, to: &text)
            default: break // blocks and unknown nodes are visited on their own
            }
        }
    }

    /// A link whose text is its own address: `<https://…>`, `www.example.org`, `me@example.org`.
    static func isAutolink(_ node: MarkdownNode) -> Bool {
        let text = node.plainText
        return [text, "mailto:" + text, "http://" + text, "https://" + text].contains(node.url)
    }

    /// Words: runs of non-space characters that hold at least one letter or digit.
    public static func countWords(_ s: String) -> Int {
        // ASCII text (most prose) is counted from its bytes with the table of `plain`, as `plain`
        // counts: a word at its first letter or digit, eight bytes at once where they are letters,
        // digits and spaces.
        var text = s
        if let n = text.withUTF8({ b in
            Prose.byteClasses.withUnsafeBufferPointer { table -> Int? in
                var n = 0, counted = 0, i = 0
                while i < b.count {
                    let m = Prose.wordsInRun(b, at: i, words: &n, counted: &counted)
                    if m > 0 { i += m; continue }
                    let c = b[i]
                    if c >= 0x80 { return nil }
                    let k = table[Int(c)]
                    Prose.wordStep(k, words: &n, counted: &counted)
                    i += 1
                }
                return n
            }
        }) { return n }
        var n = 0
        var inWord = false, hasAlnum = false
        for u in s.unicodeScalars {
            // ASCII answers without a Unicode property look-up.
            let space: Bool, alnum: Bool
            if u.value < 0x80 {
                let b = UInt8(u.value)
                space = b == 0x20 || (b >= 0x09 && b <= 0x0D)
                alnum = (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
            } else {
                space = u.properties.isWhitespace
                alnum = !space && (u.properties.isAlphabetic || u.properties.numericType != nil)
            }
            if space {
                if inWord && hasAlnum { n += 1 }
                inWord = false; hasAlnum = false
            } else {
                inWord = true
                if alnum { hasAlnum = true }
            }
        }
        if inWord && hasAlnum { n += 1 }
        return n
    }

    /// Finds `#tag` in prose: `#` at the start or after a character that is not a letter, digit,
    /// `/`, `#` or `&`; then tag characters; at least one of them not a digit (`#1` is no tag).
    /// Read from the UTF-8 bytes: memchr finds each `#` (a byte no other character's encoding
    /// holds), and only the characters around it are decoded (a whole body's characters were
    /// copied into an array for each body before).
    public static func scanTags(_ s: String, into tags: inout [String], seen: inout Set<String>) {
        var text = s
        text.withUTF8 { scanTags(bytes: $0, into: &tags, seen: &seen) }
    }

    /// `scanTags` of valid UTF-8 bytes.
    static func scanTags(bytes b: UnsafeBufferPointer<UInt8>, into tags: inout [String], seen: inout Set<String>) {
        guard let base = b.baseAddress else { return }
        var from = 0
        while from < b.count, let hit = memchr(base + from, Int32(UInt8(ascii: "#")), b.count - from) {
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            from = i + 1
            // The character before the `#`: back over continuation bytes to its first byte.
            var p = i - 1
            while p > 0, b[p] & 0xC0 == 0x80 { p -= 1 }
            let prevOK = p < 0 || {
                let prev = scalar(b, at: p).value
                return !(Tag.isTagCharacter(prev) || prev == "#" || prev == "&")
            }()
            // Tag characters after it, without a final `/` or `-` (punctuation after a tag).
            var j = i + 1
            while j < b.count {
                let (u, n) = scalar(b, at: j)
                guard Tag.isTagCharacter(u) else { break }
                j += n
            }
            while j > i + 1, b[j - 1] == UInt8(ascii: "/") || b[j - 1] == UInt8(ascii: "-") { j -= 1 }
            guard prevOK, j > i + 1 else { continue }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<j]), as: UTF8.self).lowercased()
            if name.unicodeScalars.contains(where: { !CharacterSet.decimalDigits.contains($0) }),
               Tag.isValid(name), seen.insert(name).inserted {
                tags.append(name)
            }
        }
    }

    /// The character whose encoding starts at byte `i` of valid UTF-8, and its length in bytes.
    private static func scalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: Unicode.Scalar, length: Int) {
        let c = b[i]
        if c < 0x80 { return (Unicode.Scalar(c), 1) }
        let n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2
        var v = UInt32(c) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for k in 1..<n { v = v << 6 | UInt32(b[i + k] & 0x3F) }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", n)
    }
}

extension MarkdownNode {
    /// Whether the node is inline content of a paragraph, heading or table cell.
    var isInline: Bool {
        switch kind {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .emphasis, .strong, .link, .image,
             .footnoteReference, .strikethrough:
            return true
        default:
            return false
        }
    }
}
