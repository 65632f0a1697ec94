// The entries as JSON, and writing them: a new entry, an edit that never overwrites a change made meanwhile.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct EntryRoutes {
    let access: DiaryAccess
    let options: ServeOptions

    func add(to router: Router<DiaryRequestContext>) {
        router.get("api/entries") { _, _ -> Response in
            try access.withLive { live in
                let snapshot = try live.entries()
                return EntryRoutes.json(.array(snapshot.entries(0..<snapshot.count).map { $0.json() }))
            }
        }
        router.get("api/entries/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.with { diary in
                let (_, entry, version) = try EntryRoutes.load(id, in: diary)
                guard case var .object(o) = entry.json(includeBody: true) else { return EntryRoutes.json(.null) }
                o.append(("version", .string(version)))
                return EntryRoutes.json(.object(o))
            }
        }
        router.get("api/entries/:id/version") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                return EntryRoutes.json(.object([("version", .string(try EntryRoutes.version(of: rel, in: diary) ?? ""))]))
            }
        }
        // What the index watches: a new commit or a new entry file shows up here.
        router.get("api/state") { _, _ -> Response in
            try access.withLive { live in
                let head = try live.diary().repository().headID ?? ""
                return EntryRoutes.json(.object([("head", .string(head)), ("entries", .string(try live.changeMark()))]))
            }
        }
        router.post("api/entries") { request, context -> Response in
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in try EntryRoutes.create(body, in: diary) }
        }
        router.put("api/entries/:id/raw") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in try EntryRoutes.saveRaw(id, body, in: diary) }
        }
        router.put("api/entries/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in try EntryRoutes.revise(id, body, in: diary) }
        }
    }

    /// A new entry as `new` makes it: the template's fields checked by its rules, one commit.
    static func create(_ body: RequestBody, in diary: Diary) throws -> Response {
        var answers = try body.answers("fields")
        let templateName = try body.string("template").flatMap { $0.isEmpty ? nil : $0 }
        do {
            let template = try templateName.map { try TemplateLibrary(diary: diary).require($0) }
            // A field the form hid (its `when:` does not hold) is not written, whatever it held.
            if let template { answers = TemplateFill.answersAsked(template, answers: answers) }
            // A "When" that does not read is told at its field, with the template's reasons, all at once.
            let (when, dateProblem) = try EntryRoutes.moment(body, in: diary)
            let unknown = TemplateFill.unknownFields(template, answers: answers)
            var reasons = template.map { TemplateFill.rejections($0, answers: answers) }?.merging(unknown) { known, _ in known } ?? unknown
            if let dateProblem { reasons["date"] = dateProblem.message }
            if reasons.count > (dateProblem == nil ? 0 : 1) {
                return Refusal.response(.usage("some fields do not fit " + (template.map { "the template \($0.name)" } ?? "an entry without a template")), fields: reasons)
            }
            if let dateProblem { return Refusal.response(dateProblem, fields: reasons) }
            let title = try body.string("title")?.trimmingCharacters(in: .whitespaces)
            var draft = EntryDraft(date: when, title: title?.isEmpty == false ? title : nil)
            draft.tags = try body.strings("tags") ?? []
            // A form's answers are what `--set KEY=VALUE` gives on the command line, read by the same rules.
            try draft.setFields(answers.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            _ = try TemplateFill.prepare(templateName, diary: diary, draft: &draft, ask: nil)
            draft.body = try body.string("body") ?? ""
            let rel = try EntryWriter.commitNew(draft, in: diary)
            let id = ((rel as NSString).lastPathComponent as NSString).deletingPathExtension
            return json(.object([("id", .string(id)), ("path", .string(rel))]), status: .created)
        } catch let e as DaybookError {
            // The only "nothing" here is an empty body: nothing saved is a refusal (it answered 200).
            return Refusal.response(e, fields: e.kind == .nothing ? ["body": e.message] : e.message.hasPrefix("field `") ? fieldOf(e) : [:],
                                    nothingSaved: true)
        }
    }

    /// When the new entry is dated: the form's "When" read as `new --date` reads it (now when it is
    /// empty), or the reason it does not read.
    static func moment(_ body: RequestBody, in diary: Diary) throws -> (LocalDateTime, DaybookError?) {
        guard let text = try body.string("date"), !text.trimmingCharacters(in: .whitespaces).isEmpty else { return (diary.clock.nowLocal, nil) }
        do {
            return (try DateExpression.moment(text, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday), nil)
        } catch let e as DaybookError {
            return (diary.clock.nowLocal, e)
        }
    }

    /// An edit from the form: refused with 409 when the file is no longer the version the page
    /// loaded (the page keeps the text typed); else only the keys and body that changed are written.
    static func revise(_ id: String, _ body: RequestBody, in diary: Diary) throws -> Response {
        let rel = try resolve(id, in: diary)
        let loaded = try body.requiredString("version")
        guard let bytes = try diary.fileBytes(rel) else { throw HTTPError(.notFound) }
        let data = Data(bytes.dropLast())
        let current = try Repository.blobID(of: data)
        guard current == loaded else { return try reviseOlder(rel, loaded: loaded, current: data, body, in: diary) }
        do {
            let outcome = diary.readEntry(rel)
            guard let entry = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("the entry cannot be read") }
            let template = try entry.template.map { try TemplateLibrary(diary: diary).require($0) }
            let revision = EntryRevision(title: try body.string("title"), tags: try body.strings("tags"),
                                         fields: try body.answers("fields"), body: try body.string("body"))
            let reasons = revision.rejections(template: template)
            if !reasons.isEmpty { return Refusal.response(.usage("some fields do not fit the template"), fields: reasons) }
            let change = try Change(diary)
            try change.editEntry(rel) { text, entry in try revision.apply(to: &text, entry: entry, template: template) }
            let title = diary.readEntry(rel).entry?.title ?? entry.title
            let commit = try change.commit("edit: \(title)")
            let version = try Self.version(of: rel, in: diary) ?? ""
            return json(.object([("version", .string(version)), ("changed", .bool(commit != nil))]))
        } catch let e as DaybookError {
            return Refusal.response(e)
        }
    }

    /// An edit from a page loaded before the file changed (a command, the editor, sync): made on
    /// the version the page loaded, with what changed since kept as the editor's save keeps it
    /// (`EditMerge`, the core's one rule); refused with 409 and what would be lost when the two
    /// collide, or when the loaded version is not in the history to merge from.
    static func reviseOlder(_ rel: String, loaded: String, current data: Data, _ body: RequestBody, in diary: Diary) throws -> Response {
        let display = diary.displayPath(rel)
        func refuse(_ why: String) throws -> Response {
            json(.object([("error", .string(why)), ("version", .string(try Repository.blobID(of: data)))]), status: .conflict)
        }
        guard let baseData = try? diary.repository().blob(loaded), let baseText = String(validatingUTF8Data: baseData),
              let currentText = String(validatingUTF8Data: data) else {
            return try refuse("the entry changed on disk since the page loaded it; nothing was overwritten")
        }
        do {
            var text = try EntryText(baseText, path: display)
            guard let entry = diary.parser.parse(text, relativePath: rel, displayPath: display).entry else {
                return try refuse("the entry changed on disk since the page loaded it; nothing was overwritten")
            }
            let template = try entry.template.map { try TemplateLibrary(diary: diary).require($0) }
            let revision = EntryRevision(title: try body.string("title"), tags: try body.strings("tags"),
                                         fields: try body.answers("fields"), body: try body.string("body"))
            let reasons = revision.rejections(template: template)
            if !reasons.isEmpty { return Refusal.response(.usage("some fields do not fit the template"), fields: reasons) }
            try revision.apply(to: &text, entry: entry, template: template)
            let merged: (text: String, kept: [String])
            do { merged = try EditMerge.keep(currentText, base: baseText, edited: text.text, path: display) } catch let e as DaybookError {
                return try refuse(e.message + "; nothing was overwritten")
            }
            let change = try Change(diary)
            try change.rewrite(rel, expected: data, with: Data(merged.text.utf8))
            let title = diary.readEntry(rel).entry?.title ?? entry.title
            let commit = try change.commit("edit: \(title)")
            let version = try Self.version(of: rel, in: diary) ?? ""
            return json(.object([("version", .string(version)), ("changed", .bool(commit != nil)),
                                 ("kept", .array(merged.kept.map { .string($0) }))]))
        } catch let e as DaybookError {
            return Refusal.response(e)
        }
    }

    /// The raw text of an entry file, from the page of an entry that does not read: written as
    /// typed (with a final newline), even when it still does not read, so no word typed is lost,
    /// in one commit; refused with 409 when the file changed since the page loaded it. The answer
    /// has the new version and the problems the file still has.
    static func saveRaw(_ id: String, _ body: RequestBody, in diary: Diary) throws -> Response {
        let rel = try resolve(id, in: diary)
        let loaded = try body.requiredString("version")
        var text = try body.requiredString("text")
        if !text.hasSuffix("\n") { text += "\n" }
        guard let bytes = try diary.fileBytes(rel) else { throw HTTPError(.notFound) }
        let data = Data(bytes.dropLast())
        let current = try Repository.blobID(of: data)
        guard current == loaded else {
            return json(.object([("error", .string("the file changed on disk since the page loaded it; nothing was overwritten")),
                                 ("version", .string(current))]), status: .conflict)
        }
        do {
            let change = try Change(diary)
            try change.rewrite(rel, expected: data, with: Data(text.utf8))
            let outcome = diary.readEntry(rel)
            try change.commit("edit: \(outcome.entry?.title ?? ((rel as NSString).lastPathComponent as NSString).deletingPathExtension)")
            return json(.object([("version", .string(try version(of: rel, in: diary) ?? "")),
                                 ("problems", .array(outcome.problems.map { .string($0.description) }))]))
        } catch let e as DaybookError {
            return Refusal.response(e)
        }
    }

    static func fieldOf(_ e: DaybookError) -> [String: String] {
        let m = e.message
        guard let start = m.range(of: "field `"), let end = m[start.upperBound...].firstIndex(of: "`") else { return [:] }
        return [String(m[start.upperBound..<end]): m]
    }

    /// The entry, its relative path, and its version (the git blob id of its bytes).
    static func load(_ id: String, in diary: Diary) throws -> (rel: String, entry: Entry, version: String) {
        let rel = try resolve(id, in: diary)
        let outcome = diary.readEntry(rel)
        guard let entry = outcome.entry else {
            if let link = outcome.problems.first(where: RequestGuard<DiaryRequestContext>.isLinkRefusal) { throw link }
            throw HTTPError(.unprocessableContent, message: outcome.problems.first?.description ?? "the entry cannot be read")
        }
        return (rel, entry, try version(of: rel, in: diary) ?? "")
    }

    static func version(of rel: String, in diary: Diary) throws -> String? {
        try diary.fileBytes(rel).map { try Repository.blobID(of: Data($0.dropLast())) }
    }

    /// An entry named by its id or an id prefix only: never a path, so a request cannot reach a
    /// file outside `entries/`.
    static func resolve(_ id: String, in diary: Diary) throws -> String {
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw HTTPError(.badRequest, message: "an entry is named by its id")
        }
        do { return try EntryReference(diary).resolve(id) } catch let e as DaybookError {
            throw HTTPError(.notFound, message: e.message)
        }
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized() + "\n")))
    }
}
