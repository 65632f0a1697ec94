// Coding from the page: a selection coded as `code add --quote` codes it, a memo changed, a coding removed.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct CodingRoutes {
    let access: DiaryAccess

    func add(to router: Router<DiaryRequestContext>) {
        router.get("api/codebook") { _, _ -> Response in
            try access.with { diary in
                let book = try Codebook.load(diary)
                let view = HTMLEntryView(diary: diary, unsafeHTML: false)
                let codes = book.allCodes.map { name -> JSONValue in
                    .object([("code", .string(name)), ("description", book.code(name)?.description.map(JSONValue.string) ?? .null),
                             ("color", .string(view.codeColor(name)))])
                }
                return EntryRoutes.json(.object([("codes", .array(codes)), ("strict", .bool(diary.config.strictCodebook))]))
            }
        }
        // {code, selected, index, memo}: the selection's text as the page shows it and which of
        // its like it is; or {code, quote, occurrence, memo} with the body's own text.
        router.post("api/entries/:id/codings") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in try CodingRoutes.code(id, body, in: diary) }
        }
        router.patch("api/entries/:id/codings") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in try CodingRoutes.code(id, body, in: diary, memoOnly: true) }
        }
        router.delete("api/entries/:id/codings") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                do {
                    let entry = try CodingRoutes.entry(rel, in: diary)
                    let removal = try CodeRemoval(code: try body.requiredString("code"), quote: try body.string("quote"),
                                                  coder: try body.string("coder"), entry: entry, diary: diary)
                    let change = try Change(diary)
                    try removal.write(entry: rel, in: change)
                    try change.commit("code rm: " + removal.summary(title: entry.title))
                    return EntryRoutes.json(.object([("removed", .int(removal.codings.count))]))
                } catch let e as DaybookError {
                    return Refusal.response(e)
                }
            }
        }
    }

    static func entry(_ rel: String, in diary: Diary) throws -> Entry {
        let outcome = diary.readEntry(rel)
        guard let entry = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("the entry cannot be read") }
        return entry
    }

    static func code(_ id: String, _ body: RequestBody, in diary: Diary, memoOnly: Bool = false) throws -> Response {
        let rel = try EntryRoutes.resolve(id, in: diary)
        do {
            let entry = try entry(rel, in: diary)
            var quote = try body.string("quote")
            var occurrence = try body.int("occurrence")
            if let selected = try body.string("selected") {
                guard let found = RenderedSelection.quote(selected: selected, index: try body.int("index") ?? 1, in: entry.body) else {
                    throw DaybookError.input("the selection was not found in the entry's text; select plain text within one paragraph")
                }
                quote = found.quote
                occurrence = found.occurrence
            }
            let book = try Codebook.load(diary)
            let application = try CodeApplication(code: try body.requiredString("code"), quote: quote, occurrence: occurrence,
                                                  memo: try body.string("memo"), coder: try body.string("coder"),
                                                  entry: entry, diary: diary, codebook: book)
            if memoOnly, application.outcome == .added {
                throw DaybookError.input("the entry has no such coding to change the memo of")
            }
            let change = try Change(diary)
            try application.write(entry: rel, codebook: book, in: change)
            try change.commit(application.commitMessage(title: entry.title))
            return EntryRoutes.json(.object([("coding", application.coding.json),
                                             ("warnings", .array(application.warnings.map { .string($0.message) }))]),
                                    status: application.outcome == .added ? .created : .ok)
        } catch let e as DaybookError {
            return Refusal.response(e)
        }
    }
}
