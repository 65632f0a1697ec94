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
        case let .string(s): return isTimestamp(s) ? s : scalar(s, inFlow: inFlow)
        case let .array(items): return "[" + items.map { value($0, inFlow: true) }.joined(separator: ", ") + "]"
        case let .object(pairs):
            return "{" + pairs.map { scalar($0.0, inFlow: true) + ": " + value($0.1, inFlow: true) }.joined(separator: ", ") + "}"
        }
    }

    /// `key: [a, b]`, the form daybook writes lists of plain values in.
    public static func flowList(_ key: String, _ items: [String]) -> String {
        "\(key): [" + items.map { scalar($0, inFlow: true) }.joined(separator: ", ") + "]"
    }

    /// A field's value that is a date (`2024-03-10`) or a date and time (`2024-03-10T08:30:00`,
    /// `2024-03-10 08:30:00+01:00`, `2024-03-10 08:30`) is written as YAML writes a timestamp, unquoted, so Obsidian,
    /// PyYAML and every YAML reader see a date (issue 13 item 12). daybook reads a timestamp back
    /// as the text it was written as, so the value is unchanged. Only real calendar dates and
    /// clock times: a YAML reader would refuse `2024-02-30` as a date, so that stays quoted.
    static func isTimestamp(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count >= 10, let day = LocalDay.parse(Substring(s.prefix(10))), day.description == String(s.prefix(10)) else { return false }
        if u.count == 10 { return true }
        guard u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "), s.range(of: timePattern, options: .regularExpression) != nil else { return false }
        func two(_ i: Int) -> Int { Int(u[i] - 48) * 10 + Int(u[i + 1] - 48) }
        return two(11) <= 23 && two(14) <= 59 && (u.count < 19 || u[16] != UInt8(ascii: ":") || two(17) <= 59)
    }

    /// YAML 1.1's timestamp after the date, with two-digit hours; also without seconds
    /// (`2024-03-10 08:30`, as Obsidian and nb write), which every YAML reader reads as that text.
    private static let timePattern = #"^.{10}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?(Z|[+-][0-9]{2}(:[0-9]{2})?)?$"#

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
