// `import qdpx|qdc`: a REFI-QDA project or codebook back into the codebook and quote-anchored codings.
import Foundation

/// What an import of a REFI-QDA file would do, worked out before anything is written:
/// - codes merge into the codebook through its own rules (`Codebook.define`): a new code is added
///   under its category; a code the codebook has moves under the category the project gives it,
///   and takes the project's description and colour when it has them; a note on a code is added to
///   its description. Names become daybook code names (`REFIXML.daybookCodeName`);
/// - users become coders: each coding names its `creatingUser` (else its selection's) as `coder`;
/// - a text source is a diary entry when its GUID is the one `export qdpx` gives the entry, else
///   when its text is the entry's body (line endings and trailing blanks aside); a selection
///   becomes a coding that quotes the selected text with the occurrence it is in the source (a
///   selection of the whole text, blanks aside, and a coding of the whole source, code the whole
///   entry), checked and written as `code add` does (`CodeApplication`); its `creationDateTime`
///   becomes `coded:`; notes on the coding or the selection, and the selection's description,
///   become its `memo`;
/// - a text source that is no entry becomes a new entry (title: its name; date: its
///   `creationDateTime`, else now), with its codings, unless `codingsOnly`; its Cases and Sets
///   become tags and its variables fields (`keepGrouping`), which an entry the diary has is not
///   given (the report says so);
/// - a coding the entry has already (same code, quote, occurrence and coder) is counted, not
///   written again, so importing a diary's own export adds no coding (only the codes the entries
///   use and the codebook lacks, which the export defines, are added to the codebook).
/// Whatever cannot be placed is listed in `unplaced` with the source, the selection and why.
public struct REFIImport {
    public struct NewEntry {
        public var draft: EntryDraft
        public var codings: [Coding]
        public var source: String
    }

    public var book: Codebook
    public var bookChanged: Bool
    /// `entry path → the codings to write, in order` (each checked against the entry as it will be).
    public var edits: [(path: String, title: String, applications: [CodeApplication])] = []
    public var newEntries: [NewEntry] = []
    /// Lines of the report: what could not be placed and why.
    public var unplaced: [String] = []
    /// Lines of the report: what was done differently from the file (a renamed code, a date missing).
    public var notes: [String] = []
    /// Codings the diary has already.
    public var existing = 0
    /// Codes added to or changed in the codebook.
    public var codesAdded = 0, codesChanged = 0
    /// Coders named by the imported codings.
    public var coders: Set<String> = []

    public var codingsAdded: Int { edits.reduce(0) { $0 + $1.applications.filter { $0.outcome == .added }.count } + newEntries.reduce(0) { $0 + $1.codings.count } }
    public var memosChanged: Int { edits.reduce(0) { $0 + $1.applications.filter { $0.outcome != .added }.count } }

    /// Plans the import of a `.qdpx` project; nothing is written.
    public static func plan(qdpx url: URL, displayPath: String, diary: Diary, codingsOnly: Bool,
                            limits: REFIArchive.Limits = REFIArchive.Limits()) throws -> REFIImport {
        let (project, archive) = try REFIProject.readProject(url, displayPath: displayPath, limits: limits)
        var plan = try REFIImport(codes: project, diary: diary)
        try plan.place(project, archive: archive, diary: diary, codingsOnly: codingsOnly)
        plan.dropUnusedCodes(project, codingsOnly: codingsOnly)
        return plan
    }

    /// Plans the import of a `.qdc` codebook; nothing is written.
    public static func plan(qdc url: URL, displayPath: String, diary: Diary) throws -> REFIImport {
        try REFIImport(codes: REFIProject.readCodebook(url, displayPath: displayPath), diary: diary)
    }

    // MARK: Codes

    /// Code GUID → daybook code name.
    var codeNames: [String: String] = [:]
    /// The codebook before the import, and the codes of codings the diary held already.
    var bookBefore = Codebook()
    var codesHeld: Set<String> = []

    init(codes project: REFIProject, diary: Diary) throws {
        let before = try Codebook.load(diary)
        book = before
        bookBefore = before
        bookChanged = false
        func noteText(_ refs: [String]) -> [String] { refs.compactMap { project.notes[$0]?.text }.filter { !$0.isEmpty } }
        func walk(_ code: REFIProject.Code, parent: String?) {
            guard let name = REFIXML.daybookCodeName(code.name) else {
                unplaced.append("code \"\(code.name)\" (\(project.xmlPath):\(code.line)): the name has nothing a code name can hold (letters, digits, _, - and /); it and its codings are left out")
                for c in code.children { walk(c, parent: parent) }
                return
            }
            if let taken = codeNames.first(where: { $0.value == name && $0.key != code.guid }) {
                notes.append("code \"\(code.name)\" (\(project.xmlPath):\(code.line)) is `\(name)` as daybook writes it, like another code of the file (\(taken.key)); their codings share it")
            } else if REFIXML.codeName(name) != code.name {
                notes.append("code \"\(code.name)\" is imported as `\(name)`")
            }
            codeNames[code.guid] = name
            let existing = book.code(name)
            var description = code.description?.trimmingCharacters(in: .whitespacesAndNewlines)
            if description?.isEmpty == true { description = nil }
            for memo in noteText(code.noteRefs) {
                let base = description ?? existing?.description ?? ""
                if !base.contains(memo) { description = base.isEmpty ? memo : base + "\n\n" + memo }
            }
            if description == existing?.description { description = nil }
            var color = code.color.map { REFIImport.color($0) }
            if let c = color, !Codebook.isColor(c) {
                notes.append("code `\(name)`: the colour \"\(c)\" is not #RRGGBB or #RGB; left as it was")
                color = nil
            }
            if color != nil, color == existing?.color?.lowercased() { color = nil }
            do {
                if try book.define(name, parent: parent, description: description, color: color) {
                    if existing == nil { codesAdded += 1 } else { codesChanged += 1 }
                }
            } catch let e as DaybookError {
                notes.append("code `\(name)`: \(e.message); kept where it is")
                _ = try? book.define(name, description: description, color: color)
            } catch {}
            for c in code.children { walk(c, parent: name) }
        }
        for c in project.codes { walk(c, parent: nil) }
        bookChanged = book != before
    }

    // MARK: Codings

    mutating func place(_ project: REFIProject, archive: REFIArchive, diary: Diary, codingsOnly: Bool) throws {
        let snapshot = diary.scanEntries()
        var byGUID: [String: Int] = [:]
        for k in 0..<snapshot.count { byGUID[QDPXWriter.sourceGUID(entryID: Entry.id(ofPath: snapshot.path(k)))] = k }
        var byText: [String: [Int]]?
        let defaultCoder = diary.coderOfUnnamedCodings
        var casesOf: [String: [REFIProject.Case]] = [:], setsOf: [String: [String]] = [:]
        for c in project.cases { for g in Set(c.sources) { casesOf[g, default: []].append(c) } }
        for x in project.sets { for g in Set(x.sources) { setsOf[g, default: []].append(x.name) } }
        for other in project.otherSources {
            unplaced.append("source \"\(other.name)\" (\(project.xmlPath):\(other.line)): a \(other.kind), not text; daybook imports text sources only")
        }
        for source in project.sources {
            let label = "source \"\(source.name ?? source.guid)\" (\(project.xmlPath):\(source.line))"
            let all = source.selections.reduce(source.codings.count) { $0 + $1.codings.count }
            guard let text = try REFIImport.text(of: source, archive: archive) else {
                if all > 0 { unplaced.append("\(label): its text is not in the project (\(source.plainTextPath ?? "no plainTextPath")); its \(all) coding\(all == 1 ? "" : "s") left out") }
                continue
            }
            for n in source.noteRefs.compactMap({ project.notes[$0]?.name ?? $0 }) {
                notes.append("\(label): the note \"\(n)\" on the whole source is not imported (daybook keeps memos on codings and codes)")
            }
            // The entry this source is: by daybook's GUID, else by its text.
            var k = byGUID[source.guid]
            if k == nil {
                if byText == nil {
                    byText = [:]
                    for i in 0..<snapshot.count { if let b = diary.readBody(snapshot.path(i)) { byText![REFIImport.textKey(b), default: []].append(i) } }
                }
                k = byText?[REFIImport.textKey(text)]?.first
            }
            let found = codings(of: source, text: text, label: label, project: project)
            let grouping = (cases: casesOf[source.guid] ?? [], sets: setsOf[source.guid] ?? [])
            if let k {
                if !grouping.cases.isEmpty || !grouping.sets.isEmpty || !source.values.isEmpty {
                    let what = grouping.cases.map { "case \"\($0.name)\"" } + grouping.sets.map { "set \"\($0)\"" } + (source.values.isEmpty ? [] : ["its variables"])
                    notes.append("\(label) is the entry \(diary.displayPath(snapshot.path(k))): its \(what.joined(separator: ", ")) not written to it (import adds codings to an entry the diary has, never tags or fields)")
                }
                // Codings the entry has are counted from the diary's cache; the entry is read
                // only for new ones (a diary's own export reads no entry at all).
                let known = snapshot.entry(k, parts: .codings).codings
                let fresh = found.filter { !REFIImport.has(known, $0.coding, defaultCoder: defaultCoder) }
                existing += found.count - fresh.count
                for f in found where REFIImport.has(known, f.coding, defaultCoder: defaultCoder) { codesHeld.insert(f.coding.code) }
                guard !fresh.isEmpty else { continue }
                // The entry from the cache and its body alone: no front matter parsed, no words counted.
                var entry = snapshot.entry(k, parts: [.title, .codings])
                guard let body = diary.readBody(entry.path) else {
                    unplaced.append("\(label): the entry \(diary.displayPath(entry.path)) cannot be read; its \(fresh.count) coding(s) left out")
                    continue
                }
                entry.body = body
                try placeOnEntry(fresh, entry: entry, sourceText: text, diary: diary, defaultCoder: defaultCoder)
            } else if codingsOnly {
                if all > 0 { unplaced.append("\(label): no entry of the diary has this text or GUID (--codings-only); its \(all) coding\(all == 1 ? "" : "s") left out") }
            } else {
                var date = diary.clock.nowLocal
                if let t = source.creationDateTime, let d = LocalDateTime.parse(t, timeZone: diary.config.timeZone) { date = d } else {
                    notes.append("\(label): no creationDateTime; the new entry is dated now")
                }
                var draft = EntryDraft(date: date, title: source.name.flatMap { $0.isEmpty ? nil : $0 })
                // Written with LF, as `new` and every import write a body; quotes follow.
                draft.body = text.replacingOccurrences(of: "\r\n", with: "\n")
                keepGrouping(grouping.cases, grouping.sets, values: source.values, project: project, in: &draft, label: label)
                var list: [Coding] = []
                for f in found {
                    var c = f.coding
                    c.quote = c.quote.map { CodeApplication.lineEndings(of: $0, as: draft.body) }
                    c.coder = c.madeBy(defaultCoder: defaultCoder)
                    if c.coded == nil { c.coded = diary.clock.nowLocal }
                    if !list.contains(where: { $0.untimed == c.untimed }) { list.append(c) } else { existing += 1 }
                    if let who = c.coder { coders.insert(who) }
                }
                newEntries.append(NewEntry(draft: draft, codings: list, source: label))
            }
        }
    }

    /// Leaves out of the codebook a code the import would add when none of the file's codings with
    /// it could be placed, or with `--codings-only` when no placed coding uses it: the codebook
    /// gains only codes something in the diary refers to. A code with no codings in the file comes
    /// in with a full import (that is importing the codebook), and a category stays while a code
    /// under it stays. Each code left out is said.
    mutating func dropUnusedCodes(_ project: REFIProject, codingsOnly: Bool) {
        var used = codesHeld
        for (_, _, apps) in edits { for a in apps { used.insert(a.coding.code) } }
        for n in newEntries { for c in n.codings { used.insert(c.code) } }
        var inFile: [String: Int] = [:]
        for source in project.sources {
            for c in source.codings + source.selections.flatMap(\.codings) {
                if let name = codeNames[c.codeGUID] { inFile[name, default: 0] += 1 }
            }
        }
        var dropped: [String] = []
        func prune(_ list: inout [Codebook.Code]) {
            for i in list.indices.reversed() {
                prune(&list[i].children)
                let name = list[i].name
                guard list[i].children.isEmpty, !bookBefore.contains(name), !used.contains(name) else { continue }
                if let n = inFile[name] {
                    notes.append("code `\(name)`: none of its \(n) coding\(n == 1 ? "" : "s") in the file could be placed; not added to the codebook")
                } else if codingsOnly {
                    notes.append("code `\(name)`: no coding placed by this import uses it (--codings-only); not added to the codebook")
                } else { continue }
                list.remove(at: i)
                dropped.append(name)
            }
        }
        prune(&book.codes)
        codesAdded -= dropped.count
        bookChanged = book != bookBefore
    }

    /// A coding read from the file, with where it came from for the report.
    struct Found {
        var coding: Coding
        var label: String
    }

    /// The codings of a source as daybook codings of its text (quote and occurrence in the source's text).
    mutating func codings(of source: REFIProject.TextSource, text: String, label: String, project: REFIProject) -> [Found] {
        var out: [Found] = []
        let scalars = Array(text.unicodeScalars)
        var search = QuoteSearch(text)
        let firstText = scalars.firstIndex { !CharacterSet.whitespacesAndNewlines.contains($0) } ?? 0
        let lastText = (scalars.lastIndex { !CharacterSet.whitespacesAndNewlines.contains($0) }).map { $0 + 1 } ?? 0
        func make(_ c: REFIProject.Coding, selection: REFIProject.Selection?, quote: String?, occurrence: Int?, place: String) {
            guard let code = codeNames[c.codeGUID] else {
                unplaced.append("\(place): the coding \(c.guid) names the code \(c.codeGUID), which the codebook of the file does not have (or whose name could not be used)")
                return
            }
            let userGUID = c.creatingUser ?? selection?.creatingUser
            var coder: String?
            if let g = userGUID {
                if let name = project.users[g] { coder = name } else { notes.append("\(place): the user \(g) is not in <Users>; the coding is the default coder's") }
            }
            let stamp = c.creationDateTime ?? selection?.creationDateTime
            let coded = stamp.flatMap { LocalDateTime.parse($0, timeZone: TimeZone(secondsFromGMT: 0)!) }
            var memos = (c.noteRefs + (selection?.noteRefs ?? [])).compactMap { project.notes[$0]?.text }
            if let d = selection?.description?.trimmingCharacters(in: .whitespacesAndNewlines), !d.isEmpty { memos.insert(d, at: 0) }
            var seen = Set<String>()
            memos = memos.filter { !$0.isEmpty && seen.insert($0).inserted }
            let memo = memos.isEmpty ? nil : memos.joined(separator: "\n\n")
            out.append(Found(coding: Coding(code: code, quote: quote, occurrence: occurrence == 1 ? nil : occurrence, memo: memo, coder: coder, coded: coded), label: place))
        }
        var positions = SelectionPositions(scalars)
        var unitsSaid = Set<SelectionPositions.Unit>()
        for s in source.selections {
            let shown = s.name.map { " \"\(CodeApplication.short($0))\"" } ?? ""
            let place = "\(label), selection \(s.start)–\(s.end)\(shown) (line \(s.line))"
            // REFI-QDA counts Unicode code points; a selection's `name`, the text it selected,
            // tells when a tool counted otherwise (UTF-16 units, bytes, CRLF as two), or got it wrong.
            guard let (range, unit) = positions.range(s.start, s.end, selecting: s.name) else {
                if s.codings.isEmpty { continue }
                if s.start < s.end, s.end <= scalars.count, s.name != nil {
                    unplaced.append("\(place): the text at these positions is not the text the selection names, counted in code points, UTF-16 units, bytes or with CRLF as two; not placed")
                } else {
                    unplaced.append("\(place): the positions are outside the source's text of \(scalars.count) characters (Unicode code points), or empty")
                }
                continue
            }
            if unit != .codePoints, unitsSaid.insert(unit).inserted {
                notes.append("\(label): its positions count \(unit.rawValue), not Unicode code points as REFI-QDA says; placed by what the selections name")
            }
            if range.lowerBound <= firstText && range.upperBound >= lastText {
                for c in s.codings { make(c, selection: s, quote: nil, occurrence: nil, place: place) }
                continue
            }
            let quote = String(String.UnicodeScalarView(scalars[range]))
            guard !quote.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                if !s.codings.isEmpty { unplaced.append("\(place): it selects only blanks") }
                continue
            }
            guard let occurrence = search.occurrence(of: quote, startingAt: range.lowerBound) else {
                if !s.codings.isEmpty { unplaced.append("\(place): it overlaps an earlier occurrence of the same text, and daybook counts occurrences without overlap") }
                continue
            }
            for c in s.codings { make(c, selection: s, quote: quote, occurrence: occurrence, place: place) }
        }
        for c in source.codings { make(c, selection: nil, quote: nil, occurrence: nil, place: "\(label), the whole source") }
        return out
    }

    /// Places codings found in a source on the entry it is, through `CodeApplication`.
    mutating func placeOnEntry(_ found: [Found], entry: Entry, sourceText: String, diary: Diary, defaultCoder: String?) throws {
        var entry = entry
        let same = entry.body == sourceText || REFIImport.textKey(entry.body) == REFIImport.textKey(sourceText)
        var inSource = QuoteSearch(sourceText), inBody = QuoteSearch(entry.body)
        var applications: [CodeApplication] = []
        for f in found {
            var c = f.coding
            let who = c.madeBy(defaultCoder: defaultCoder)
            if let q = c.quote, !same {
                // The entry changed since the export: the occurrence holds only if the text occurs as often.
                let a = inSource.count(of: q), b = inBody.count(of: q)
                guard a == b else {
                    unplaced.append("\(f.label): code `\(c.code)`: the entry changed since the export; the text occurs \(b) time\(b == 1 ? "" : "s") in it and \(a) in the project")
                    continue
                }
            }
            c.quote = c.quote.map { CodeApplication.lineEndings(of: $0, as: entry.body) }
            if REFIImport.has(entry.codings, c, defaultCoder: defaultCoder) {
                existing += 1
                continue
            }
            do {
                let app = try CodeApplication(code: c.code, quote: c.quote, occurrence: c.occurrence, memo: c.memo, coder: who,
                                              coded: c.coded, entry: entry, diary: diary, codebook: book)
                applications.append(app)
                if let who = app.coding.coder { coders.insert(who) }
                switch app.outcome {
                case .added: entry.codings.append(app.coding)
                case .memoChanged:
                    if let i = entry.codings.firstIndex(where: { $0.untimed == app.coding.untimed || ($0.code == app.coding.code && $0.quote == app.coding.quote && $0.coder == app.coding.coder && ($0.occurrence ?? 1) == (app.coding.occurrence ?? 1)) }) {
                        entry.codings[i].memo = app.coding.memo
                    }
                }
            } catch let e as DaybookError where e.kind == .nothing {
                existing += 1
            } catch let e as DaybookError {
                unplaced.append("\(f.label): code `\(c.code)`: \(e.message)")
            }
        }
        if !applications.isEmpty { edits.append((entry.path, entry.title, applications)) }
    }

    // MARK: Writing

    /// Writes the plan in one commit (`import qdpx: …`); nil when there is nothing to write.
    @discardableResult
    public func run(diary: Diary, format: String, file: String) throws -> [String] {
        guard bookChanged || !edits.isEmpty || !newEntries.isEmpty else { return [] }
        // Every new file's text is made before the first is written.
        var texts: [(draft: EntryDraft, text: String)] = []
        for n in newEntries {
            var lines = CodingLines(try EntryText(try n.draft.text(), path: n.source))
            for c in n.codings { lines.append(c) }
            texts.append((n.draft, lines.text.text))
        }
        let change = try Change(diary)
        try change.allOrNothing("import \(format)")
        if bookChanged { try change.write(book) }
        var paths: [String] = []
        for (path, _, apps) in edits {
            try change.editEntry(path) { text, _ in for a in apps { a.apply(to: &text) } }
            paths.append(path)
        }
        for (draft, text) in texts {
            // Written at once, so a second new entry of the same moment and title takes `-2`.
            let rel = Diary.entryPath(id: EntryWriter.freeID(for: draft, in: diary), day: draft.date.day)
            try change.write(text, to: rel)
            paths.append(rel)
        }
        try change.commit("import \(format): \(summary) from \(file)")
        return paths
    }

    /// `14 codings on 5 entries, 2 new entries, 3 codes`.
    public var summary: String {
        func n(_ k: Int, _ one: String, _ many: String) -> String { "\(k) \(k == 1 ? one : many)" }
        var parts: [String] = []
        if codingsAdded > 0 {
            parts.append(n(codingsAdded, "coding", "codings") + " on " + n(edits.count + newEntries.count, "entry", "entries"))
        }
        if memosChanged > 0 { parts.append(n(memosChanged, "memo", "memos") + " changed") }
        if !newEntries.isEmpty { parts.append(n(newEntries.count, "new entry", "new entries")) }
        if codesAdded > 0 { parts.append(n(codesAdded, "code", "codes") + " added") }
        if codesChanged > 0 { parts.append(n(codesChanged, "code", "codes") + " changed") }
        return parts.isEmpty ? "nothing new" : parts.joined(separator: ", ")
    }

    // MARK: Helpers

    /// Whether `codings` hold `c` already: same code, quote (whatever its line endings),
    /// occurrence and coder, and its memo when it brings one; a whole-entry code also as a
    /// highlighter stroke.
    static func has(_ codings: [Coding], _ c: Coding, defaultCoder: String?) -> Bool {
        let quote = c.quote.map { $0.replacingOccurrences(of: "\r\n", with: "\n") }
        let who = c.madeBy(defaultCoder: defaultCoder)
        return codings.contains { e in
            e.code == c.code && e.quote.map { $0.replacingOccurrences(of: "\r\n", with: "\n") } == quote
                && (e.occurrence ?? 1) == (c.occurrence ?? 1)
                && (e.madeBy(defaultCoder: defaultCoder) == who || (c.quote == nil && e.source != .frontMatter))
                && (c.memo == nil || e.memo == c.memo || e.source != .frontMatter)
        }
    }

    /// A new entry keeps its source's Cases, Sets and Variables: each case the tag `case/NAME`,
    /// each set `set/NAME` (names as code names are made, `REFIXML.daybookCodeName`), and the
    /// variable values of the source and its cases front-matter fields named by the variable
    /// (Integer, Float and Boolean values typed; the source's own value first, then the first case's).
    mutating func keepGrouping(_ cases: [REFIProject.Case], _ sets: [String], values: [REFIProject.VariableValue], project: REFIProject,
                               in draft: inout EntryDraft, label: String) {
        for (prefix, name) in cases.map({ ("case", $0.name) }) + sets.map({ ("set", $0) }) {
            guard let tag = REFIXML.daybookCodeName(name).map({ "\(prefix)/\($0)" }) else {
                notes.append("\(label): the \(prefix) \"\(name)\" has nothing a tag can hold; left out")
                continue
            }
            if !draft.tags.contains(tag) { draft.tags.append(tag) }
        }
        let reserved: Set<String> = ["date", "codes", "title", "template", "tags", "mood"]
        for v in values + cases.flatMap(\.values) {
            guard let variable = project.variables[v.variable] else {
                notes.append("\(label): a value of the variable \(v.variable), which <Variables> does not have; left out")
                continue
            }
            guard let key = REFIXML.daybookCodeName(variable.name)?.replacingOccurrences(of: "/", with: "-"), !reserved.contains(key) else {
                notes.append("\(label): the variable \"\(variable.name)\" cannot be a field of the entry (a name daybook keeps, or nothing a key can hold); left out")
                continue
            }
            guard !draft.fields.contains(where: { $0.0 == key }) else { continue }
            let value: JSONValue
            switch v.kind {
            case "IntegerValue": value = Int(v.text).map(JSONValue.int) ?? .string(v.text)
            case "FloatValue": value = Double(v.text).map(JSONValue.double) ?? .string(v.text)
            case "BooleanValue": value = ["true", "1"].contains(v.text.lowercased()) ? .bool(true) : ["false", "0"].contains(v.text.lowercased()) ? .bool(false) : .string(v.text)
            default: value = .string(v.text)
            }
            draft.fields.append((key, value))
        }
    }

    /// The source's plain text: inline, or its `internal://` file (UTF-8, a byte-order mark dropped).
    static func text(of source: REFIProject.TextSource, archive: REFIArchive) throws -> String? {
        if let t = source.plainTextContent { return t }
        guard let ref = source.plainTextPath, let data = try archive.internalFile(ref) else { return nil }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return String(validatingUTF8Data: Data(bytes)) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// A REFI-QDA colour as daybook writes one: lowercase, and the schema's short form #RGB
    /// spelt out as #RRGGBB (each digit doubled, as CSS reads it).
    static func color(_ s: String) -> String {
        let c = s.lowercased()
        let hex = c.dropFirst()
        guard c.hasPrefix("#"), hex.count == 3, hex.allSatisfy(\.isHexDigit) else { return c }
        return "#" + hex.map { "\($0)\($0)" }.joined()
    }

    /// A text compared whatever its line endings and trailing blanks.
    static func textKey(_ s: String) -> String {
        var b = s.replacingOccurrences(of: "\r\n", with: "\n")
        while let last = b.unicodeScalars.last, CharacterSet.whitespacesAndNewlines.contains(last) { b.unicodeScalars.removeLast() }
        return b
    }
}
