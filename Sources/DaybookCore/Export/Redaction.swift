// `export FORMAT --redact FILE.yml`: names replaced by pseudonyms and fields dropped in what an export
// writes, applied to the entry files' text before they are read, so every format sees the same
// redacted entries and codings' quotes still match their redacted bodies.
import Foundation
import Yams

/// ```yaml
/// names:                 # a name and its pseudonym; or a list of names, each written as [redacted]
///   Anna Berger: P01
///   Dr. Huber: Doctor A
/// fields: [location, people]   # front-matter keys left out of every entry
/// ```
/// Names are replaced as whole words (not inside a longer word), ignoring case, in any script, the
/// longest first; in entry ids and file names their slug (`anna-berger`) becomes the pseudonym's.
public struct Redaction: Sendable {
    public private(set) var names: [(name: String, pseudonym: String)] = []
    public private(set) var fields: [String] = []

    public init(names: [(String, String)], fields: [String]) {
        self.names = names.filter { !$0.0.trimmingCharacters(in: .whitespaces).isEmpty }.sorted { $0.0.count > $1.0.count }.map { ($0.0, $0.1) }
        self.fields = fields
    }

    public static func load(_ url: URL, displayPath: String) throws -> Redaction {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: displayPath)) }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: displayPath) }
        func fail(_ n: Node, _ why: String) -> DaybookError { .input(why, at: YAML.location(of: n, path: displayPath)) }
        guard let root = try YAML.compose(text, path: displayPath) else {
            throw DaybookError.input("the redaction file is empty: give names and fields", at: SourceLocation(path: displayPath))
        }
        guard case let .mapping(map) = root else { throw fail(root, "a redaction file is a mapping with names: and fields:") }
        var names: [(String, String)] = [], fields: [String] = []
        for (k, v) in map {
            switch k.string ?? "" {
            case "names":
                switch v {
                case let .mapping(m):
                    for (n, p) in m {
                        guard let name = n.string, let pseudonym = p.string else { throw fail(p, "each name needs a pseudonym written as text") }
                        names.append((name, pseudonym))
                    }
                case let .sequence(s):
                    for n in s {
                        guard let name = n.string else { throw fail(n, "a name is text") }
                        names.append((name, "[redacted]"))
                    }
                default: throw fail(v, "names: is a mapping of names to pseudonyms, or a list of names")
                }
            case "fields":
                let items: [Node]
                if case let .sequence(s) = v { items = Array(s) } else { items = [v] }
                for f in items {
                    guard let key = f.string, !key.isEmpty else { throw fail(f, "fields: lists front-matter keys") }
                    guard !["date", "title", "tags", "codes", "template", "mood"].contains(key) else {
                        throw fail(f, "`\(key)` cannot be left out: redact its words with names: instead")
                    }
                    fields.append(key)
                }
            default: throw fail(k, "unknown key `\(k.string ?? "?")` (known: names, fields)")
            }
        }
        return Redaction(names: names, fields: fields)
    }

    /// The text with every name replaced by its pseudonym.
    public func text(_ s: String) -> String {
        var out = s
        for (name, pseudonym) in names { out = Redaction.replace(name, with: pseudonym, in: out) }
        return out
    }

    static func replace(_ name: String, with pseudonym: String, in text: String) -> String {
        func isWordChar(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        var out = ""
        var rest = text[...]
        while let r = rest.range(of: name, options: [.caseInsensitive]) {
            let before = r.lowerBound > text.startIndex ? text[text.index(before: r.lowerBound)] : nil
            let after = r.upperBound < text.endIndex ? text[r.upperBound] : nil
            let whole = !(before.map(isWordChar) ?? false) && !(after.map(isWordChar) ?? false)
            out += rest[..<r.lowerBound]
            out += whole ? pseudonym : String(rest[r])
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    /// A path with the slugs of the names in its file name replaced by the pseudonyms' slugs
    /// (`entries/2026/11/2026-11-02-0900-anna-berger.md` → `…-p01.md`).
    public func path(_ rel: String) -> String {
        let folder = (rel as NSString).deletingLastPathComponent
        var file = (rel as NSString).lastPathComponent
        for (name, pseudonym) in names {
            let slug = Slug.make(name), replacement = Slug.make(pseudonym)
            guard !slug.isEmpty else { continue }
            file = Redaction.replaceSlug(slug, with: replacement.isEmpty ? "x" : replacement, in: file)
        }
        return folder.isEmpty ? file : folder + "/" + file
    }

    static func replaceSlug(_ slug: String, with replacement: String, in file: String) -> String {
        // Slug words are bounded by `-` or `.`, or the ends of the name.
        var parts = file.components(separatedBy: "-")
        let words = slug.components(separatedBy: "-")
        var i = 0
        while i + words.count <= parts.count {
            var last = parts[i + words.count - 1]
            var suffix = ""
            if let dot = last.firstIndex(of: ".") { suffix = String(last[dot...]); last = String(last[..<dot]) }
            if Array(parts[i..<(i + words.count - 1)]) + [last] == words {
                parts.replaceSubrange(i..<(i + words.count), with: [replacement + suffix])
            }
            i += 1
        }
        return parts.joined(separator: "-")
    }

    /// An entry file's text redacted: names replaced everywhere, the listed fields removed.
    public func entryText(_ text: String, path: String) throws -> String {
        var doc = try EntryText(self.text(text), path: path)
        for f in fields { doc.remove(key: f) }
        return doc.text
    }

    /// The entries as the export should see them: each file read, redacted and parsed again, with
    /// its body, under its redacted path; `sources` maps each redacted path back to the file.
    public func entries(_ entries: [Entry], diary: Diary) -> (entries: [Entry], sources: [String: String], problems: [DaybookError]) {
        var out: [Entry] = [], sources: [String: String] = [:], problems: [DaybookError] = []
        for e in entries {
            let display = diary.displayPath(e.path)
            do {
                guard let data = FileManager.default.contents(atPath: diary.url(e.path).path) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: display)) }
                guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
                let redacted = try EntryText(try entryText(text, path: display), path: display)
                let rel = path(e.path)
                var outcome = diary.readEntry(e.path, text: redacted)
                outcome.entry?.path = rel
                outcome.entry?.id = Entry.id(ofPath: rel)
                outcome.entry?.anchors = nil
                guard let entry = outcome.entry else { problems += outcome.problems; continue }
                out.append(entry)
                sources[rel] = e.path
            } catch let err as DaybookError {
                problems.append(err)
            } catch {
                problems.append(.io("\(error)", at: SourceLocation(path: display)))
            }
        }
        return (out, sources, problems)
    }
}
