// Reading a REFI-QDA project (.qdpx: a ZIP with project.qde and sources/) or codebook (.qdc) into values.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ZIPFoundation

/// What `import qdpx|qdc` needs of a REFI-QDA file: users, the code tree, text sources with their
/// selections and codings, notes, variables, cases and sets of sources. Other sources (PDF, pictures, audio, video) are kept by name
/// only, so the import can say it left them out. Malformed XML, or a required attribute missing or
/// of the wrong type, is an error with the file, line and column.
public struct REFIProject {
    public struct Code {
        public var guid: String
        public var name: String
        public var color: String?
        public var description: String?
        public var noteRefs: [String] = []
        public var children: [Code] = []
        public var line: Int
    }

    public struct Coding {
        public var guid: String
        public var codeGUID: String
        public var creatingUser: String?
        public var creationDateTime: String?
        public var noteRefs: [String] = []
    }

    public struct Selection {
        public var guid: String
        public var name: String?
        public var start: Int
        public var end: Int
        public var creatingUser: String?
        public var creationDateTime: String?
        public var description: String?
        public var codings: [Coding] = []
        public var noteRefs: [String] = []
        public var line: Int
    }

    public struct TextSource {
        public var guid: String
        public var name: String?
        public var plainTextPath: String?
        public var plainTextContent: String?
        public var creationDateTime: String?
        public var selections: [Selection] = []
        /// The source's own variable values.
        public var values: [VariableValue] = []
        /// Codings of the whole source.
        public var codings: [Coding] = []
        public var noteRefs: [String] = []
        public var line: Int
    }

    /// A `<Variable>` of `<Variables>`: a case's or a source's attribute.
    public struct Variable {
        public var guid: String
        public var name: String
        public var type: String?
    }

    /// A `<VariableValue>`: the variable's GUID, the value's text and its element (`IntegerValue`, …).
    public struct VariableValue {
        public var variable: String
        public var text: String
        public var kind: String
    }

    /// A `<Case>`: its name, its variable values and the sources that are its.
    public struct Case {
        public var name: String
        public var values: [VariableValue] = []
        public var sources: [String] = []
    }

    /// A `<Set>` of sources (its `<MemberSource>`s; sets of codes are left aside).
    public struct SourceSet {
        public var name: String
        public var sources: [String] = []
    }

    public struct Note {
        public var guid: String
        public var name: String?
        public var text: String?
        public var plainTextPath: String?
    }

    /// User GUID → name.
    public var users: [String: String] = [:]
    public var codes: [Code] = []
    public var sources: [TextSource] = []
    /// Sources that are not text: element name, source name (or GUID), line.
    public var otherSources: [(kind: String, name: String, line: Int)] = []
    public var notes: [String: Note] = [:]
    /// Variable GUID → variable; the cases and the sets of sources, in file order.
    public var variables: [String: Variable] = [:]
    public var cases: [Case] = []
    public var sets: [SourceSet] = []
    /// How messages name the XML file (`study.qdpx/project.qde`, `book.qdc`).
    public var xmlPath: String = ""

    /// Reads `project.qde` and its XML; source texts are read on demand with `text(of:)`.
    public static func readProject(_ url: URL, displayPath: String, limits: REFIArchive.Limits = REFIArchive.Limits()) throws -> (project: REFIProject, archive: REFIArchive) {
        let archive = try REFIArchive(url, displayPath: displayPath, limits: limits)
        guard let qde = archive.file(named: "project.qde") else {
            throw DaybookError.input("the archive holds no project.qde: not a REFI-QDA project; nothing was imported", at: SourceLocation(path: displayPath))
        }
        let data = try archive.data(of: qde)
        var project = try parse(data, path: displayPath + "/" + qde, root: "Project")
        project.xmlPath = displayPath + "/" + qde
        return (project, archive)
    }

    /// Reads a `.qdc` codebook (its codes alone).
    public static func readCodebook(_ url: URL, displayPath: String) throws -> REFIProject {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: displayPath))
        }
        var project = try parse(data, path: displayPath, root: "CodeBook")
        project.xmlPath = displayPath
        return project
    }

    /// Where the first `&name;` that is none of XML's five entities stands (1-based line and
    /// column in bytes); libxml2 reports the end of the text it had read instead.
    static func undefinedEntity(in data: Data) -> (name: String, line: Int, column: Int)? {
        let bytes = [UInt8](data)
        var line = 1, lineStart = 0, i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
            if bytes[i] == UInt8(ascii: "&"), i + 1 < bytes.count, bytes[i + 1] != UInt8(ascii: "#") {
                var j = i + 1
                while j < bytes.count, j - i < 64, bytes[j] != UInt8(ascii: ";"), bytes[j] != UInt8(ascii: "<"), bytes[j] > 0x20 { j += 1 }
                let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                if !["amp", "lt", "gt", "quot", "apos"].contains(name) { return (name, line, i - lineStart + 1) }
            }
            i += 1
        }
        return nil
    }

    /// Parses the XML; `root` is the element the file must start with.
    static func parse(_ data: Data, path: String, root: String) throws -> REFIProject {
        let reader = Reader(path: path, root: root)
        // Fed to libxml2 a buffer at a time: handed as one piece, a project past a few tens of MB
        // (the export of a 100,000-entry diary is 58 MB) is refused as "not well-formed" at its end.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        let ok = parser.parse()
        if let problem = reader.problem { throw problem }
        guard ok else {
            // libxml2's codes for what people meet most, said in words (Foundation gives only the number).
            let code = (parser.parserError as NSError?)?.code
            let entity = code == 26 || code == 27 ? undefinedEntity(in: data) : nil
            let why = code == 26 || code == 27
                ? "`&\(entity?.name ?? "…");` is an entity XML does not define (as &nbsp; is HTML's); write a character reference such as &#160; instead"
                : parser.parserError.map { ($0 as NSError).localizedDescription } ?? "malformed XML"
            let at: (line: Int, column: Int) = entity.map { ($0.line, $0.column) } ?? (max(parser.lineNumber, 1), max(parser.columnNumber, 1))
            throw DaybookError.input("not well-formed XML (\(why)); nothing was imported",
                                     at: SourceLocation(path: path, line: at.line, column: at.column))
        }
        guard reader.sawRoot else {
            throw DaybookError.input("the file has no <\(root)> element; nothing was imported", at: SourceLocation(path: path, line: 1, column: 1))
        }
        return reader.project
    }

    /// SAX reading into the values above: a stack of open elements, text gathered for the few
    /// elements whose text matters (descriptions and notes' content).
    final class Reader: NSObject, XMLParserDelegate {
        let path: String
        let root: String
        var project = REFIProject()
        var problem: DaybookError?
        var sawRoot = false
        var stack: [String] = []
        var codeStack: [Code] = []
        var source: TextSource?
        var selection: Selection?
        var coding: Coding?
        var note: Note?
        var text: String?
        var refiCase: Case?
        var set: SourceSet?
        var value: VariableValue?

        init(path: String, root: String) {
            self.path = path
            self.root = root
        }

        func fail(_ parser: XMLParser, _ message: String) {
            guard problem == nil else { return }
            problem = DaybookError.input(message + "; nothing was imported",
                                         at: SourceLocation(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1)))
            parser.abortParsing()
        }

        func required(_ parser: XMLParser, _ a: [String: String], _ key: String, _ element: String) -> String? {
            guard let v = a[key], !v.isEmpty else { fail(parser, "<\(element)> has no `\(key)`"); return nil }
            return v
        }

        func integer(_ parser: XMLParser, _ a: [String: String], _ key: String, _ element: String) -> Int? {
            guard let s = required(parser, a, key, element) else { return nil }
            guard let n = Int(s.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                fail(parser, "<\(element)> `\(key)` is \"\(EntryParser.clipped(s))\", not a whole number from 0")
                return nil
            }
            return n
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes a: [String: String] = [:]) {
            let line = parser.lineNumber
            if stack.isEmpty {
                guard name == root else { return fail(parser, "the file starts with <\(name)>, not <\(root)>") }
                sawRoot = true
            }
            let parent = stack.last
            stack.append(name)
            switch name {
            case "User" where parent == "Users":
                guard let g = required(parser, a, "guid", name) else { return }
                project.users[g.lowercased()] = a["name"] ?? g
            case "Code" where parent == "Codes" || parent == "Code":
                guard let g = required(parser, a, "guid", name), let n = required(parser, a, "name", name) else { return }
                codeStack.append(Code(guid: g.lowercased(), name: n, color: a["color"], line: line))
            case "TextSource" where parent == "Sources":
                guard let g = required(parser, a, "guid", name) else { return }
                source = TextSource(guid: g.lowercased(), name: a["name"], plainTextPath: a["plainTextPath"],
                                    creationDateTime: a["creationDateTime"], line: line)
            case "PictureSource", "PDFSource", "AudioSource", "VideoSource":
                if parent == "Sources" { project.otherSources.append((name, a["name"] ?? a["guid"] ?? "?", line)) }
            case "PlainTextSelection" where source != nil && parent == "TextSource":
                guard let g = required(parser, a, "guid", name), let s = integer(parser, a, "startPosition", name),
                      let e = integer(parser, a, "endPosition", name) else { return }
                selection = Selection(guid: g.lowercased(), name: a["name"], start: s, end: e, creatingUser: a["creatingUser"]?.lowercased(),
                                      creationDateTime: a["creationDateTime"], line: line)
            case "Coding" where parent == "PlainTextSelection" || parent == "TextSource":
                guard let g = required(parser, a, "guid", name) else { return }
                coding = Coding(guid: g.lowercased(), codeGUID: "", creatingUser: a["creatingUser"]?.lowercased(), creationDateTime: a["creationDateTime"])
            case "CodeRef" where parent == "Coding":
                guard let t = required(parser, a, "targetGUID", name) else { return }
                coding?.codeGUID = t.lowercased()
            case "NoteRef":
                guard let t = required(parser, a, "targetGUID", name)?.lowercased() else { return }
                switch parent {
                case "Coding": coding?.noteRefs.append(t)
                case "PlainTextSelection": selection?.noteRefs.append(t)
                case "TextSource": source?.noteRefs.append(t)
                case "Code": if !codeStack.isEmpty { codeStack[codeStack.count - 1].noteRefs.append(t) }
                default: break
                }
            case "Note" where parent == "Notes":
                guard let g = required(parser, a, "guid", name) else { return }
                note = Note(guid: g.lowercased(), name: a["name"], plainTextPath: a["plainTextPath"])
            case "Variable" where parent == "Variables":
                guard let g = required(parser, a, "guid", name), let n = required(parser, a, "name", name) else { return }
                project.variables[g.lowercased()] = Variable(guid: g.lowercased(), name: n, type: a["typeOfVariable"])
            case "Case" where parent == "Cases":
                guard required(parser, a, "guid", name) != nil, let n = required(parser, a, "name", name) else { return }
                refiCase = Case(name: n)
            case "SourceRef" where parent == "Case":
                guard let t = required(parser, a, "targetGUID", name) else { return }
                refiCase?.sources.append(t.lowercased())
            case "Set" where parent == "Sets":
                guard required(parser, a, "guid", name) != nil, let n = required(parser, a, "name", name) else { return }
                set = SourceSet(name: n)
            case "MemberSource" where parent == "Set":
                guard let t = required(parser, a, "targetGUID", name) else { return }
                set?.sources.append(t.lowercased())
            case "VariableValue" where parent == "Case" || parent == "TextSource":
                value = VariableValue(variable: "", text: "", kind: "TextValue")
            case "VariableRef" where parent == "VariableValue":
                guard let t = required(parser, a, "targetGUID", name) else { return }
                value?.variable = t.lowercased()
            case "TextValue", "BooleanValue", "IntegerValue", "FloatValue", "DateValue", "DateTimeValue":
                if parent == "VariableValue" {
                    value?.kind = name
                    text = ""
                }
            case "Description", "PlainTextContent":
                text = ""
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text != nil { text! += string }
        }

        func parser(_ parser: XMLParser, foundCDATA data: Data) {
            if text != nil { text! += String(decoding: data, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            let parent = stack.last
            switch name {
            case "Code" where parent == "Codes" || parent == "Code":
                guard let code = codeStack.popLast() else { return }
                if codeStack.isEmpty { project.codes.append(code) } else { codeStack[codeStack.count - 1].children.append(code) }
            case "TextSource" where parent == "Sources":
                if let s = source { project.sources.append(s) }
                source = nil
            case "PlainTextSelection" where selection != nil:
                if let s = selection { source?.selections.append(s) }
                selection = nil
            case "Coding":
                guard let c = coding else { return }
                coding = nil
                guard !c.codeGUID.isEmpty else { return fail(parser, "<Coding guid=\"\(c.guid)\"> has no <CodeRef>") }
                if parent == "PlainTextSelection" { selection?.codings.append(c) } else { source?.codings.append(c) }
            case "Note" where parent == "Notes":
                if let n = note { project.notes[n.guid] = n }
                note = nil
            case "TextValue", "BooleanValue", "IntegerValue", "FloatValue", "DateValue", "DateTimeValue":
                if parent == "VariableValue", let t = text { value?.text = t.trimmingCharacters(in: .whitespacesAndNewlines) }
                text = nil
            case "VariableValue":
                guard let v = value else { return }
                value = nil
                guard !v.variable.isEmpty else { return }
                if parent == "Case" { refiCase?.values.append(v) } else if parent == "TextSource" { source?.values.append(v) }
            case "Case" where parent == "Cases":
                if let c = refiCase { project.cases.append(c) }
                refiCase = nil
            case "Set" where parent == "Sets":
                if let x = set { project.sets.append(x) }
                set = nil
            case "Description":
                let t = text
                text = nil
                switch parent {
                case "Code": if !codeStack.isEmpty { codeStack[codeStack.count - 1].description = t }
                case "PlainTextSelection": selection?.description = t
                default: break
                }
            case "PlainTextContent":
                let t = text
                text = nil
                if parent == "Note" { note?.text = t } else if parent == "TextSource" { source?.plainTextContent = t }
            default:
                break
            }
        }
    }
}

/// The .qdpx archive: its files by name (read once from the central directory) and their bytes.
public final class REFIArchive {
    /// How much an archive may unpack to: a few hundred kilobytes of ZIP can expand to gigabytes
    /// (a 195 KB project held a 200 MB source). Checked before anything is read or written, and
    /// again while unpacking, as a ZIP's stated sizes may lie.
    public struct Limits: Sendable {
        public var bytes: UInt64 = 100 * 1024 * 1024
        public var files = 10_000
        public init() {}
    }

    let archive: Archive
    let displayPath: String
    let limits: Limits
    /// Lower-cased path → the entry (some tools write `Sources/`, others `sources/`).
    private var entries: [String: ZIPFoundation.Entry] = [:]
    /// Bytes unpacked so far.
    private var unpacked: UInt64 = 0

    init(_ url: URL, displayPath: String, limits: Limits = Limits()) throws {
        self.displayPath = displayPath
        self.limits = limits
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw DaybookError.input("not a ZIP archive (a .qdpx is one): \(error); nothing was imported", at: SourceLocation(path: displayPath))
        }
        var total: UInt64 = 0
        for e in archive where e.type == .file {
            entries[e.path.lowercased()] = e
            total &+= e.uncompressedSize
        }
        if entries.count > limits.files {
            throw DaybookError.input("the archive holds \(entries.count) files, more than the \(limits.files) an import unpacks (--max-files raises it); nothing was imported",
                                     at: SourceLocation(path: displayPath))
        }
        if total > limits.bytes { throw tooLarge(total) }
    }

    private func tooLarge(_ size: UInt64) -> DaybookError {
        DaybookError.input("the archive unpacks to \(size / 1_048_576) MB or more, more than the \(limits.bytes / 1_048_576) MB an import unpacks (--max-unpacked raises it); nothing was imported",
                           at: SourceLocation(path: displayPath))
    }

    /// The archive's path of a file, found whatever its case.
    func file(named name: String) -> String? { entries[name.lowercased()]?.path }

    func data(of path: String) throws -> Data {
        guard let e = entries[path.lowercased()] else { throw DaybookError.input("the archive has no `\(path)`", at: SourceLocation(path: displayPath)) }
        var out = Data()
        var over = false
        do {
            _ = try archive.extract(e, skipCRC32: false) { chunk in
                unpacked &+= UInt64(chunk.count)
                if unpacked > limits.bytes { over = true; throw CocoaError(.fileReadTooLarge) }
                out.append(chunk)
            }
        } catch {
            if over { throw tooLarge(unpacked) }
            throw DaybookError.input("cannot unpack `\(path)` from the archive: \(error); nothing was imported", at: SourceLocation(path: displayPath))
        }
        return out
    }

    /// The bytes an `internal://NAME` path names (under `sources/`), nil when the archive lacks it.
    func internalFile(_ ref: String) throws -> Data? {
        guard ref.hasPrefix("internal://") else { return nil }
        let name = String(ref.dropFirst("internal://".count))
        guard ImportPath.problem(component: name) == nil, let path = file(named: "sources/" + name) else { return nil }
        return try data(of: path)
    }
}
