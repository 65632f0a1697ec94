// Escaping text for HTML, and the file names of tag and code pages.
import Foundation

public enum HTMLText {
    public static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A tag or code as a file name: `/` (which nests) becomes `~`, which no tag or code holds.
    static func pageName(_ name: String) -> String {
        name.replacingOccurrences(of: "/", with: "~")
    }

    /// A `#RRGGBB` colour, or nil for anything else (a codebook colour never reaches CSS unchecked).
    static func color(_ s: String?) -> String? {
        guard let s, s.hasPrefix("#"), s.count == 7 || s.count == 9,
              s.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return String(s.prefix(7)).lowercased()
    }
}
