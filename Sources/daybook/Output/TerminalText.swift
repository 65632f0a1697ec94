// Text from the diary shown on a terminal: control characters made visible, never obeyed.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A title holding ESC, BEL or a carriage return would, printed raw, recolour the terminal, set
/// its window title or overwrite the line before it (and a right-to-left override would reorder
/// it). On a terminal such characters are shown escaped as the front matter writes them
/// (`\t`, `\n`, `\r`, else `\u001B`), as ls(1) and git do for file names; into a pipe or a file
/// the text goes unchanged, so scripts get the bytes that are in the entry.
enum TerminalText {
    static let stdoutIsTerminal = isatty(1) == 1

    /// `s` escaped when stdout is a terminal.
    static func shown(_ s: String) -> String { stdoutIsTerminal ? escaped(s) : s }

    static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out += "\\u" + String(format: "%04X", u.value)
            }
        }
        return out
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional overrides and isolates.
    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
