// A field's `when:` condition over earlier answers: its parser (errors at the template's line) and its evaluation.
import Foundation

/// `when: smoked == true and (cigarettes > 10 or place in [work, bar])`. A field whose condition
/// does not hold is not asked and not written; whether it was asked is always worked out again
/// from the answers, so nothing in an entry records it.
public indirect enum AskCondition: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// `when: smoked`: a yes/no field answered yes, any other field answered at all.
    case answered(String)
    case compare(String, Comparison, JSONValue)
    case oneOf(String, [JSONValue])
    case not(AskCondition)
    case and(AskCondition, AskCondition)
    case or(AskCondition, AskCondition)

    /// The fields the condition reads.
    public var fieldNames: [String] {
        switch self {
        case let .answered(n), let .compare(n, _, _), let .oneOf(n, _): return [n]
        case let .not(c): return c.fieldNames
        case let .and(a, b), let .or(a, b): return a.fieldNames + b.fieldNames
        }
    }

    /// Whether the condition holds for these answers (`answer(name)` is nil or null for a field
    /// not answered, or not asked). A comparison with a missing answer is false, `!=` too: a
    /// follow-up to a question nobody answered is not asked; `not` turns that into true.
    public func holds(_ fields: [TemplateField], answer: (String) -> JSONValue?) -> Bool {
        func present(_ name: String) -> JSONValue? {
            guard let v = answer(name), v != .null else { return nil }
            if case let .array(a) = v, a.isEmpty { return nil }
            if case let .string(s) = v, s.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            return v
        }
        switch self {
        case let .answered(name):
            guard let v = present(name) else { return false }
            if case let .bool(b) = v { return b }
            return true
        case let .compare(name, op, literal):
            guard let v = present(name), let field = fields.first(where: { $0.name == name }) else { return false }
            return AskCondition.compare(v, op, literal, field)
        case let .oneOf(name, list):
            guard let v = present(name), let field = fields.first(where: { $0.name == name }) else { return false }
            return list.contains { AskCondition.compare(v, .equal, $0, field) }
        case let .not(c): return !c.holds(fields, answer: answer)
        case let .and(a, b): return a.holds(fields, answer: answer) && b.holds(fields, answer: answer)
        case let .or(a, b): return a.holds(fields, answer: answer) || b.holds(fields, answer: answer)
        }
    }

    /// `value op literal` for a field's value; a `multi` answer equals each option chosen.
    static func compare(_ value: JSONValue, _ op: Comparison, _ literal: JSONValue, _ field: TemplateField) -> Bool {
        if case let .array(items) = value {
            let hit = items.contains { compare($0, .equal, literal, field) }
            return op == .notEqual ? !hit : op == .equal && hit
        }
        let order: ComparisonResult?
        if field.kind == .time, let a = FieldCondition.timeOfDay(value), let b = FieldCondition.timeOfDay(literal) {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else if let a = field.numberValue(value), let b = field.numberValue(literal) {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else if case let .bool(a) = value, case let .bool(b) = literal {
            order = a == b ? .orderedSame : nil
        } else if let a = field.textValue(value), let b = field.textValue(literal) {
            // Dates compare as their days (a date field may hold a time after the day); text and
            // options without case, as an answer matches an option.
            let x = field.kind == .date ? String(a.prefix(10)) : a.lowercased()
            let y = field.kind == .date ? String(b.prefix(10)) : b.lowercased()
            order = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        } else {
            order = nil
        }
        switch op {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order == .orderedAscending || order == .orderedSame
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order == .orderedDescending || order == .orderedSame
        }
    }
}

/// Reads the text of a `when:`. `earlier` are the fields declared before the one it belongs to:
/// a condition can only look back, so the prompts always know the answer it needs.
struct AskConditionParser {
    enum Token: Equatable {
        case word(String), quoted(String), symbol(String), end
    }

    let text: String
    let earlier: [TemplateField]
    var tokens: [Token] = []
    var position = 0

    init(_ text: String, earlier: [TemplateField]) {
        self.text = text
        self.earlier = earlier
    }

    /// The condition, or a `FieldRejection` whose reason says what is wrong and where in the text.
    static func parse(_ text: String, earlier: [TemplateField]) throws -> AskCondition {
        var parser = AskConditionParser(text, earlier: earlier)
        parser.tokens = try tokenize(text)
        let condition = try parser.expression()
        guard parser.peek == .end else { throw parser.unexpected("and, or or the end") }
        return condition
    }

    static let symbols = ["==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", ",", "="]

    static func tokenize(_ text: String) throws -> [Token] {
        var out: [Token] = []
        var s = Substring(text)
        while let c = s.first {
            if c.isWhitespace { s = s.dropFirst(); continue }
            if c == "\"" || c == "'" {
                let rest = s.dropFirst()
                guard let close = rest.firstIndex(of: c) else { throw FieldRejection("the quote \(c) before `\(rest.prefix(20))` is not closed") }
                out.append(.quoted(String(rest[..<close])))
                s = rest[rest.index(after: close)...]
                continue
            }
            if let sym = symbols.first(where: { s.hasPrefix($0) }) {
                if sym == "=" { throw FieldRejection("`=` alone is not a comparison: write `==`") }
                out.append(.symbol(sym))
                s = s.dropFirst(sym.count)
                continue
            }
            if c == "!" { throw FieldRejection("`!` alone is not a comparison: write `!=`, or `not` before a condition") }
            let word = s.prefix { !$0.isWhitespace && !"\"'()[],=!<>".contains($0) }
            out.append(.word(String(word)))
            s = s.dropFirst(word.count)
        }
        return out + [.end]
    }

    var peek: Token { tokens[min(position, tokens.count - 1)] }

    mutating func next() -> Token {
        defer { position += 1 }
        return peek
    }

    func describe(_ t: Token) -> String {
        switch t {
        case let .word(w): return "`\(w)`"
        case let .quoted(q): return "\"\(q)\""
        case let .symbol(s): return "`\(s)`"
        case .end: return "the end"
        }
    }

    func unexpected(_ wanted: String) -> FieldRejection {
        FieldRejection("expected \(wanted), found \(describe(peek))")
    }

    func isKeyword(_ t: Token, _ k: String) -> Bool {
        if case let .word(w) = t { return w.lowercased() == k }
        return false
    }

    mutating func expression() throws -> AskCondition {
        var left = try conjunction()
        while isKeyword(peek, "or") { _ = next(); left = .or(left, try conjunction()) }
        return left
    }

    mutating func conjunction() throws -> AskCondition {
        var left = try negation()
        while isKeyword(peek, "and") { _ = next(); left = .and(left, try negation()) }
        return left
    }

    mutating func negation() throws -> AskCondition {
        if isKeyword(peek, "not") { _ = next(); return .not(try negation()) }
        if peek == .symbol("(") {
            _ = next()
            let inner = try expression()
            guard peek == .symbol(")") else { throw unexpected("`)`") }
            _ = next()
            return inner
        }
        return try comparison()
    }

    mutating func comparison() throws -> AskCondition {
        guard case let .word(name) = peek, !["and", "or", "in"].contains(name.lowercased()) else { throw unexpected("a field's name") }
        _ = next()
        guard let field = earlier.first(where: { $0.name == name }) else {
            let names = earlier.map(\.name)
            throw FieldRejection("`\(name)` is not a field asked before this one" + (names.isEmpty ? " (it is the first field)" : " (earlier fields: \(names.joined(separator: ", ")))"))
        }
        if isKeyword(peek, "in") || (isKeyword(peek, "not") && isKeyword(tokens[min(position + 1, tokens.count - 1)], "in")) {
            let negated = isKeyword(peek, "not")
            position += negated ? 2 : 1
            let open = peek
            guard open == .symbol("[") || open == .symbol("(") else { throw unexpected("`[` to start a list after `in`") }
            _ = next()
            let close = Token.symbol(open == .symbol("[") ? "]" : ")")
            var items: [JSONValue] = []
            if peek != close {
                items.append(try literal(for: field))
                while peek == .symbol(",") {
                    _ = next()
                    items.append(try literal(for: field))
                }
            }
            guard peek == close else { throw unexpected("`,` or \(describe(close))") }
            _ = next()
            return negated ? .not(.oneOf(name, items)) : .oneOf(name, items)
        }
        guard case let .symbol(s) = peek, let op = AskCondition.Comparison(rawValue: s) else {
            return .answered(name)
        }
        _ = next()
        if op != .equal, op != .notEqual, ![.number, .integer, .scale, .date, .time].contains(field.kind) {
            throw FieldRejection("`\(s)` compares numbers, integers, scales, dates and times; `\(name)` is a \(field.kind.rawValue) field")
        }
        return .compare(name, op, try literal(for: field))
    }

    /// A value written in the condition, read as the field reads an answer (without its limits:
    /// `cigarettes > 0` may name a value the field itself would refuse).
    mutating func literal(for field: TemplateField) throws -> JSONValue {
        let text: String
        switch peek {
        case let .word(w): text = w
        case let .quoted(q): text = q
        default: throw unexpected("a value for `\(field.name)`")
        }
        _ = next()
        var loose = field
        loose.min = nil
        loose.max = nil
        loose.required = false
        do {
            guard let v = try loose.value(fromAnswer: text) else { throw FieldRejection("an empty value") }
            if case let .array(items) = v, items.count == 1 { return items[0] }
            if case .array = v { throw FieldRejection("one option at a time: write `\(field.name) in [\(text)]`") }
            return v
        } catch let r as FieldRejection {
            throw FieldRejection("`\(field.name)` cannot be \(text.isEmpty ? "empty" : "`\(text)`"): \(r.reason)")
        }
    }
}
