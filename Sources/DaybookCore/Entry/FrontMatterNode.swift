// What the entry parser asks of a front-matter node, so one `interpret` reads both Yams' nodes
// (any YAML, with marks that place a problem) and the plain reader's (no libyaml, no marks).
import Yams

/// A node of an entry's front matter as `EntryParser.interpret` reads it.
protocol FrontMatterNode {
    /// The node's form, its children as nodes of the same kind.
    var form: FrontMatterForm<Self> { get }
    /// The node as a plain value, as `YAML.value` reads it.
    var value: JSONValue { get }
    /// Whether YAML reads the node as a boolean (`tags: yes` is not a tag someone meant).
    var isBool: Bool { get }
    /// The node as an integer, as Yams reads it (bases and `_` too).
    var int: Int? { get }
    /// A mapping key's text, as Yams' `Node.string` gives it.
    var keyText: String? { get }
    /// Where the node is in the file, for a problem found in it.
    func location(path: String, lineOffset: Int) -> SourceLocation
}

enum FrontMatterForm<N> {
    case scalar(String)
    case sequence([N])
    case mapping([(N, N)])
    case alias

    /// How a message names a node that is not the text it should be.
    var kindName: String {
        switch self {
        case .mapping: return "mapping"
        case .sequence: return "list"
        default: return "value"
        }
    }

    var text: String? { if case let .scalar(s) = self { return s } else { return nil } }
}

extension Node: FrontMatterNode {
    var form: FrontMatterForm<Node> {
        switch self {
        case let .scalar(s): return .scalar(s.string)
        case let .sequence(seq): return .sequence(Array(seq))
        case let .mapping(m): return .mapping(m.map { ($0.key, $0.value) })
        case .alias: return .alias
        }
    }
    var value: JSONValue { YAML.value(self) }
    var isBool: Bool { YAML.isBool(self) }
    var keyText: String? { string }
    func location(path: String, lineOffset: Int) -> SourceLocation { YAML.location(of: self, path: path, lineOffset: lineOffset) }
}

/// A node the plain front-matter reader (`PlainFrontMatter`) made: text as written (plain or
/// double-quoted), lists and mappings. A plain text's value is resolved as Yams resolves it, by
/// the same functions, only when it is asked for.
enum PlainNode: FrontMatterNode {
    case text(String, quoted: Bool)
    case list([PlainNode])
    case map([(PlainNode, PlainNode)])

    var form: FrontMatterForm<PlainNode> {
        switch self {
        case let .text(s, _): return .scalar(s)
        case let .list(items): return .sequence(items)
        case let .map(pairs): return .mapping(pairs)
        }
    }

    var value: JSONValue {
        switch self {
        case let .text(s, quoted): return quoted ? .string(s) : YAML.plainValue(s)
        case let .list(items): return .array(items.map(\.value))
        case let .map(pairs): return .object(pairs.map { ($0.0.keyText ?? "", $0.1.value) })
        }
    }

    var isBool: Bool {
        guard case let .text(s, false) = self else { return false }
        return YAML.isPlainBool(s)
    }

    var int: Int? {
        guard case let .text(s, false) = self else { return nil }
        return Node.scalar(YAML.plainScalar(s)).int
    }

    var keyText: String? { if case let .text(s, _) = self { return s } else { return nil } }

    /// The reader keeps no marks: a parse that finds a problem in its nodes reads the front matter
    /// again with Yams, whose nodes place it.
    func location(path: String, lineOffset: Int) -> SourceLocation { SourceLocation(path: path) }
}
