// Where a coding's quote sits in an entry's body, as offsets in Unicode scalars.
import Foundation

/// A segment of a body: `start` and `end` (exclusive) count Unicode scalars of the body from 0,
/// as REFI-QDA and most QDA tools count positions. A line break `\r\n` counts as two scalars.
public struct QuoteAnchor: Equatable, Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var range: Range<Int> { start..<end }

    public func overlaps(_ other: QuoteAnchor) -> Bool {
        start < other.end && other.start < end
    }

    /// The `occurrence`-th (1-based) match of `quote` in `body`; nil when it does not occur that
    /// often (the coding is orphaned). Matches are counted left to right without overlapping.
    /// A line break in the quote matches `\n` or `\r\n` in the body, so a quote copied from a
    /// CRLF file or typed on the command line finds the same text.
    public static func locate(_ quote: String, occurrence: Int = 1, in body: String) -> QuoteAnchor? {
        var search = QuoteSearch(body)
        return search.anchor(of: quote, occurrence: occurrence)
    }

    /// Where a coding applies: its quote's anchor, the whole body for a whole-entry coding, nil
    /// when the quote is orphaned.
    public static func locate(_ coding: Coding, in body: String) -> QuoteAnchor? {
        var search = QuoteSearch(body)
        return search.anchor(of: coding)
    }

    /// Where each coding applies (as `locate(_:in:)`), the body read once and each quote looked
    /// for once: one search of the whole body per coding took seconds for 2,000 codings.
    public static func locate(_ codings: [Coding], in body: String) -> [QuoteAnchor?] {
        var search = QuoteSearch(body)
        return codings.map { search.anchor(of: $0) }
    }

    /// How many times `quote` occurs in `body` (counted as `locate` counts them).
    public static func count(of quote: String, in body: String) -> Int {
        var search = QuoteSearch(body)
        return search.count(of: quote)
    }

    /// Which occurrence of `quote` starts at scalar offset `start` of `body`, if one does.
    public static func occurrence(of quote: String, startingAt start: Int, in body: String) -> Int? {
        var search = QuoteSearch(body)
        return search.occurrence(of: quote, startingAt: start)
    }
}

/// Text with `\r\n` folded to `\n`, remembering each scalar's offset in the original.
/// One body, normalized once, and the matches of each quote looked for in it (kept, so codings
/// that quote the same words cost one search).
struct QuoteSearch {
    private let text: NormalizedText
    private var found: [String: (length: Int, starts: [Int])] = [:]

    init(_ body: String) { text = NormalizedText(body) }

    /// The quote's length (normalized) and where its non-overlapping matches start.
    private mutating func matches(of quote: String) -> (length: Int, starts: [Int]) {
        if let m = found[quote] { return m }
        let needle = NormalizedText(quote)
        let m = (needle.count, needle.count == 0 ? [] : text.matches(of: needle))
        found[quote] = m
        return m
    }

    /// The `occurrence`-th (1-based) match of `quote`; nil when it does not occur that often.
    mutating func anchor(of quote: String, occurrence: Int) -> QuoteAnchor? {
        let m = matches(of: quote)
        guard occurrence >= 1, occurrence <= m.starts.count else { return nil }
        let start = m.starts[occurrence - 1]
        return QuoteAnchor(start: text.offset(start), end: text.offset(start + m.length))
    }

    /// Where a coding applies: its quote's anchor, or the whole body.
    mutating func anchor(of coding: Coding) -> QuoteAnchor? {
        guard let quote = coding.quote else { return QuoteAnchor(start: 0, end: text.offset(text.count)) }
        return anchor(of: quote, occurrence: coding.occurrence ?? 1)
    }

    mutating func count(of quote: String) -> Int { matches(of: quote).starts.count }

    /// Which occurrence (1-based) of `quote` starts at scalar offset `start` of the body, if one does.
    mutating func occurrence(of quote: String, startingAt start: Int) -> Int? {
        let m = matches(of: quote)
        return m.starts.firstIndex { text.offset($0) == start }.map { $0 + 1 }
    }
}

struct NormalizedText {
    /// The text when it is ASCII without `\r` (most bodies): nothing is folded, and scalar i is
    /// byte i, so positions need no table and matches are found in its bytes (`ByteSearch`),
    /// where the String keeps them (no copy).
    private var ascii: String?
    private var scalars: [Unicode.Scalar] = []
    /// `original[i]` is the original offset of normalized scalar `i`; one extra entry for the end.
    private var original: [Int] = []

    init(_ s: String) {
        var s = s
        if NormalizedText.asciiFastPath, s.withUTF8(NormalizedText.isASCIIWithoutCR) {
            ascii = s
            return
        }
        let all = Array(s.unicodeScalars)
        var i = 0
        while i < all.count {
            original.append(i)
            if all[i] == "\r", i + 1 < all.count, all[i + 1] == "\n" {
                scalars.append("\n")
                i += 2
            } else {
                scalars.append(all[i])
                i += 1
            }
        }
        original.append(all.count)
    }

    /// Whether the bytes are ASCII without `\r`: eight at a time for the first, memchr for the second.
    static func isASCIIWithoutCR(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        var i = 0, high: UInt64 = 0
        while i + 8 <= b.count {
            high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < b.count { high |= UInt64(b[i]); i += 1 }
        return high & 0x8080_8080_8080_8080 == 0 && memchr(base, 0x0D, b.count) == nil
    }

    /// Whether ASCII text is kept as bytes; tests turn it off to compare with the general path.
    nonisolated(unsafe) static var asciiFastPath = true

    /// How many scalars the text has after folding.
    var count: Int { ascii?.utf8.count ?? scalars.count }

    /// The original scalar offset of normalized position `i` (0 through `count`).
    func offset(_ i: Int) -> Int { ascii == nil ? original[i] : i }

    /// The normalized text's scalars.
    private var allScalars: [Unicode.Scalar] { ascii.map { Array($0.unicodeScalars) } ?? scalars }

    /// Start indices (normalized) of the non-overlapping matches of `needle`, left to right.
    func matches(of needle: NormalizedText) -> [Int] {
        var out: [Int] = []
        guard needle.count > 0, needle.count <= count else { return out }
        if var hay = ascii {
            // A needle with a character beyond ASCII or a `\r` left after folding is not in this text.
            var n: String
            if let a = needle.ascii { n = a } else {
                guard needle.scalars.allSatisfy({ $0.isASCII && $0 != "\r" }) else { return out }
                n = String(String.UnicodeScalarView(needle.scalars))
            }
            return hay.withUTF8 { h in n.withUTF8 { ByteSearch.matches(of: $0, in: h) } }
        }
        let needle = needle.allScalars
        guard let first = needle.first else { return out }
        var i = 0
        let last = scalars.count - needle.count
        while i <= last {
            if scalars[i] == first, scalars[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }
}
