// codebook.yml: the diary's codes as a tree of any depth, with lookups and the edits of `code`.
import Foundation
import Yams

public struct Codebook: Equatable, Sendable {
    /// One code of the tree; a code with children is a category.
    public struct Code: Equatable, Sendable {
        public var name: String
        public var description: String?
        /// `#RRGGBB` or `#RRGGBBAA`.
        public var color: String?
        public var children: [Code]

        public init(name: String, description: String? = nil, color: String? = nil, children: [Code] = []) {
            self.name = name
            self.description = description
            self.color = color
            self.children = children
        }
    }

    public static let fileName = "codebook.yml"

    /// The top-level codes, in the order written.
    public var codes: [Code]

    public init(codes: [Code] = []) {
        self.codes = codes
    }

    // MARK: Reading

    /// The diary's codebook; empty when codebook.yml does not exist yet.
    public static func load(_ diary: Diary) throws -> Codebook {
        // Never through a symbolic link (`Diary.fileBytes`): a linked codebook.yml is refused.
        guard var bytes = try diary.fileBytes(fileName) else { return Codebook() }
        bytes.removeLast()  // the reader's NUL
        let data = Data(bytes)
        let display = diary.displayPath(fileName)
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        return try parse(text, path: display)
    }

    /// Parses the text of codebook.yml; errors name `path`, line and column.
    public static func parse(_ text: String, path: String) throws -> Codebook {
        guard let root = try YAML.compose(text, path: path) else { return Codebook() }
        func fail(_ node: Node, _ message: String) -> DaybookError { .input(message, at: YAML.location(of: node, path: path)) }
        guard case let .mapping(top) = root else { throw fail(root, "codebook.yml must be a mapping with a key `codes`") }
        var book = Codebook()
        var seen = Set<String>()
        for (key, value) in top {
            guard key.string == "codes" else { throw fail(key, "unknown key `\(key.string ?? "?")` in codebook.yml (known: codes)") }
            book.codes = try parseCodes(value, seen: &seen, fail: fail)
        }
        return book
    }

    static let codeKeys = ["description", "color", "codes"]

    private static func parseCodes(_ node: Node, seen: inout Set<String>, fail: (Node, String) -> DaybookError) throws -> [Code] {
        if YAML.value(node) == .null { return [] }
        guard case let .mapping(map) = node else { throw fail(node, "`codes` must be a mapping of code names to their descriptions") }
        var out: [Code] = []
        for (key, value) in map {
            let name = (key.string ?? "").lowercased()
            guard Tag.isValid(name) else { throw fail(key, "`\(key.string ?? "")` is not a code name: use letters, digits, _, - and /") }
            guard seen.insert(name).inserted else { throw fail(key, "the code `\(name)` is defined twice") }
            var code = Code(name: name)
            if case let .mapping(fields) = value {
                for (k, v) in fields {
                    switch k.string ?? "" {
                    case "description":
                        guard let s = v.scalar?.string else { throw fail(v, "`description` must be text") }
                        code.description = s
                    case "color":
                        guard let s = v.scalar?.string, isColor(s) else { throw fail(v, "`color` must be #RRGGBB or #RRGGBBAA") }
                        code.color = s
                    case "codes":
                        code.children = try parseCodes(v, seen: &seen, fail: fail)
                    default:
                        throw fail(k, "unknown key `\(k.string ?? "?")` in the code `\(name)` (known: \(codeKeys.joined(separator: ", ")))")
                    }
                }
            } else if YAML.value(value) != .null {
                throw fail(value, "the code `\(name)` must be a mapping such as {description: …, color: \"#d1242f\"}, or {}")
            }
            out.append(code)
        }
        return out
    }

    public static func isColor(_ s: String) -> Bool {
        let hex = s.dropFirst()
        return s.hasPrefix("#") && (hex.count == 6 || hex.count == 8) && hex.allSatisfy(\.isHexDigit)
    }

    // MARK: Lookups

    /// Every code with its category path (ancestors first, the code last), in tree order.
    public var paths: [[String]] {
        var out: [[String]] = []
        func walk(_ codes: [Code], _ prefix: [String]) {
            for c in codes {
                out.append(prefix + [c.name])
                walk(c.children, prefix + [c.name])
            }
        }
        walk(codes, [])
        return out
    }

    /// Every code name in tree order (a category before its children).
    public var allCodes: [String] { paths.compactMap(\.last) }

    public func contains(_ name: String) -> Bool { path(of: name) != nil }

    /// The category path of a code: its ancestors, then the code itself; nil when undefined.
    public func path(of name: String) -> [String]? {
        paths.first { $0.last == name }
    }

    /// The code's definition, nil when undefined.
    public func code(_ name: String) -> Code? {
        guard let p = path(of: name) else { return nil }
        var level = codes
        var found: Code?
        for step in p {
            found = level.first { $0.name == step }
            level = found?.children ?? []
        }
        return found
    }

    /// The code's colour, else the nearest category's, so a category colours its whole branch
    /// (the HTML export, the web app and the language server all show it so).
    public func color(of name: String) -> String? {
        for step in (path(of: name) ?? [name]).reversed() {
            if let c = code(step)?.color { return c }
        }
        return nil
    }

    /// The code and every code below it (just the code itself when it is not in the codebook).
    public func descendants(of name: String) -> Set<String> {
        var out: Set<String> = [name]
        for p in paths where p.dropLast().contains(name) { if let last = p.last { out.insert(last) } }
        return out
    }

    /// Codes of the codebook closest to `name`, for "did you mean" in strict mode.
    public func closeNames(to name: String, limit: Int = 5) -> [String] {
        let scored = allCodes.map { ($0, editDistance($0, name)) }
            .filter { $0.1 <= max(2, name.count / 3) || $0.0.hasPrefix(name) || name.hasPrefix($0.0) }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }
}
