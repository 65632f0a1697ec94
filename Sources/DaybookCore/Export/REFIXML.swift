// What the two REFI-QDA formats share: XML escaping, stable GUIDs, and the code tree.
import Foundation

enum REFIXML {
    static let header = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

    /// Text for XML 1.0: markup characters escaped, characters XML cannot hold dropped.
    /// In attributes line breaks and tabs become references, so parsers do not fold them to spaces.
    static func escape(_ s: String, attribute: Bool = false) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            case "\t", "\n": out.unicodeScalars.append(u)
            default:
                let v = u.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// ` name="value"` pairs, skipping absent values.
    static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { k, v in v.map { " \(k)=\"\(escape($0, attribute: true))\"" } }.joined()
    }

    static func guid(_ kind: String, _ name: String) -> String { NameUUID.make("daybook:\(kind):\(name)") }
    static func codeGUID(_ code: String) -> String { guid("code", code) }
    static func coderGUID(_ coder: String) -> String { guid("coder", coder) }

    /// A code's `name` in a REFI-QDA file. The hierarchy there is the nesting of `<Code>`
    /// elements alone, and readers show it as a path joined with `/` (`emotions/frustration`); so
    /// a `/` inside a daybook code's name is written as `∕` (U+2215 DIVISION SLASH), which looks
    /// the same and is never a separator: `work/alpha` under `emotions` reads `emotions/work∕alpha`.
    static func codeName(_ code: String) -> String { code.replacingOccurrences(of: "/", with: "\u{2215}") }

    /// A daybook code name from a REFI-QDA `name`, as `import qdpx|qdc` takes it: `∕` back to `/`,
    /// lowercase, and every run of characters a code name cannot hold (spaces, punctuation) one
    /// `-`; a `/` typed in another program stays in the name (never a level of the hierarchy).
    /// Nil when nothing usable is left.
    public static func daybookCodeName(_ refiName: String) -> String? {
        let name = refiName.replacingOccurrences(of: "\u{2215}", with: "/").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var out = ""
        for u in name.unicodeScalars {
            if Tag.isTagCharacter(u) {
                if u == "/" && (out.isEmpty || out.hasSuffix("/") || out.hasSuffix("-")) { continue }
                out.unicodeScalars.append(u)
            } else if !out.isEmpty && !out.hasSuffix("-") && !out.hasSuffix("/") {
                out += "-"
            }
        }
        while out.hasSuffix("-") || out.hasSuffix("/") { out.removeLast() }
        return Tag.isValid(out) ? out : nil
    }

    /// `<Codes>` with the codebook's tree (descriptions, colours) and then, at the top level, the
    /// codes used in entries but missing from the codebook. Nil when there is no code at all
    /// (an empty `<Codes/>` is invalid).
    static func codes(_ book: Codebook, undefined: [String], indent: String) -> String? {
        guard !book.codes.isEmpty || !undefined.isEmpty else { return nil }
        var s = indent + "<Codes>\n"
        func write(_ c: Codebook.Code, _ pad: String) {
            let color = HTMLText.color(c.color)?.uppercased()
            let attrs = attributes([("guid", codeGUID(c.name)), ("name", codeName(c.name)), ("isCodable", "true"), ("color", color)])
            if c.description == nil && c.children.isEmpty { s += pad + "<Code\(attrs)/>\n"; return }
            s += pad + "<Code\(attrs)>\n"
            if let d = c.description { s += pad + "  <Description>\(escape(d))</Description>\n" }
            for child in c.children { write(child, pad + "  ") }
            s += pad + "</Code>\n"
        }
        for c in book.codes { write(c, indent + "  ") }
        for name in undefined { write(Codebook.Code(name: name), indent + "  ") }
        return s + indent + "</Codes>\n"
    }

    /// Codes the entries use that the codebook does not define, in order of first use.
    static func undefinedCodes(_ entries: [Entry], book: Codebook) -> [String] {
        var seen = Set<String>()
        return entries.flatMap { $0.codings.map(\.code) }.filter { !book.contains($0) && seen.insert($0).inserted }
    }
}
