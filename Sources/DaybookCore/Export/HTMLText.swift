// Escaping text for HTML, and the file names of tag and code pages.
import Crypto
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
    /// A file name holds at most 255 bytes: a longer name is cut at a character to `keptBytes`
    /// and ends in a short digest of the whole, so two long names that start alike stay apart.
    static func pageName(_ name: String) -> String {
        let flat = name.replacingOccurrences(of: "/", with: "~")
        guard flat.utf8.count > maxNameBytes else { return flat }
        var kept = ""
        var bytes = 0
        for c in flat {
            bytes += c.utf8.count
            if bytes > keptBytes { break }
            kept.append(c)
        }
        let digest = SHA256.hash(data: Data(name.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
        return kept + "-" + digest
    }

    /// Room for the longest page name and `.html`, with a margin for the file systems that count
    /// in UTF-16 or less.
    static let maxNameBytes = 120
    static let keptBytes = 100

    /// A `#RRGGBB` colour, or nil for anything else (a codebook colour never reaches CSS unchecked).
    static func color(_ s: String?) -> String? {
        guard let s, s.hasPrefix("#"), s.count == 7 || s.count == 9,
              s.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return String(s.prefix(7)).lowercased()
    }
}
