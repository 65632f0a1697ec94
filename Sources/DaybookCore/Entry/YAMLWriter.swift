// Writing YAML values so that they read back as the same values: plain where safe, else quoted.
import Foundation

/// Writing YAML values so that they read back as the same values.
public enum YAMLWriter {
    /// A scalar: plain when that reads back as the same string, else double-quoted.
    public static func scalar(_ s: String, inFlow: Bool = false) -> String {
        needsQuotes(s, inFlow: inFlow) ? doubleQuoted(s) : s
    }

    public static func value(_ v: JSONValue, inFlow: Bool = false) -> String {
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .double(d): return JSONValue.format(d)
        case let .string(s): return scalar(s, inFlow: inFlow)
        case let .array(items): return "[" + items.map { value($0, inFlow: true) }.joined(separator: ", ") + "]"
        case let .object(pairs):
            return "{" + pairs.map { scalar($0.0, inFlow: true) + ": " + value($0.1, inFlow: true) }.joined(separator: ", ") + "}"
        }
    }

    /// `key: [a, b]`, the form daybook writes lists of plain values in.
    public static func flowList(_ key: String, _ items: [String]) -> String {
        "\(key): [" + items.map { scalar($0, inFlow: true) }.joined(separator: ", ") + "]"
    }

    static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ""]

    static func needsQuotes(_ s: String, inFlow: Bool) -> Bool {
        if reserved.contains(s.lowercased()) { return true }
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return true }
        if first == " " || last == " " || first == "\t" { return true }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return true }
        if first == "." || first == "+" || CharacterSet.decimalDigits.contains(first) {
            // Numbers, dates and times would read back as other types.
            if Double(s) != nil || s.first!.isNumber || s.hasPrefix(".") { return true }
        }
        if s.contains(": ") || s.contains(" #") || s.hasSuffix(":") { return true }
        if inFlow && s.unicodeScalars.contains(where: { ",[]{}".unicodeScalars.contains($0) }) { return true }
        return s.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{7f}" || $0 == "\u{feff}" || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    public static func doubleQuoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case let c where c.value < 0x20 || c.value == 0x7f || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" || c == "\u{feff}":
                out += String(format: "\\u%04X", c.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
