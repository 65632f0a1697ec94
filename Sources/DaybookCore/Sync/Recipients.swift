// The diary's recipients: `recipients.yml` at its root, one `NAME: PUBLIC-KEY` line each. Only
// public keys; committed and synced like daybook.yml (merged by key).
import Foundation

public struct Recipients {
    public static let file = "recipients.yml"
    static let header = "# Public keys that can open this diary's encrypted remote (daybook key add, rm, ls).\n"

    /// Name and key, in the file's order.
    public var keys: [(name: String, key: PublicKey)]

    /// Reads the diary's recipients; none when the file is missing. A key that does not read is
    /// an error naming its line.
    public static func read(_ diary: Diary) throws -> Recipients {
        guard let data = diary.regularFileContents(file) else { return Recipients(keys: []) }
        let shown = diary.displayPath(file)
        guard let text = String(data: data, encoding: .utf8) else { throw DaybookError.input("not UTF-8 text", at: SourceLocation(path: shown)) }
        guard let root = try YAML.compose(text, path: shown) else { return Recipients(keys: []) }
        guard case let .object(pairs) = YAML.value(root) else {
            throw DaybookError.input("must be a mapping of names to public keys (`laptop: daybook1…`)", at: SourceLocation(path: shown, line: 1))
        }
        var keys: [(name: String, key: PublicKey)] = []
        for (name, value) in pairs {
            let line = lineNumber(of: name, in: text)
            guard case let .string(s) = value else {
                throw DaybookError.input("`\(name)` must be a public key (daybook1…)", at: SourceLocation(path: shown, line: line))
            }
            do { keys.append((name, try PublicKey(text: s))) } catch let e as DaybookError {
                throw DaybookError.input(e.message, at: SourceLocation(path: shown, line: line))
            }
        }
        return Recipients(keys: keys)
    }

    static func lineNumber(of name: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(name + ":") }.map { $0 + 1 }
    }

    /// A recipient's name: letters, digits, `.`, `_` and `-`, as a YAML key needs no quoting.
    public static func checkName(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64, name.first != "-",
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw DaybookError.usage("`\(EntryParser.clipped(name))` is not a recipient name: use up to 64 letters, digits, `.`, `_` and `-`")
        }
    }

    /// Adds a recipient as one new line at the end of the file (made when missing); the rest of
    /// the file is left as it is.
    public static func add(name: String, key: PublicKey, in change: Change) throws {
        try checkName(name)
        let diary = change.diary
        let current = try read(diary)
        if let same = current.keys.first(where: { $0.name == name }) {
            throw DaybookError.usage(same.key == key ? "`\(name)` is a recipient already" : "there is a recipient `\(name)` already, with another key: `daybook key rm \(name)` first")
        }
        if let other = current.keys.first(where: { $0.key.sameDevice(key) }) {
            throw DaybookError.usage("that key is a recipient already, as `\(other.name)`")
        }
        var text = diary.regularFileContents(file).flatMap { String(data: $0, encoding: .utf8) } ?? header
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += "\(name): \(key)\n"
        try change.write(text, to: file)
    }

    /// Removes a recipient's line; its key opens nothing pushed after this.
    public static func remove(name: String, in change: Change) throws -> PublicKey {
        let diary = change.diary
        guard let gone = try read(diary).keys.first(where: { $0.name == name }), let data = diary.regularFileContents(file),
              let text = String(data: data, encoding: .utf8) else {
            throw DaybookError.nothing("no recipient `\(name)` (see `daybook key ls`)")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeAll { $0.hasPrefix(name + ":") }
        try change.rewrite(file, expected: data, with: Data(lines.joined(separator: "\n").utf8))
        return gone.key
    }
}

extension Recipients {
    /// A recipient whose line holds this device's key with another signing half, or none (a key
    /// made before pushes were signed, or whose signing half was lost and made again), gets the
    /// device's whole key: its name and the file's new text, nil when no line needs it. The rest
    /// of the file stays as it is.
    static func upgraded(to key: PublicKey, in diary: Diary) throws -> (name: String, text: Data)? {
        guard key.signing != nil, let old = try read(diary).keys.first(where: { $0.key.sameDevice(key) && $0.key != key }),
              let data = diary.regularFileContents(file), let text = String(data: data, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            line.hasPrefix(old.name + ":") && line.contains(old.key.description) ? Substring("\(old.name): \(key)") : line
        }
        return (old.name, Data(lines.joined(separator: "\n").utf8))
    }
}

/// A recipient added or removed: what `sync` reports, with the key's fingerprint.
public struct RecipientChange: Equatable {
    public var added: Bool
    public var name: String
    public var key: PublicKey

    /// What differs from `old` to `new`, removals first, keys compared whole.
    static func between(_ old: [(name: String, key: PublicKey)], _ new: [(name: String, key: PublicKey)]) -> [RecipientChange] {
        old.filter { o in !new.contains { $0.key == o.key } }.map { RecipientChange(added: false, name: $0.name, key: $0.key) }
            + new.filter { n in !old.contains { $0.key == n.key } }.map { RecipientChange(added: true, name: $0.name, key: $0.key) }
    }
}
