// One record of a JSON import file, read field by field; a wrong field names the record and the field.
import Foundation

struct JSONRecord {
    var fields: [(String, JSONValue)]
    /// The file as messages show it.
    var file: String
    /// `entries[3]`, `line 12`.
    var name: String
    var line: Int?

    init(_ value: JSONValue, file: String, name: String, line: Int? = nil) throws {
        self.file = file
        self.name = name
        self.line = line
        guard case let .object(pairs) = value else { throw malformed(file, name, nil, "a record must be a JSON object", line: line) }
        fields = pairs
    }

    subscript(_ key: String) -> JSONValue? {
        guard let v = fields.first(where: { $0.0 == key })?.1, v != .null else { return nil }
        return v
    }

    func fail(_ key: String, _ problem: String) -> DaybookError { malformed(file, name, key, problem, line: line) }

    func string(_ key: String) throws -> String? {
        guard let v = self[key] else { return nil }
        guard case let .string(s) = v else { throw fail(key, "must be text, not \(v.serialized())") }
        return s
    }

    func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw fail(key, "is missing") }
        return s
    }

    func strings(_ key: String) throws -> [String] {
        guard let v = self[key] else { return [] }
        guard case let .array(items) = v else { throw fail(key, "must be a list of text") }
        return try items.map { item in
            guard case let .string(s) = item else { throw fail(key, "must be a list of text, not \(item.serialized())") }
            return s
        }
    }

    func bool(_ key: String) throws -> Bool? {
        guard let v = self[key] else { return nil }
        guard case let .bool(b) = v else { throw fail(key, "must be true or false") }
        return b
    }

    func int(_ key: String) throws -> Int? {
        guard let v = self[key] else { return nil }
        guard case let .int(i) = v else { throw fail(key, "must be a whole number") }
        return i
    }

    func object(_ key: String) throws -> [(String, JSONValue)]? {
        guard let v = self[key] else { return nil }
        guard case let .object(pairs) = v else { throw fail(key, "must be a JSON object") }
        return pairs
    }

    /// Parses a whole file (or one line of it, `line`) of JSON, keeping key order; a syntax error names the place.
    static func parse(_ data: Data, file: String, line: Int? = nil) throws -> JSONValue {
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: file) }
        do { return try JSONScanner.document(Array(text.utf8)) } catch let e as JSONScanner.SyntaxError {
            throw DaybookError.input("not valid JSON: \(e.message); nothing was imported",
                                     at: SourceLocation(path: file, line: (line ?? 1) + e.line - 1, column: e.column))
        }
    }

    /// The records of the list `entries` of a JSON export file (jrnl's and Day One's shape).
    static func entries(in url: URL, of program: String) throws -> [JSONRecord] {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: file)) }
        guard case let .object(root) = try parse(data, file: file),
              let list = root.first(where: { $0.0 == "entries" })?.1, case let .array(records) = list else {
            throw DaybookError.input("not a \(program) export: expected an object with a list `entries`; nothing was imported", at: SourceLocation(path: file))
        }
        return try records.enumerated().map { try JSONRecord($1, file: file, name: "entries[\($0)]") }
    }

    /// The record's tags as daybook keeps them; one it cannot keep is left out with a warning.
    func tags(_ key: String, warnings: inout [Diagnostic]) throws -> [String] {
        try strings(key).compactMap { raw in
            if let t = JSONRecord.tag(raw) { return t }
            warnings.append(Diagnostic(.warning, "\(name): `\(raw)` is not a tag daybook can keep; left out", at: SourceLocation(path: file)))
            return nil
        }
    }

    /// An imported tag as daybook writes it (`@work` and `#work` become `work`, spaces `-`), or nil.
    static func tag(_ raw: String) -> String? {
        let bare = raw.trimmingCharacters(in: .whitespaces).drop { $0 == "@" || $0 == "#" }
        let t = Tag.normalize(bare.replacingOccurrences(of: " ", with: "-"))
        return Tag.isValid(t) ? t : nil
    }
}
