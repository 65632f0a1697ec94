// Checking a value against a template field: typed answers from a prompt or --set, and values read from an entry.
import Foundation

/// Why a value does not fit a field, in words that follow the field's name
/// ("field `mood`: 11 is off the scale 1–10").
public struct FieldRejection: Error, Equatable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

extension TemplateField {
    /// Reads text typed at a prompt or given with `--set` as a value of this field's type.
    /// An empty answer is nil (no value).
    public func value(fromAnswer answer: String) throws -> JSONValue? {
        let t = answer.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return nil }
        let value: JSONValue
        switch kind {
        case .text:
            value = .string(t)
        case .number:
            var n = t
            // "45 min" is 45 when the unit is min: people type the unit they were asked for.
            if let unit, !unit.isEmpty, n.hasSuffix(unit) { n = String(n.dropLast(unit.count)).trimmingCharacters(in: .whitespaces) }
            if let i = Int(n) { value = .int(i) }
            else if let d = Double(n.replacingOccurrences(of: ",", with: ".")), d.isFinite, !n.contains(where: { $0.isLetter }) { value = .double(d) }
            else { throw FieldRejection("`\(t)` is not a number") }
        case .scale:
            guard let i = Int(t) else { throw FieldRejection("`\(t)` is not a whole number on the scale \(hint)") }
            value = .int(i)
        case .integer:
            var n = t
            if let unit, !unit.isEmpty, n.hasSuffix(unit) { n = String(n.dropLast(unit.count)).trimmingCharacters(in: .whitespaces) }
            guard let i = Int(n) else { throw FieldRejection("`\(t)` is not a whole number") }
            value = .int(i)
        case .time:
            // Written zero-padded, so times sort and compare as text too.
            guard let s = FieldCondition.secondsOfDay(t) else { throw FieldRejection("`\(t)` is not a time of day (HH:MM)") }
            value = .string(TemplateField.timeText(s))
        case .choice:
            value = .string(try option(answering: t))
        case .multi:
            var chosen: [JSONValue] = []
            for part in t.split(separator: ",") {
                let p = part.trimmingCharacters(in: .whitespaces)
                if p.isEmpty { continue }
                let o = try option(answering: p)
                if !chosen.contains(.string(o)) { chosen.append(.string(o)) }
            }
            if chosen.isEmpty { return nil }
            value = .array(chosen)
        case .date:
            guard let day = LocalDay.parse(Substring(t)) else { throw FieldRejection("`\(t)` is not a date (YYYY-MM-DD)") }
            value = .string(day.description)
        case .bool:
            switch t.lowercased() {
            case "y", "yes", "true", "on", "1": value = .bool(true)
            case "n", "no", "false", "off", "0": value = .bool(false)
            default: throw FieldRejection("`\(t)` is not yes or no")
            }
        }
        if let reason = reason(rejecting: value) { throw FieldRejection(reason) }
        return value
    }

    /// Reads a value given with `--set`, already read as YAML. A scalar is read from its text as
    /// typed, as a prompt's answer is (`yes` stays `yes` in a text field, `45 min` is 45); a list
    /// fills a `multi` field; anything else is refused with the field's own reason.
    public func value(fromGiven given: JSONValue, text: String?) throws -> JSONValue? {
        switch given {
        case .null:
            return nil
        case let .array(items) where kind == .multi:
            var chosen: [JSONValue] = []
            for item in items {
                guard let s = textValue(item), let o = option(matching: s.trimmingCharacters(in: .whitespaces)) else {
                    throw FieldRejection("`\(item.stringValue ?? describe(item))` is not one of \(options.joined(separator: ", "))")
                }
                if !chosen.contains(.string(o)) { chosen.append(.string(o)) }
            }
            return chosen.isEmpty ? nil : .array(chosen)
        case .object where kind == .multi:
            throw FieldRejection("must be a list of \(options.joined(separator: ", ")), not a mapping")
        case .array, .object:
            throw FieldRejection(reason(rejecting: given) ?? "must be \(kind.rawValue), not \(describe(given))")
        default:
            return try value(fromAnswer: text ?? given.stringValue ?? "")
        }
    }

    /// The option an answer names, compared without case; options are written as declared.
    func option(matching answer: String) -> String? {
        options.first { $0 == answer } ?? options.first { $0.lowercased() == answer.lowercased() }
    }

    /// The option a typed answer names (at a prompt, in a form, with `--set`): the option itself
    /// (without case), its number in the list (1 for the first, unless an option is that text),
    /// or the start of exactly one option's name. A start that several options share is refused,
    /// naming them; a value read from an entry must be the option itself (`option(matching:)`).
    func option(answering answer: String) throws -> String {
        if let o = option(matching: answer) { return o }
        if let n = Int(answer), n >= 1, n <= options.count { return options[n - 1] }
        let starts = options.filter { $0.lowercased().hasPrefix(answer.lowercased()) }
        if starts.count == 1 { return starts[0] }
        if starts.count > 1 { throw FieldRejection("`\(answer)` could be \(starts.joined(separator: " or ")): type more of it") }
        throw FieldRejection("`\(answer)` is not one of \(options.joined(separator: ", ")) (nor their numbers 1–\(options.count))")
    }

    /// Why `value` (as read from YAML) does not fit this field, or nil when it does.
    /// A missing value (null) fits unless the field is required.
    public func reason(rejecting value: JSONValue?) -> String? {
        guard let value, value != .null else { return required ? "required, but missing" : nil }
        switch kind {
        case .text:
            guard let s = textValue(value) else { return "must be text, not \(describe(value))" }
            let n = s.count
            if let min, Double(n) < min { return "shorter than \(Int(min)) characters (\(n))" }
            if let max, Double(n) > max { return "longer than \(Int(max)) characters (\(n))" }
        case .number:
            guard let d = numberValue(value) else { return "must be a number, not \(describe(value))" }
            let unitText = unit.map { " " + $0 } ?? ""
            if let min, d < min { return "\(JSONValue.format(d)) is below the minimum \(JSONValue.format(min))\(unitText)" }
            if let max, d > max { return "\(JSONValue.format(d)) is above the maximum \(JSONValue.format(max))\(unitText)" }
        case .integer:
            guard case let .int(i) = value else { return "must be a whole number, not \(describe(value))" }
            let unitText = unit.map { " " + $0 } ?? ""
            if let min, Double(i) < min { return "\(i) is below the minimum \(JSONValue.format(min))\(unitText)" }
            if let max, Double(i) > max { return "\(i) is above the maximum \(JSONValue.format(max))\(unitText)" }
        case .time:
            // An unquoted 14:00 is the number 840 to YAML (base 60): a hand-written time is still one.
            guard FieldCondition.timeOfDay(value) != nil, value.stringValue.map({ !$0.contains("-") }) ?? true else {
                return "must be a time of day (HH:MM), not \(describe(value))"
            }
        case .scale:
            guard case let .int(i) = value else { return "must be a whole number on the scale \(hint), not \(describe(value))" }
            if let min, let max, Double(i) < min || Double(i) > max { return "\(i) is off the scale \(hint)" }
        case .choice:
            guard let s = textValue(value) else { return "must be one of \(options.joined(separator: ", ")), not \(describe(value))" }
            if option(matching: s) == nil { return "`\(s)` is not one of \(options.joined(separator: ", "))" }
        case .multi:
            let items: [JSONValue]
            if case let .array(a) = value { items = a } else { items = [value] }
            for item in items {
                guard let s = textValue(item), option(matching: s) != nil else {
                    return "`\(item.stringValue ?? describe(item))` is not one of \(options.joined(separator: ", "))"
                }
            }
        case .date:
            guard case let .string(s) = value, LocalDay.parse(Substring(s.prefix(10))) != nil,
                  s.count == 10 || LocalDateTime.parse(s, timeZone: TimeZone(identifier: "UTC") ?? .current) != nil else {
                return "must be a date (YYYY-MM-DD), not \(describe(value))"
            }
        case .bool:
            guard case .bool = value else { return "must be true or false, not \(describe(value))" }
        }
        return nil
    }

    /// Text fields take any scalar but a boolean: `room: 101` is text that YAML reads as a number.
    func textValue(_ v: JSONValue) -> String? {
        switch v {
        case let .string(s): return s
        case .int, .double: return v.stringValue
        default: return nil
        }
    }

    func numberValue(_ v: JSONValue) -> Double? {
        switch v {
        case let .int(i): return Double(i)
        case let .double(d): return d
        default: return nil
        }
    }

    func describe(_ v: JSONValue) -> String { v.described }

    /// Seconds after midnight as `HH:MM`, or `HH:MM:SS` when there are seconds.
    public static func timeText(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        return s == 0 ? String(format: "%02d:%02d", h, m) : String(format: "%02d:%02d:%02d", h, m, s)
    }
}

extension JSONValue {
    /// The value as a message names it: `7`, `home`, a list, a mapping, nothing.
    var described: String {
        switch self {
        case .null: return "nothing"
        case let .bool(b): return "`\(b)`"
        case .int, .double: return "`\(stringValue ?? "")`"
        case let .string(s): return "`\(s)`"
        case .array: return "a list"
        case .object: return "a mapping"
        }
    }
}
