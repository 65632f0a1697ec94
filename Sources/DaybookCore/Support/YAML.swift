// Reading YAML through Yams: positioned errors, and YAML nodes as plain values.
import Foundation
import Yams

public enum YAML {
    /// Composes `text` into a node tree. Errors carry `path` and the line in the file
    /// (`lineOffset` is the number of file lines before the YAML text starts).
    public static func compose(_ text: String, path: String, lineOffset: Int = 0) throws -> Node? {
        do {
            // The encoding given, so Yams does not read the environment on every call.
            let node = try Yams.compose(yaml: text, .default, .default, .utf8)
            if let node { try checkSize(node, limit: maxValues + text.utf8.count, path: path, lineOffset: lineOffset) }
            return node
        } catch let error as YamlError {
            throw positioned(error, path: path, lineOffset: lineOffset, text: text)
        } catch {
            throw DaybookError.input("invalid YAML: \(error)", at: SourceLocation(path: path))
        }
    }

    /// How many values aliases may add to a YAML text. A few hundred bytes of nested aliases
    /// (`b: [*a, *a, …]`, eight levels deep) expand to 10⁸ values and gigabytes; written out, a
    /// text of n bytes holds fewer than n values, so `n + maxValues` refuses only alias bombs.
    public static let maxValues = 10_000

    /// Refuses a document that expands past `limit` values. Counting walks at most that many
    /// values (with a stack of its own, not recursion), however large the expansion would be.
    static func checkSize(_ root: Node, limit: Int, path: String, lineOffset: Int) throws {
        var pending = [root]
        var count = 0
        while let node = pending.popLast() {
            count += 1
            if count > limit {
                throw DaybookError.input("the YAML's aliases (*name) expand to more than \(limit) values; write the values out instead of nesting aliases",
                                         at: location(of: node, path: path, lineOffset: lineOffset))
            }
            switch node {
            case let .sequence(seq): pending += seq
            case let .mapping(map): for (k, v) in map { pending.append(k); pending.append(v) }
            case .scalar, .alias: break
            }
        }
    }

    static func positioned(_ error: YamlError, path: String, lineOffset: Int, text: String = "") -> DaybookError {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(path: path, line: mark.line + lineOffset, column: mark.column)
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var msg = "invalid YAML: \(problem)"
            guard let context else { return .input(msg, at: at(mark)) }
            // A bracket, brace or quote left open is noticed where the text no longer fits, often
            // on the next line: the place to fix is where the construct opened.
            if ["flow sequence", "flow mapping", "quoted scalar"].contains(where: context.text.contains) {
                msg += " (\(context.text) that opens here and is not closed; noticed at line \(mark.line + lineOffset))"
                return .input(msg, at: at(context.mark))
            }
            // A flow node missing at the end: the bracket or brace before it is the one left open.
            if context.text.contains("flow node"), let open = unclosedBracket(in: text, before: mark) {
                msg += " (a `\(open.bracket)` that opens here and is not closed; noticed at line \(mark.line + lineOffset))"
                return .input(msg, at: SourceLocation(path: path, line: open.line + lineOffset, column: open.column))
            }
            msg += " (\(context.text))"
            return .input(msg, at: at(mark))
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams marks the mapping that holds the repeated keys, not the second key itself.
            let keys = duplicates.sorted().map { "`\($0)`" }.joined(separator: ", ")
            return .input("the key \(keys) appears twice in this mapping", at: at(context.mark))
        case let .reader(problem, offset, value, yaml):
            // The reader (control characters, bad encodings) gives an offset in characters, no mark.
            var msg = "invalid YAML: \(problem)"
            if value >= 0 { msg += String(format: " (U+%04X)", value) }
            guard let offset, let end = yaml.index(yaml.startIndex, offsetBy: offset, limitedBy: yaml.endIndex) else {
                return .input(msg, at: SourceLocation(path: path))
            }
            var line = 1, column = 1
            for u in yaml[..<end].unicodeScalars {
                if u == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            return .input(msg, at: SourceLocation(path: path, line: line + lineOffset, column: column))
        default:
            return .input("invalid YAML: \(error)", at: SourceLocation(path: path))
        }
    }

    /// The last `[` or `{` before `mark` that no `]` or `}` closes (1-based line and column),
    /// outside quotes and comments as far as a look at each line can tell.
    static func unclosedBracket(in text: String, before mark: Mark) -> (bracket: Character, line: Int, column: Int)? {
        var open: [(Character, Int, Int)] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where n + 1 <= mark.line {
            var quote: Character?
            for (c, ch) in line.enumerated() {
                if n + 1 == mark.line && c + 1 >= mark.column { break }
                if let q = quote { if ch == q { quote = nil }; continue }
                switch ch {
                case "\"", "'": quote = ch
                case "#": break
                case "[", "{": open.append((ch, n + 1, c + 1))
                case "]", "}": _ = open.popLast()
                default: continue
                }
                if ch == "#" { break }
            }
        }
        return open.last.map { (bracket: $0.0, line: $0.1, column: $0.2) }
    }

    /// The location of a node in the file.
    public static func location(of node: Node, path: String, lineOffset: Int = 0) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(path: path) }
        return SourceLocation(path: path, line: mark.line + lineOffset, column: mark.column)
    }

    /// A node as a plain value: resolved scalars become numbers and booleans; timestamps stay the
    /// text they were written as.
    public static func value(_ node: Node) -> JSONValue {
        switch node {
        case let .scalar(s):
            return scalarValue(s)
        case let .sequence(seq):
            return .array(seq.map { value($0) })
        case let .mapping(map):
            return .object(map.map { (key: Node, v: Node) in (key.string ?? key.scalar?.string ?? "", value(v)) })
        case let .alias(a):
            return .string("*" + a.anchor.rawValue)
        }
    }

    /// Whether `value` reads a node as a boolean, asked without resolving it as a number.
    static func isBool(_ node: Node) -> Bool {
        guard case let .scalar(s) = node, s.style != .singleQuoted, s.style != .doubleQuoted, s.style != .literal,
              s.style != .folded else { return false }
        return isPlainBool(s.string, node)
    }

    /// `isBool` of a plain scalar with this text (`node`, when there is one already).
    static func isPlainBool(_ text: String, _ node: Node? = nil) -> Bool {
        guard mayBeBool(text), decimal(text) == nil else { return false }
        let node = node ?? .scalar(plainScalar(text))
        return node.null == nil && node.bool != nil
    }

    /// A plain scalar with an implicit tag, resolved as Yams resolves one, made with a constructor
    /// made once: Yams' `Constructor.default` builds its tables anew each time it is asked for (a
    /// tenth of a cold parse, when every node's tag asked for it).
    static func plainScalar(_ text: String) -> Node.Scalar { Node.Scalar(text, implicitTag(), .plain) }

    /// A new implicit tag with the shared constructor (Yams resolves a tag in place, so nodes do
    /// not share one).
    static func implicitTag() -> Yams.Tag { Yams.Tag(.implicit, .default, constructor) }

    nonisolated(unsafe) private static let constructor = Constructor.default

    /// False when Yams' `Bool.construct` cannot answer a boolean: an ASCII text that is not, in
    /// lower case, one of its six words (asked before Yams resolves the node's tag, which is slow).
    /// Text beyond ASCII is left to Yams (lower-casing can change it).
    static func mayBeBool(_ text: String) -> Bool {
        // The bytes, lower-cased, packed into one number and compared with the six words packed
        // alike (no String made per tag).
        var packed: UInt64 = 0, count = 0
        for b in text.utf8 {
            if b >= 0x80 { return true }
            count += 1
            packed = packed << 8 | UInt64(b | 0x20)
        }
        return count >= 2 && count <= 5 && YAML.boolWords.contains(packed)
    }

    private static let boolWords: Set<UInt64> = Set(["true", "yes", "on", "false", "no", "off"].map { word in
        word.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    })

    static func scalarValue(_ s: Node.Scalar) -> JSONValue {
        let quoted = s.style == .singleQuoted || s.style == .doubleQuoted || s.style == .literal || s.style == .folded
        if quoted { return .string(s.string) }
        return plainValue(s.string, s)
    }

    /// The value of a plain scalar with this text (`scalar`, when there is one already).
    static func plainValue(_ text: String, _ scalar: Node.Scalar? = nil) -> JSONValue {
        if let n = decimal(text) { return .int(n) }
        let s = scalar ?? plainScalar(text)
        let node = Node.scalar(s)
        if node.null != nil { return .null }
        if let b = node.bool { return .bool(b) }
        if let i = node.int { return .int(i) }
        if let d = node.float { return .double(d) }
        return .string(s.string)
    }

    /// A plain decimal integer without a leading zero (`0`, `7`, `-12`), which Yams' resolution
    /// (not null, not a boolean, then an integer) reads as that number: told from the bytes,
    /// without Yams' general number parsing (bases, `_`, sexagesimal), which is slow.
    static func decimal(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { b -> Int? in
            var i = 0
            if b.first == UInt8(ascii: "-") { i = 1 }
            let digits = b.count - i
            guard digits >= 1, digits <= 18, b[i] != UInt8(ascii: "0") || digits == 1 && i == 0 else { return nil }
            var n = 0
            for k in i..<b.count {
                guard b[k] >= UInt8(ascii: "0"), b[k] <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(b[k] - UInt8(ascii: "0"))
            }
            return i == 1 ? -n : n
        }
    }
}
