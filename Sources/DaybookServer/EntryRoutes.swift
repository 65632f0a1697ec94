// The entries as JSON: the list and one entry, for the pages' scripts.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct EntryRoutes {
    let access: DiaryAccess
    let options: ServeOptions

    func add(to router: Router<DiaryRequestContext>) {
        router.get("api/entries") { _, _ -> Response in
            access.with { diary in
                var diagnostics: [Diagnostic] = []
                let entries = diary.loadEntries(diagnostics: &diagnostics, bodies: false)
                return EntryRoutes.json(.array(entries.map { $0.json() }))
            }
        }
        router.get("api/entries/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                let outcome = diary.readEntry(rel)
                guard let entry = outcome.entry else { throw HTTPError(.unprocessableContent, message: outcome.problems.first?.description ?? "the entry cannot be read") }
                return EntryRoutes.json(entry.json(includeBody: true))
            }
        }
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
