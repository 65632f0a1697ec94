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
    /// Each exported entry's id -> its redacted id (set by `entries`); links in every redacted
    /// text follow.
    public private(set) var ids: [String: String] = [:]

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

    /// The text with every name replaced by its pseudonym: as written, and in the spellings a
    /// file name or an id gives it (`anna-berger`, `anna_berger`, `annaberger`), which take the
    /// pseudonym's slug spelled the same way.
    public func text(_ s: String) -> String {
        var out = s
        for (name, pseudonym) in names {
            out = Redaction.replace(name, with: pseudonym, in: out)
            for (form, separator) in Redaction.joinedForms(name) {
                let slug = Slug.full(pseudonym)
                out = Redaction.replace(form, with: (slug.isEmpty ? "x" : slug).replacingOccurrences(of: "-", with: separator), in: out)
            }
        }
        return out
    }

    /// A name of several words joined as file names and ids join them, with the joiner.
    static func joinedForms(_ name: String) -> [(String, String)] {
        let words = Slug.full(name).split(separator: "-").map(String.init)
        guard words.count > 1 else { return [] }
        return ["-", "_", ""].map { (words.joined(separator: $0), $0) }
    }

    /// Every spelling of every name that must not be in a redacted export: as written, its slug,
    /// joined by `_` or by nothing, and as HTML escapes it.
    public var forbiddenForms: [(name: String, form: String)] {
        var out: [(String, String)] = []
        for (name, _) in names {
            var forms = [name, Slug.full(name)] + Redaction.joinedForms(name).map(\.0)
            let escaped = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
            forms.append(escaped)
            for f in Set(forms) where !f.isEmpty { out.append((name, f)) }
        }
        return out
    }

    /// The names found (as whole words, ignoring case, in any spelling of forbiddenForms) in text.
    public func leaks(in text: String) -> [String] {
        var found: [String] = []
        for (name, form) in forbiddenForms where !found.contains(name) {
            if Redaction.containsWord(form, in: text) { found.append(name) }
        }
        return found
    }

    static func containsWord(_ word: String, in text: String) -> Bool {
        func isWordChar(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        var rest = text[...]
        while let r = rest.range(of: word, options: [.caseInsensitive]) {
            let before = r.lowerBound > text.startIndex ? text[text.index(before: r.lowerBound)] : nil
            let after = r.upperBound < text.endIndex ? text[r.upperBound] : nil
            if !(before.map(isWordChar) ?? false) && !(after.map(isWordChar) ?? false) { return true }
            rest = rest[r.upperBound...]
        }
        return false
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

    /// An entry's redacted path: when its id is the one its title gives (`YYYY-MM-DD-HHMM-` and the
    /// title's slug, cut at 40 characters, with any clash suffix), the id is made again from the
    /// whole slug of the redacted title, so a name the cut left half-written goes with the rest;
    /// else the names' slugs in the file name are replaced (`path(_:)`).
    public func path(_ rel: String, title: String) -> String {
        let folder = (rel as NSString).deletingLastPathComponent
        let id = Entry.id(ofPath: rel)
        let slug = Slug.make(title)
        guard id.count > 16, !slug.isEmpty else { return path(rel) }
        let stamp = String(id.prefix(15)), rest = String(id.dropFirst(16))
        guard rest == slug || (rest.hasPrefix(slug + "-") && rest.dropFirst(slug.count + 1).allSatisfy(\.isNumber)) else { return path(rel) }
        let suffix = String(rest.dropFirst(slug.count))
        var redacted = Slug.full(text(title))
        if redacted.isEmpty { redacted = "x" }
        let file = stamp + "-" + redacted + suffix + (rel.hasSuffix(".md") ? ".md" : "")
        return folder.isEmpty ? file : folder + "/" + file
    }

    /// Entry ids in a text replaced by their redacted ones (links between entries).
    static func replaceIDs(_ text: String, _ ids: [String: String]) -> String {
        guard !ids.isEmpty, text.contains("-") else { return text }
        var out = "", rest = text[...]
        // An id: `YYYY-MM-DD-HHMM-` and slug characters; the longest run that is a known id.
        while let start = rest.firstIndex(where: \.isNumber) {
            out += rest[..<start]
            var end = rest[start...].firstIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) } ?? rest.endIndex
            var candidate = String(rest[start..<end])
            var replaced = false
            while candidate.count >= 15 {
                if let new = ids[candidate] {
                    out += new
                    replaced = true
                    end = rest.index(start, offsetBy: candidate.count)
                    break
                }
                guard let dash = candidate.lastIndex(of: "-") else { break }
                candidate = String(candidate[..<dash])
            }
            if !replaced { out += rest[start..<end] }
            rest = rest[end...]
        }
        return out + rest
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
        // Links first: the names in an old id would otherwise be replaced one by one.
        var doc = try EntryText(self.text(Redaction.replaceIDs(text, ids)), path: path)
        for f in fields { doc.remove(key: f) }
        return doc.text
    }

    /// The entries as the export should see them: each file read, redacted and parsed again, with
    /// its body, under its redacted path; `sources` maps each redacted path back to the file.
    public mutating func entries(_ entries: [Entry], diary: Diary) -> (entries: [Entry], sources: [String: String], problems: [DaybookError]) {
        var out: [Entry] = [], sources: [String: String] = [:], problems: [DaybookError] = []
        // Each id made from the redacted title, in full; other entries' links to it follow.
        ids = [:]
        for e in entries { ids[e.id] = Entry.id(ofPath: path(e.path, title: e.title)) }
        for e in entries {
            let display = diary.displayPath(e.path)
            do {
                guard let data = FileManager.default.contents(atPath: diary.url(e.path).path) else { throw DaybookError.io("cannot read the file", at: SourceLocation(path: display)) }
                guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
                let redacted = try EntryText(try entryText(text, path: display), path: display)
                let rel = path(e.path, title: e.title)
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
