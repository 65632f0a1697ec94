// Entry ids: `YYYY-MM-DD-HHMM-slug`, the entry's stable name.
import Foundation

public enum Slug {
    /// The title folded to lowercase ASCII (diacritics dropped), every run of other characters
    /// replaced by one `-`, trimmed, at most 40 characters.
    public static func make(_ title: String) -> String { make(title, limit: 40) }

    /// The slug with no length limit (`export --redact` builds redacted ids from the whole
    /// redacted title, so no name is left cut short in one).
    public static func full(_ title: String) -> String { make(title, limit: Int.max) }

    static func make(_ title: String, limit: Int) -> String {
        let ascii = title.lowercased().folding(options: [.diacriticInsensitive, .widthInsensitive],
                                               locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var dash = false
        for u in ascii.lowercased().unicodeScalars {
            if (u >= "a" && u <= "z") || (u >= "0" && u <= "9") {
                if dash && !out.isEmpty { out += "-" }
                dash = false
                out.unicodeScalars.append(u)
            } else if let letters = Slug.ligatures[u] {
                if dash && !out.isEmpty { out += "-" }
                dash = false
                out += letters
            } else {
                dash = true
            }
        }
        if out.count > limit {
            out = String(out.prefix(limit))
            while out.hasSuffix("-") { out.removeLast() }
        }
        return out
    }

    /// Letters that have no decomposition into an ASCII base letter.
    static let ligatures: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i", "ŋ": "ng",
    ]

    /// The id for an entry at `date` with `title`, before any clash suffix.
    public static func id(date: LocalDateTime, title: String?) -> String {
        let base = "\(date.day)-\(date.compactTime)"
        let slug = make(title ?? "")
        return slug.isEmpty ? base : base + "-" + slug
    }

    /// Whether a string has the shape of an id (used to tell ids from other arguments).
    public static func looksLikeID(_ s: String) -> Bool {
        s.count >= 4 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
