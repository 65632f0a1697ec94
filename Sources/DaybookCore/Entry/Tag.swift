// Tags: letters, digits, `_`, `-` and `/` (which nests); compared case-insensitively.
import Foundation

public enum Tag {
    public static func isTagCharacter(_ u: Unicode.Scalar) -> Bool {
        u.properties.isAlphabetic || CharacterSet.decimalDigits.contains(u) || u == "_" || u == "-" || u == "/"
    }

    /// A tag as daybook writes it: lowercase, no leading `#`.
    public static func normalize(_ s: String) -> String {
        var t = s.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("#") { t.removeFirst() }
        return t.lowercased()
    }

    public static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy(isTagCharacter) && !s.hasPrefix("/") && !s.hasSuffix("/") && !s.contains("//")
    }

    /// `project/alpha` is found by `project` and by `project/alpha`, not by `proj`.
    public static func matches(_ tag: String, query: String) -> Bool {
        tag == query || tag.hasPrefix(query + "/")
    }
}
