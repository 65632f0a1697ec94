// A JSON value with ordered object keys, so output is stable and diffable.
import Foundation

public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    public var stringValue: String? {
        switch self {
        case let .string(s): return s
        case let .int(i): return String(i)
        case let .double(d): return JSONValue.format(d)
        case let .bool(b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// The value as a reader wants it on a page: a list as its items, a place as its name and
    /// coordinates (`Ward 3 (48.2, 16.3)`), another mapping as `key: value` pairs; never YAML.
    public var readable: String {
        switch self {
        case .null: return ""
        case let .array(items): return items.map(\.readable).joined(separator: ", ")
        case let .object(pairs):
            let keys = Set(pairs.map(\.0))
            if let name = self["name"]?.stringValue, let lat = self["lat"]?.stringValue, let lon = self["lon"]?.stringValue,
               keys.isSubset(of: ["name", "lat", "lon"]) {
                return "\(name) (\(lat), \(lon))"
            }
            return pairs.map { "\($0.0): \($0.1.readable)" }.joined(separator: ", ")
        default: return stringValue ?? ""
        }
    }

    public var doubleValue: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .double(d): return d
        case let .string(s): return Double(s)
        default: return nil
        }
    }

    /// Compact JSON text (one line), keys in their given order; `pretty`: two spaces a level, the
    /// lines after the first indented `indent` levels (a value nested in a document being written).
    public func serialized(pretty: Bool = false, indent: Int = 0) -> String {
        var w = JSONWriter()
        w.write(self, pretty: pretty, indent: indent)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    /// `s` as a JSON string (`JSONWriter`'s), appended to `out`.
    static func quote(_ s: String, into out: inout String) {
        var w = JSONWriter(capacity: s.utf8.count + 2)
        w.write(string: s)
        out += String(decoding: w.bytes, as: UTF8.self)
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        if var arr = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !arr.isAtEnd { items.append(try arr.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let obj = try? decoder.container(keyedBy: AnyKey.self) {
            // JSONDecoder does not keep key order: sort for stable output.
            let keys = obj.allKeys.map(\.stringValue).sorted()
            self = .object(try keys.map { ($0, try obj.decode(JSONValue.self, forKey: AnyKey($0))) })
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else { self = .string(try c.decode(String.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .int(i): try c.encode(i)
        case let .double(d): try c.encode(d)
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(pairs): try c.encode(Dictionary(pairs, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// Parses JSON text.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
