// `daybook lsp`: the Language Server Protocol (3.17) over stdio, every answer from the library.
import DaybookCore
import Foundation

/// Reads framed JSON-RPC messages, answers each, and ends when the client says `exit` or goes
/// away. One message at a time: the library's Diary is not made for concurrent use, and a
/// keystroke's check takes milliseconds.
public final class LanguageServer {
    private let reader: FrameReader
    private let writer: FrameWriter
    private let environment: [String: String]
    private let decoder = JSONDecoder()
    private let encoder = JSONEncoder()

    private var initialized = false
    private var shuttingDown = false
    private var exitRequested = false
    private var documents: [String: Document] = [:]
    private var contexts: [String: DiaryContext] = [:]
    private var nextRequest = 1
    /// Documents changed since their diagnostics were last published, by URI: published once no
    /// whole message waits, whatever the messages between were (a hover, a completion).
    private var unpublished: [String] = []

    public init(input: Int32 = 0, output: Int32 = 1, environment: [String: String] = ProcessInfo.processInfo.environment) {
        reader = FrameReader(fd: input)
        writer = FrameWriter(fd: output)
        self.environment = environment
        encoder.outputFormatting = [.withoutEscapingSlashes]
    }

    /// Serves until `exit` (status 0 after `shutdown`, else 1, as LSP says), the end of the input
    /// or a stream that cannot be read on (status 1).
    public func run() -> Int32 {
        // A client that closes its end mid-write must not kill the server with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        UntilExit.isEnabled = false
        while writer.isOpen {
            switch reader.next() {
            case .end:
                return shuttingDown ? 0 : 1
            case let .malformed(why):
                log("daybook lsp: a malformed message (\(why)); stopping")
                send(Response<NoResult>(id: nil, error: .parse("malformed message: \(why)")))
                return 1
            case let .message(data):
                noticeDiskChanges()
                handle(data)
                if exitRequested { return shuttingDown ? 0 : 1 }
                // Keystrokes that came in together are checked once, after the last; but every
                // document changed gets its diagnostics, for its last version.
                if !reader.hasWholeFrame { publishChanged() }
            }
        }
        return 1
    }

    // MARK: Dispatch

    private func handle(_ data: Data) {
        // JSON that is not a request (a batch, an id of 1.5 or null) is an invalid request
        // (-32600), answered with a null id; only text that is not JSON is a parse error (-32700).
        do {
            let shape = try decoder.decode(IncomingShape.self, from: data)
            guard shape.idIsValid else {
                send(Response<NoResult>(id: nil, error: .invalidRequest("`id` must be an integer or a string")))
                return
            }
        } catch DecodingError.typeMismatch {
            send(Response<NoResult>(id: nil, error: .invalidRequest("a message must be one JSON object (LSP has no batches)")))
            return
        } catch {
            send(Response<NoResult>(id: nil, error: .parse("the message is not JSON: \(Self.short(error))")))
            return
        }
        let head: IncomingHead
        do { head = try decoder.decode(IncomingHead.self, from: data) } catch {
            send(Response<NoResult>(id: nil, error: .invalidRequest("the message is not JSON-RPC: \(Self.short(error))")))
            return
        }
        guard let method = head.method else {
            // A response to a request of ours (workspace/applyEdit): nothing waits for it.
            if head.id != nil, head.result != nil || head.error != nil { return }
            send(Response<NoResult>(id: head.id, error: .invalidRequest("a message needs a `method`")))
            return
        }
        guard let id = head.id else {
            notification(method, data)
            return
        }
        do {
            if !initialized && method != "initialize" { throw ResponseError.serverNotInitialized() }
            if initialized && method == "initialize" { throw ResponseError.invalidRequest("the server is initialized already") }
            if shuttingDown { throw ResponseError.invalidRequestAfterShutdown() }
            let result = try request(method, data)
            send(Response(id: id, result: AnyEncodable(result)))
        } catch let e as ResponseError {
            send(Response<NoResult>(id: id, error: e))
        } catch let e as DaybookError {
            send(Response<NoResult>(id: id, error: .requestFailed(e.description)))
        } catch {
            send(Response<NoResult>(id: id, error: .requestFailed("\(error)")))
        }
    }

    private func request(_ method: String, _ data: Data) throws -> any Encodable {
        switch method {
        case "initialize":
            initialized = true
            let client = try? decoder.decode(IncomingParams<InitializeParams>.self, from: data).params
            return Capabilities.initializeResult(prepareRename: client?.capabilities?.textDocument?.rename?.prepareSupport == true)
        case "shutdown":
            shuttingDown = true
            return NoResult()
        case "textDocument/completion":
            let p = try params(TextDocumentPositionParams.self, data)
            guard let doc = document(p.textDocument) else { return CompletionList(items: []) }
            return LinkFeatures.completion(doc, at: p.position) ?? CompletionList(items: Completion.items(doc, at: p.position))
        case "textDocument/codeAction":
            let p = try params(CodeActionParams.self, data)
            return document(p.textDocument).map { CodeActions.actions($0, params: p) } ?? []
        case "workspace/executeCommand":
            let p = try params(ExecuteCommandParams.self, data)
            return try execute(p)
        case "textDocument/hover":
            let p = try params(TextDocumentPositionParams.self, data)
            return AnyEncodable(document(p.textDocument).flatMap { LinkFeatures.hover($0, at: p.position) ?? HoverInfo.hover($0, at: p.position) })
        case "textDocument/definition":
            let p = try params(TextDocumentPositionParams.self, data)
            return AnyEncodable(document(p.textDocument).flatMap { LinkFeatures.definition($0, at: p.position) ?? Navigation.definition($0, at: p.position) })
        case "textDocument/rename":
            let p = try params(RenameParams.self, data)
            guard let doc = document(p.textDocument) else { throw ResponseError.invalidParams("\(p.textDocument.uri) is not open") }
            return try rename(doc, at: p.position, to: p.newName)
        case "textDocument/prepareRename":
            let p = try params(TextDocumentPositionParams.self, data)
            guard let doc = document(p.textDocument) else { throw ResponseError.invalidParams("\(p.textDocument.uri) is not open") }
            return try prepareRename(doc, at: p.position)
        case "textDocument/references":
            let p = try params(ReferenceParams.self, data)
            return document(p.textDocument).map { LinkFeatures.references($0, at: p.position) } ?? []
        case "textDocument/documentLink":
            let p = try params(TextDocumentParams.self, data)
            return document(p.textDocument).map { LinkFeatures.documentLinks($0) } ?? []
        case "textDocument/documentSymbol":
            let p = try params(TextDocumentParams.self, data)
            return document(p.textDocument).map { LinkFeatures.symbols($0) } ?? []
        case "workspace/symbol":
            let p = try params(WorkspaceSymbolParams.self, data)
            return Navigation.symbols(matching: p.query, in: Array(contexts.values))
        case "textDocument/inlayHint":
            let p = try params(TextDocumentRangeParams.self, data)
            return document(p.textDocument).map { CodedSegments.inlayHints($0, in: p.range) } ?? []
        case "textDocument/documentHighlight":
            let p = try params(TextDocumentPositionParams.self, data)
            return document(p.textDocument).map { CodedSegments.highlights($0, at: p.position) } ?? []
        case "textDocument/documentColor":
            let p = try params(TextDocumentParams.self, data)
            return document(p.textDocument).map { CodedSegments.colors($0) } ?? []
        case "textDocument/colorPresentation":
            let p = try params(ColorPresentationParams.self, data)
            return [ColorPresentation(label: CodedSegments.hex(p.color))]
        default:
            throw ResponseError.methodNotFound(method)
        }
    }

    private func notification(_ method: String, _ data: Data) {
        if method == "exit" { exitRequested = true; return }
        guard initialized, !shuttingDown else { return }
        // A notification has no answer: params that do not decode are dropped with a log line.
        do {
            switch method {
            case "textDocument/didOpen":
                let p = try params(DidOpenParams.self, data).textDocument
                let doc = Document(uri: p.uri, version: p.version, text: p.text, place: place(of: p.uri))
                documents[p.uri] = doc
                if let (context, rel) = doc.place {
                    // The file as the buffer was made from it, and the version committed then.
                    let path = context.diary.url(rel).path
                    doc.diskStamp = FileStamp.of(path)
                    doc.diskText = context.diary.regularFileContents(rel).flatMap { String(validatingUTF8Data: $0) }
                    doc.base = doc.diskText.map { EditBase(text: $0, version: context.diary.committedVersion(of: rel)?.version ?? "") }
                }
                if doc.place == nil, let path = Document.path(ofURI: p.uri), path.hasSuffix(".md") {
                    log("daybook lsp: \(path) is not an entry of a diary; nothing to check")
                }
                publish(doc)
            case "textDocument/didChange":
                let p = try params(DidChangeParams.self, data)
                guard let doc = documents[p.textDocument.uri] else { return }
                for change in p.contentChanges { doc.apply(change) }
                doc.version = p.textDocument.version
                if doc.diskText == doc.text { doc.diskChanges = [] }
                if !unpublished.contains(doc.uri) { unpublished.append(doc.uri) }
            case "textDocument/didSave":
                let p = try params(DidSaveParams.self, data)
                guard let doc = documents[p.textDocument.uri] else { return }
                save(doc)
            case "textDocument/didClose":
                let p = try params(DidCloseParams.self, data)
                unpublished.removeAll { $0 == p.textDocument.uri }
                if let doc = documents.removeValue(forKey: p.textDocument.uri) {
                    send(OutgoingNotification(method: "textDocument/publishDiagnostics", params: PublishDiagnosticsParams(uri: doc.uri, diagnostics: [])))
                }
            default:
                break // `initialized`, `$/cancelRequest`, `$/setTrace`, settings: nothing to do
            }
        } catch {
            log("daybook lsp: \(method): \(Self.short(error))")
        }
    }

    // MARK: Documents and diaries

    private func document(_ id: TextDocumentIdentifier) -> Document? { documents[id.uri] }

    /// The diary an entry file belongs to, found from the file's own folder as SPEC §2 finds it
    /// from the working folder (without `--diary` or `DAYBOOK_DIR`: the file says where it is).
    private func place(of uri: String) -> (DiaryContext, String)? {
        guard let path = Document.path(ofURI: uri) else { return nil }
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        var dir = file.deletingLastPathComponent()
        while !Diary.exists(at: dir) {
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
        let root = dir.resolvingSymlinksInPath()
        guard file.path.hasPrefix(root.path + "/") else { return nil }
        let rel = String(file.path.dropFirst(root.path.count + 1))
        guard Diary.isEntryPath(rel) else { return nil }
        if let context = contexts[root.path] { return (context, rel) }
        do {
            let diary = try Diary.open(root, environment: environment, workingDirectory: root)
            let context = DiaryContext(diary: diary, environment: environment)
            contexts[root.path] = context
            return (context, rel)
        } catch {
            showMessage("daybook: \(Self.short(error))", type: 1)
            return nil
        }
    }

    /// Publishes the diagnostics of every document changed since they were last published.
    private func publishChanged() {
        let uris = unpublished
        unpublished = []
        for uri in uris { if let doc = documents[uri] { publish(doc) } }
    }

    /// Tells the editor when an open entry's file changed on disk under its buffer (a command,
    /// the web app, sync), once per change: a message, a diagnostic, a code action that takes it.
    /// Looked at before each message (a stat per open entry): the server reads nothing else meanwhile.
    private func noticeDiskChanges() {
        for doc in documents.values {
            guard let (context, rel) = doc.place else { continue }
            let stamp = FileStamp.of(context.diary.url(rel).path)
            guard stamp != doc.diskStamp else { continue }
            doc.diskStamp = stamp
            let text = context.diary.regularFileContents(rel).flatMap { String(validatingUTF8Data: $0) }
            guard text != doc.diskText else { continue }
            doc.diskText = text
            guard let text, text != doc.text, let base = doc.base, text != base.text else {
                if text == doc.text && !doc.diskChanges.isEmpty { doc.diskChanges = []; publish(doc) }
                continue
            }
            doc.diskChanges = EditMerge.changes(from: base.text, to: text)
            showMessage("daybook: \(rel): " + Diagnostics.diskNotice(doc.diskChanges), type: 2)
            publish(doc)
        }
    }

    private func publish(_ doc: Document) {
        unpublished.removeAll { $0 == doc.uri }
        guard let (context, _) = doc.place else { return }
        send(OutgoingNotification(method: "textDocument/publishDiagnostics",
                                  params: PublishDiagnosticsParams(uri: doc.uri, version: doc.version, diagnostics: Diagnostics.of(doc))))
        context.warm()
    }

    /// Commits a saved entry as `daybook edit` does, unless daybook.yml says not to.
    private func save(_ doc: Document) {
        guard let (context, rel) = doc.place else { return }
        defer {
            for other in documents.values where other.place?.context === context { other.forget() }
            publish(doc)
        }
        // LiveDiary reads daybook.yml again when it changed, so the setting holds from the next save.
        let diary = context.diary
        let commit = diary.config.lspCommitOnSave
        do {
            // The core's rule (as the web app's): what was committed since the buffer was opened
            // and the save does not hold is merged back in, or nothing is committed.
            let saved = try diary.commitSave(of: rel, base: doc.base, commit: commit)
            if let c = saved.commit { log("daybook lsp: committed \(c.prefix(7)) edit: \(saved.entry.title)") }
            doc.diskStamp = FileStamp.of(diary.url(rel).path)
            if let written = saved.written {
                doc.diskText = written
                // The buffer follows the file, which now holds both changes.
                if let e = TextDiff.edit(from: TextLines(doc.text), to: written) {
                    applyEdit(WorkspaceEdit(changes: [doc.uri: [e]]), label: "Keep the change made on disk")
                }
                showMessage("daybook: \(rel): kept the change committed since the entry was opened (\(saved.kept.joined(separator: ", "))): "
                            + "the file and the commit hold it and yours", type: 3)
            } else {
                doc.diskText = diary.regularFileContents(rel).flatMap { String(validatingUTF8Data: $0) }
            }
            doc.diskChanges = []
            if commit { doc.base = diary.committedVersion(of: rel) ?? doc.base }
        } catch {
            showMessage("daybook: not committed: \(Self.short(error))", type: commit ? 1 : 2)
        }
    }

    // MARK: Commands

    private func execute(_ p: ExecuteCommandParams) throws -> any Encodable {
        let args = p.arguments ?? []
        switch p.command {
        case Capabilities.codeAs:
            // [uri, range, code]: the "Code as…" of an editor that asks for the code itself.
            guard args.count >= 3, case let .string(uri) = args[0], case let .string(code) = args[2],
                  let range = try? JSONDecoder().decode(LSPRange.self, from: JSONEncoder().encode(args[1])) else {
                throw ResponseError.invalidParams("daybook.codeAs takes [uri, range, code]")
            }
            guard let doc = documents[uri] else { throw ResponseError.invalidParams("\(uri) is not open") }
            let coding = try CodeActions.codeAs(code, doc: doc, range: range)
            applyEdit(coding.edit, label: "Code as \(code)")
            if coding.addsCode { try define(code, in: doc) }
            return NoResult()
        case Capabilities.defineCode:
            guard args.count >= 2, case let .string(uri) = args[0], case let .string(code) = args[1] else {
                throw ResponseError.invalidParams("daybook.defineCode takes [uri, code]")
            }
            guard let doc = documents[uri] else { throw ResponseError.invalidParams("\(uri) is not open") }
            try define(code, in: doc)
            return NoResult()
        default:
            throw ResponseError.invalidParams("no command \(p.command)")
        }
    }

    /// Defines a code as `daybook code define` does (one commit), then checks the open entries again.
    private func define(_ code: String, in doc: Document) throws {
        guard let (context, _) = doc.place else { throw ResponseError.invalidParams("not an entry of a diary") }
        do { try context.diary.defineCode(try CodeApplication.codeName(code)) } catch let e as DaybookError where e.kind == .nothing {}
        for other in documents.values where other.place?.context === context {
            other.forget()
            publish(other)
        }
    }

    /// What a rename at the position would rename, before the editor asks for the new name: the
    /// tag or code word under the cursor (or the coded passage, with its code as the name to edit).
    /// Elsewhere an error, so the editor says at once that nothing there can be renamed.
    private func prepareRename(_ doc: Document, at p: Position) throws -> PrepareRenameResult {
        guard let a = doc.analysis, let at = EntryPlace(a, p) else {
            throw ResponseError.requestFailed("rename works on a tag or a code of an entry")
        }
        if HoverInfo.tag(a, at) != nil || (at.inFrontMatter && HoverInfo.code(doc, at: p) != nil) {
            let r = HoverInfo.wordRange(a, at)
            return PrepareRenameResult(range: a.lines.range(r), placeholder: String(a.lines.text[r]))
        }
        let i = a.lines.index(of: p)
        if let s = CodedSegments.segments(doc).first(where: { $0.range.contains(i) }) {
            return PrepareRenameResult(range: a.lines.range(s.range), placeholder: s.coding.code)
        }
        throw ResponseError.requestFailed("rename works on a tag or a code (put the cursor on one)")
    }

    /// Renames the tag or the code at the position across the diary, as `tag rename` and `code
    /// rename` do (the same core functions, one commit); the answer changes the open buffers the
    /// same way, so they follow the files.
    private func rename(_ doc: Document, at p: Position, to newName: String) throws -> WorkspaceEdit {
        guard let a = doc.analysis, let (context, _) = doc.place, let at = EntryPlace(a, p) else {
            throw ResponseError.requestFailed("rename works on a tag or a code of an entry")
        }
        let diary = context.diary
        let editText: (inout EntryText) -> Void
        let summary: String
        if let code = HoverInfo.code(doc, at: p) {
            let new = try CodeApplication.codeName(newName)
            summary = try CodeRenaming.rename(code, to: new, in: diary).summary
            editText = { CodeRenaming.recode(&$0) { $0 == code ? new : nil } }
        } else if let tag = HoverInfo.tag(a, at) {
            let new = Tag.normalize(newName.hasPrefix("#") ? String(newName.dropFirst()) : newName)
            guard Tag.isValid(new) else { throw ResponseError.requestFailed("`\(newName)` is not a tag: use letters, digits, _, - and /") }
            var diags: [DaybookCore.Diagnostic] = []
            let entries = TagRenaming.entries(with: tag, in: diary, diagnostics: &diags)
            summary = try TagRenaming.rename(tag, to: new, entries: entries, in: diary)
            editText = { TagRenaming.edit(&$0, tag, to: new) }
        } else {
            throw ResponseError.requestFailed("rename works on a tag or a code (put the cursor on one)")
        }
        var changes: [String: [TextEdit]] = [:]
        for other in documents.values where other.place?.context === context {
            guard let rel = other.place?.rel, var text = try? EntryText(other.text, path: rel) else { continue }
            editText(&text)
            if let e = TextDiff.edit(from: TextLines(other.text), to: text.text) { changes[other.uri] = [e] }
            // The files changed by this server's own commit: no notice of a change on disk.
            other.diskStamp = FileStamp.of(diary.url(rel).path)
            other.diskText = diary.regularFileContents(rel).flatMap { String(validatingUTF8Data: $0) }
            if other.diskText == text.text { other.base = diary.committedVersion(of: rel) ?? other.base }
            other.forget()
            if !unpublished.contains(other.uri) { unpublished.append(other.uri) }
        }
        showMessage("daybook: renamed \(summary)", type: 3)
        return WorkspaceEdit(changes: changes)
    }

    private func applyEdit(_ edit: WorkspaceEdit, label: String) {
        send(OutgoingRequest(id: .int(nextRequest), method: "workspace/applyEdit", params: ApplyWorkspaceEditParams(label: label, edit: edit)))
        nextRequest += 1
    }

    // MARK: Output

    private func params<P: Decodable>(_ type: P.Type, _ data: Data) throws -> P {
        do { return try decoder.decode(IncomingParams<P>.self, from: data).params } catch {
            throw ResponseError.invalidParams("params: \(Self.short(error))")
        }
    }

    private func send<M: Encodable>(_ message: M) {
        guard let data = try? encoder.encode(message) else { return }
        writer.write(data)
    }

    private func showMessage(_ text: String, type: Int) {
        send(OutgoingNotification(method: "window/showMessage", params: JSONValue.object([("type", .int(type)), ("message", .string(text))])))
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func short(_ error: Error) -> String {
        let s = (error as? DaybookError)?.description ?? "\(error)"
        return s.count > 300 ? String(s.prefix(300)) + "…" : s
    }
}

/// Any answer, encoded as itself (`null` for nil).
struct AnyEncodable: Encodable {
    let value: (any Encodable)?
    init(_ value: (any Encodable)?) { self.value = value }

    func encode(to encoder: Encoder) throws {
        if let value { try value.encode(to: encoder) } else {
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        }
    }
}
