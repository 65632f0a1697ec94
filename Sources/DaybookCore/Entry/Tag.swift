// Tags: letters, digits, `_`, `-` and `/` (which nests); compared case-insensitively.
import Foundation

public enum Tag {
    public static func isTagCharacter(_ u: Unicode.Scalar) -> Bool {
        // ASCII, most tags, without a Unicode property look-up (the same answer: ASCII's
        // alphabetic characters are A–Z and a–z, its decimal digits 0–9).
        if u.value < 0x80 {
            let b = UInt8(u.value)
            return (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "/")
        }
        return u.properties.isAlphabetic || CharacterSet.decimalDigits.contains(u)
    }

    /// A tag as daybook writes it: lowercase, no leading `#`.
    public static func normalize(_ s: String) -> String {
        // Trimming asks Foundation only when an end could be whitespace.
        let plainEnd = { (c: UInt8?) in c.map { $0 > 0x20 && $0 < 0x80 } ?? true }
        var t = plainEnd(s.utf8.first) && plainEnd(s.utf8.last) ? s : s.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("#") { t.removeFirst() }
        return t.lowercased()
    }

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy(isTagCharacter) && !s.hasPrefix("/") && !s.hasSuffix("/") && !hasDoubleSlash(s)
    }

    /// `s.contains("//")`, asked of Foundation (a search per tag) only when the bytes hold `//`:
    /// without those bytes no two characters can be `/` and `/`.
    static func hasDoubleSlash(_ s: String) -> Bool {
        var slash = false
        for b in s.utf8 {
            if b == UInt8(ascii: "/") {
                if slash { return s.contains("//") }
                slash = true
            } else {
                slash = false
            }
        }
        return false
    }

    /// `project/alpha` is found by `project` and by `project/alpha`, not by `proj`.
    public static func matches(_ tag: String, query: String) -> Bool {
        tag == query || tag.hasPrefix(query + "/")
    }
}
