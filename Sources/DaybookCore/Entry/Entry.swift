// An entry as daybook reads it: the front matter's known keys, the other fields, and the body.
import Foundation
import Yams

public struct Entry: Sendable {
    /// The file name without `.md`: the entry's stable name.
    public var id: String
    /// Path relative to the diary (`entries/2026/11/<id>.md`).
    public var path: String
    public var date: LocalDateTime
    public var title: String
    /// Front-matter tags, lowercase, as written.
    public var frontTags: [String]
    /// `#tags` of the body's prose, lowercase.
    public var inlineTags: [String]
    public var mood: Int?
    public var template: String?
    /// Every other front-matter key, in the order written.
    public var fields: [(String, JSONValue)]
    public var codings: [Coding]
    public var body: String
    /// The file line on which the body starts.
    public var bodyStartLine: Int
    public var words: Int
    public var hasInk: Bool
    /// Where each coding applies in the body (`QuoteAnchor.locate`), nil for an orphaned quote;
    /// worked out when the file is parsed, so listing codings needs no body. Nil when not known.
    public var anchors: [QuoteAnchor?]? = nil

    /// Where the k-th coding applies: the anchor worked out at parse time when there is one,
    /// else found in the body (which must then be read).
    public func anchor(_ k: Int) -> QuoteAnchor? {
        if let anchors, anchors.count == codings.count { return anchors[k] }
        return QuoteAnchor.locate(codings[k], in: body)
    }

    /// The entry id a path names: the file name without `.md`.
    public static func id(ofPath path: String) -> String {
        var path = path
        return path.withUTF8 { b in
            var start = b.count
            while start > 0, b[start - 1] != UInt8(ascii: "/") { start -= 1 }
            var end = b.count
            if end - start > 3, b[end - 3] == UInt8(ascii: "."), b[end - 2] == UInt8(ascii: "m"), b[end - 1] == UInt8(ascii: "d") { end -= 3 }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
    }

    /// Front-matter and inline tags, without repeats.
    public var tags: [String] {
        // Front-matter tags are unique already. An entry has a handful of tags, compared in a list;
        // one with thousands (a generated file) gets a set, so it costs no seconds.
        if inlineTags.isEmpty { return frontTags }
        var all = frontTags
        if frontTags.count * inlineTags.count <= 4096 {
            for t in inlineTags where !all.contains(t) { all.append(t) }
        } else {
            var seen = Set(frontTags)
            for t in inlineTags where seen.insert(t).inserted { all.append(t) }
        }
        return all
    }

    public func field(_ key: String) -> JSONValue? {
        switch key {
        case "date": return .string(date.description)
        case "title": return .string(title)
        case "mood": return mood.map(JSONValue.int)
        case "template": return template.map(JSONValue.string)
        case "tags": return .array(tags.map(JSONValue.string))
        default: return fields.first { $0.0 == key }?.1
        }
    }

    /// The JSON shape of SPEC §3 (`ls --json`, `show --json`, exports).
    public func json(includeBody: Bool = false) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("id", .string(id)), ("path", .string(path)), ("date", .string(date.description)),
            ("title", .string(title)), ("tags", .array(tags.map(JSONValue.string))),
            ("mood", mood.map(JSONValue.int) ?? .null), ("template", template.map(JSONValue.string) ?? .null),
            ("fields", .object(fields)), ("codes", .array(codings.map(\.json))),
            ("words", .int(words)), ("has_ink", .bool(hasInk)),
        ]
        if includeBody { o.append(("body", .string(body))) }
        return .object(o)
    }
}

/// Reads entry files. Problems come back as a list, so `check` can show them all.
public struct EntryParser {
    public var config: DiaryConfig
    /// The mood scale of a template that declares its own `mood` field: it wins over the diary's
    /// scale for entries made from that template.
    public var moodScale: (_ template: String) -> ClosedRange<Int>?

    public init(config: DiaryConfig, moodScale: @escaping (_ template: String) -> ClosedRange<Int>? = { _ in nil }) {
        self.config = config
        self.moodScale = moodScale
    }

    public struct Outcome {
        public var entry: Entry?
        public var problems: [DaybookError]
        /// When the front matter read as a mapping but has problems (a bad date, a mood off the
        /// scale): the entry made of what did read, for an editor to go on checking the codings,
        /// links and fields (one typo must not hide everything else). Never written or listed.
        public var partial: Entry? = nil
    }

    /// Parses the bytes of the entry file at `relativePath`; `displayPath` names it in messages.
    public func parse(_ data: Data, relativePath: String, displayPath: String, hasInk: Bool = false) -> Outcome {
        data.withUnsafeBytes { raw in
            parse(bytes: raw.bindMemory(to: UInt8.self), relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
        }
    }

    /// The same from memory. The file is cut at its fences on the bytes (`EntryText.cut`, by the
    /// rule `EntryText` splits by), so only the front matter is split into lines; a file the
    /// bytes cannot settle, or one with a problem, is read as `EntryText`, which words the problem.
    /// With `keepBody` false (the entry scan, which keeps no body), a body of plain prose in ASCII
    /// is read from the bytes and made a String only when the entry needs it (`Sections.plainBody`):
    /// the entry is the same, its body empty.
    func parse(bytes: UnsafeBufferPointer<UInt8>, relativePath: String, displayPath: String, hasInk: Bool = false,
               keepBody: Bool = true) -> Outcome {
        if EntryParser.cutAtBytes, let (head, body) = EntryText.cutHead(bytes) {
            if !keepBody, let prose = Prose.plainASCII(body) {
                return parse(Sections(head: head, body: "", plainBody: (prose, body)), relativePath: relativePath,
                             displayPath: displayPath, hasInk: hasInk)
            }
            if let text = String(validatingUTF8Bytes: body) {
                return parse(Sections(head: head, body: text), relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
            }
        }
        let data = Data(bytes)
        guard let text = String(validatingUTF8Data: data) else {
            return Outcome(entry: nil, problems: [EntryParser.utf8Error(data, path: displayPath)])
        }
        let doc: EntryText
        do { doc = try EntryText(text, path: displayPath) } catch let e as DaybookError {
            return Outcome(entry: nil, problems: [e])
        } catch { return Outcome(entry: nil, problems: [.input("\(error)", at: SourceLocation(path: displayPath))]) }
        return parse(doc, relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
    }

    public func parse(_ doc: EntryText, relativePath: String, displayPath: String, hasInk: Bool = false) -> Outcome {
        parse(Sections(head: doc.lines[...doc.closing].joined(), body: doc.body), relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
    }

    /// An entry file cut at its fences: the front matter, both fences included, and the body.
    struct Sections {
        var head: String
        var body: String
        /// A body of plain prose in ASCII as bytes, with its prose (`Prose.plainASCII`), in place
        /// of `body`: valid only while the bytes are (within `parse(bytes:)`).
        var plainBody: (prose: Prose, bytes: UnsafeBufferPointer<UInt8>)? = nil
        /// The YAML between the fences.
        var yaml: String { EntryText.splitLines(head).dropFirst().dropLast().joined() }
        /// The file line (1-based) on which the body starts: after the front matter's lines
        /// (split after each `\n`, as `EntryText.splitLines` splits).
        var bodyStartLine: Int {
            var head = head
            return head.withUTF8 { b in
                var lines = 0
                for c in b where c == UInt8(ascii: "\n") { lines += 1 }
                return lines + (b.last.map { $0 == UInt8(ascii: "\n") } ?? true ? 0 : 1) + 1
            }
        }
    }

    func parse(_ doc: Sections, relativePath: String, displayPath: String, hasInk: Bool) -> Outcome {
        // Most front matter is one `key: value` a line: read without libyaml. A problem found in
        // it is found again in Yams' nodes, which place it (line and column).
        if EntryParser.plainFrontMatter, let root = PlainFrontMatter.compose(head: doc.head) {
            let outcome = interpret(root, doc, relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
            if outcome.problems.isEmpty { return outcome }
        }
        let root: Node?
        do { root = try YAML.compose(doc.yaml, path: displayPath, lineOffset: 1) } catch let e as DaybookError {
            return Outcome(entry: nil, problems: [e])
        } catch { return Outcome(entry: nil, problems: [.input("\(error)", at: SourceLocation(path: displayPath))]) }
        return interpret(root, doc, relativePath: relativePath, displayPath: displayPath, hasInk: hasInk)
    }

    /// Whether `parse(bytes:)` cuts the file at the bytes; tests turn it off to compare with `EntryText`.
    nonisolated(unsafe) static var cutAtBytes = true

    /// Whether `parse` tries `PlainFrontMatter` before Yams; tests turn it off to compare the two.
    nonisolated(unsafe) static var plainFrontMatter = true

    /// The entry the front matter's nodes and the body make, or the problems in them.
    /// Yams' nodes and the plain reader's are read by this one function (`FrontMatterNode`).
    func interpret<N: FrontMatterNode>(_ root: N?, _ doc: Sections, relativePath: String, displayPath: String, hasInk: Bool) -> Outcome {
        var problems: [DaybookError] = []
        func problem(_ node: N?, _ message: String) {
            let loc = node.map { $0.location(path: displayPath, lineOffset: 1) } ?? SourceLocation(path: displayPath, line: 1, column: 1)
            problems.append(.input(message, at: loc))
        }
        var mapping: [(N, N)] = []
        if let root {
            if case let .mapping(m) = root.form { mapping = m } else { problem(root, "the front matter must be a mapping of keys to values") }
        }
        var date: LocalDateTime?
        var title: String?
        var frontTags: [String] = []
        var seenTags = SmallSet()
        var mood: Int?
        var moodNode: N?
        var template: String?
        var fields: [(String, JSONValue)] = []
        var codings: [Coding] = []
        var seenKeys = SmallSet()
        for (keyNode, value) in mapping {
            guard let key = keyNode.keyText else { problem(keyNode, "a key must be text"); continue }
            if !seenKeys.insert(key) { problem(keyNode, "the key `\(key)` appears twice") }
            switch key {
            case "date":
                guard let s = value.form.text, let d = LocalDateTime.parse(s, timeZone: config.timeZone) else {
                    problem(value, "`date` must be an ISO 8601 date-time such as 2026-11-21T22:40:00+01:00 (got `\(value.form.text.map { EntryParser.clipped($0) } ?? "a \(value.form.kindName)")`)")
                    continue
                }
                date = d
            case "title":
                guard let s = value.form.text else { problem(value, "`title` must be text"); continue }
                title = s
            case "tags":
                var items: [N] = []
                switch value.form {
                case let .sequence(seq): items = seq
                case .scalar: if value.value != .null { items = [value] }
                default: problem(value, "`tags` must be a list of tags"); continue
                }
                frontTags.reserveCapacity(frontTags.count + items.count)
                for item in items {
                    // `tags: true` is YAML's true, not a tag someone meant to write.
                    guard let raw = item.form.text, !item.isBool else {
                        problem(item, "a tag must be text (got \(item.form.text.map { "`\(EntryParser.clipped($0))`" } ?? "a \(item.form.kindName)"))"); continue
                    }
                    let t = Tag.normalize(raw)
                    if Tag.isValid(t) { if seenTags.insert(t) { frontTags.append(t) } }
                    else { problem(item, "`\(EntryParser.clipped(raw))` is not a tag: use letters, digits, _, - and /") }
                }
            case "mood":
                // Checked after the loop: `template` may come later and bring its own scale.
                if value.value != .null { moodNode = value }
            case "template":
                guard let s = value.form.text else { problem(value, "`template` must be a name"); continue }
                template = s
            case "codes":
                codings = parseCodings(value, problem: problem)
            default:
                if fields.isEmpty { fields.reserveCapacity(mapping.count) }
                fields.append((key, value.value))
            }
        }
        if let moodNode {
            let scale = template.flatMap(moodScale) ?? config.moodMin...config.moodMax
            if case let .int(m) = moodNode.value {
                if scale.contains(m) { mood = m } else { problem(moodNode, "mood \(m) is off the scale \(scale.lowerBound)–\(scale.upperBound)") }
            } else {
                problem(moodNode, "`mood` must be an integer from \(scale.lowerBound) to \(scale.upperBound)")
            }
        }
        if date == nil && !problems.contains(where: { $0.message.hasPrefix("`date`") }) {
            problems.append(.input("the front matter has no `date` (add a line such as `date: 2026-11-21T10:30:00+01:00`)",
                                   at: SourceLocation(path: displayPath, line: 1, column: 1)))
        }
        guard problems.isEmpty, let date else {
            // What did read, for an editor (`partial`); a date that did not read is day 0 there.
            let body = doc.plainBody.map { String(decoding: $0.bytes, as: UTF8.self) } ?? doc.body
            let prose = Prose(markdown: body)
            let fallback = date ?? LocalDateTime(day: LocalDay(ordinal: 0), secondOfDay: 0, offset: 0)
            let partial = Entry(id: Entry.id(ofPath: relativePath), path: relativePath, date: fallback, title: title ?? prose.firstHeading ?? EntryParser.firstLine(of: body),
                                frontTags: frontTags, inlineTags: prose.inlineTags, mood: mood, template: template, fields: fields,
                                codings: codings, body: body, bodyStartLine: doc.bodyStartLine, words: prose.words, hasInk: hasInk)
            return Outcome(entry: nil, problems: problems, partial: partial)
        }

        let prose = doc.plainBody?.prose ?? Prose(markdown: doc.body)
        // A body read as bytes is made a String where the entry needs it: for a title when the
        // front matter has none, for the places of codings (and of a stroke file's), not else.
        let body = doc.plainBody.map { title == nil || !codings.isEmpty || hasInk ? String(decoding: $0.bytes, as: UTF8.self) : "" } ?? doc.body
        let resolvedTitle = title ?? prose.firstHeading ?? EntryParser.firstLine(of: body)
        let entry = Entry(id: Entry.id(ofPath: relativePath), path: relativePath, date: date, title: resolvedTitle, frontTags: frontTags,
                          inlineTags: prose.inlineTags, mood: mood, template: template, fields: fields,
                          codings: codings, body: body, bodyStartLine: doc.bodyStartLine, words: prose.words, hasInk: hasInk)
        return Outcome(entry: entry, problems: [])
    }

    func parseCodings<N: FrontMatterNode>(_ value: N, problem: (N?, String) -> Void) -> [Coding] {
        guard case let .sequence(seq) = value.form else {
            if value.value != .null { problem(value, "`codes` must be a list of codings") }
            return []
        }
        var out: [Coding] = []
        out.reserveCapacity(seq.count)
        for item in seq {
            switch item.form {
            case let .scalar(s):
                out.append(Coding(code: s.lowercased()))
            case let .mapping(m):
                var c = Coding(code: "")
                var ok = true
                for (k, v) in m {
                    let key = k.keyText ?? ""
                    switch key {
                    case "code", "quote", "memo", "coder":
                        // A mapping or list here would be dropped silently (a quote lost makes
                        // the coding cover the whole entry): it is an error instead.
                        guard let text = v.form.text else { problem(v, "`\(key)` in a coding must be text, not a \(v.form.kindName)"); ok = false; continue }
                        switch key {
                        case "code": c.code = text.lowercased()
                        case "quote": c.quote = text
                        case "memo": c.memo = text
                        default: c.coder = text
                        }
                    case "occurrence":
                        guard let n = v.int, n >= 1 else { problem(v, "`occurrence` must be a whole number from 1"); ok = false; continue }
                        c.occurrence = n
                    case "coded":
                        guard let t = v.form.text.flatMap({ LocalDateTime.parse($0, timeZone: config.timeZone) }) else {
                            problem(v, "`coded` must be a date-time such as 2026-11-21T10:30:00+01:00"); ok = false; continue
                        }
                        c.coded = t
                    default: problem(k, "unknown key `\(key)` in a coding (known: code, quote, occurrence, memo, coder, coded)"); ok = false
                    }
                }
                if c.code.isEmpty { problem(item, "a coding needs a `code`"); ok = false }
                else if !Tag.isValid(c.code) { problem(item, "`\(c.code)` is not a code name: use letters, digits, _, - and /"); ok = false }
                if ok { out.append(c) }
            default:
                problem(item, "a coding is a code name or a mapping with `code` and `quote`")
            }
        }
        return out
    }

    /// A value as a message quotes it: at most 60 characters, so a 200 KB value gives a line, not a page.
    static func clipped(_ s: String, limit: Int = 60) -> String {
        s.count <= limit ? s : String(s.prefix(limit)) + "… (\(s.count) characters)"
    }

    /// The first non-blank line of the body, without Markdown's leading markers, at most 80 characters.
    /// The markers and blanks go in one pass over the line (slices, no copies): dropping one marker
    /// at a time and trimming a new copy each time took seconds on a line of 10,000 `*` (issue 20).
    public static func firstLine(of body: String) -> String {
        let blank: (Character) -> Bool = { $0.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) }
        for line in body.split(whereSeparator: \.isNewline) {
            var t = line.drop(while: blank)
            while let f = t.first, "#>-*".contains(f) { t = t.dropFirst().drop(while: blank) }
            while let l = t.last, blank(l) { t = t.dropLast() }
            if !t.isEmpty { return String(t.prefix(80)) }
        }
        return ""
    }

    /// The line and column of the first byte that is not UTF-8.
    public static func utf8Error(_ data: Data, path: String) -> DaybookError {
        var line = 1, col = 1
        var i = data.startIndex
        while i < data.endIndex {
            let b = data[i]
            var len = 0
            if b < 0x80 { len = 1 } else if b & 0xE0 == 0xC0 { len = 2 } else if b & 0xF0 == 0xE0 { len = 3 } else if b & 0xF8 == 0xF0 { len = 4 }
            var valid = len > 0 && i + len <= data.endIndex
            if valid, len > 1 { for k in 1..<len where data[i + k] & 0xC0 != 0x80 { valid = false } }
            if valid, len > 1, String(data: data[i..<(i + len)], encoding: .utf8) == nil { valid = false }
            if !valid {
                return .input(String(format: "the file is not UTF-8 (byte 0x%02X); convert it, e.g. with iconv -f latin1 -t utf-8", b),
                              at: SourceLocation(path: path, line: line, column: col))
            }
            if b == 0x0A { line += 1; col = 1 } else { col += 1 }
            i += len
        }
        return .input("the file is not UTF-8", at: SourceLocation(path: path))
    }
}

extension String {
    /// Decodes UTF-8, refusing invalid bytes instead of replacing them.
    public init?(validatingUTF8Data data: Data) {
        guard let s = String(data: data, encoding: .utf8) else { return nil }
        self = s
    }

    /// The same from memory, byte for byte (a byte order mark stays): decoding repairs an invalid
    /// sequence, so the bytes are valid exactly when the decoded text has the very same bytes.
    init?(validatingUTF8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        var s = String(decoding: bytes, as: UTF8.self)
        let same = s.withUTF8 { $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }
        guard same else { return nil }
        self = s
    }
}
