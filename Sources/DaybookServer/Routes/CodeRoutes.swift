// A code's page and its CSV, and changing a code from it: rename, merge, move, describe, recolour (the CLI's core functions).
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct CodeRoutes {
    let access: DiaryAccess

    func add(to router: Router<DiaryRequestContext>) {
        router.get("codes/:code") { request, context -> Response in
            let code = try context.parameters.require("code")
            var query: [String: String] = [:]
            for (k, v) in request.uri.queryParameters where ["coder", "from", "to"].contains(String(k)) && !v.isEmpty { query[String(k)] = String(v) }
            let csv = request.uri.queryParameters["format"] == "csv"
            return try access.withLive { live in
                let diary = try live.diary()
                let book = try Codebook.load(diary)
                let codes = book.contains(code) ? book.descendants(of: code).union([code]) : [code]
                var filter = EntryFilter()
                filter.codes = [code]
                filter.from = query["from"]
                filter.to = query["to"]
                let snapshot = try live.entries()
                let compiled = try filter.compile(clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday, expandCode: { _ in codes })
                var entries = snapshot.entries(try compiled.positions(snapshot), parts: .all)
                // The context around each quote needs the bodies, which the snapshot does not keep.
                for i in entries.indices { entries[i].body = (try? diary.entryBody(entries[i].path)) ?? "" }
                let everyone = CodeHighlights.of(codes, in: entries, defaultCoder: diary.coderOfUnnamedCodings)
                let shown = query["coder"].map { c in everyone.filter { $0.coder == c } } ?? everyone
                if csv {
                    return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                           .contentDisposition: "attachment; filename=\"\(code.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }).csv\""],
                                    body: ResponseBody(byteBuffer: ByteBuffer(string: CodeHighlights.csv(shown))))
                }
                let view = HTMLEntryView(diary: diary, unsafeHTML: false)
                let page = CodePage(code: code, book: book, color: view.codeColor(code), highlights: shown,
                                    coders: Array(Set(everyone.compactMap(\.coder))).sorted(), query: query)
                return PageRoutes.html(AppLayout.page(title: code, diaryName: PageRoutes.name(diary), data: ["page": "code", "code": code], page.html()))
            }
        }
        // {to} | {into} | {parent} | {description} | {color}: one commit each, as the CLI makes it.
        router.post("api/codes/:code/:action") { request, context -> Response in
            let code = try context.parameters.require("code"), action = try context.parameters.require("action")
            let body = try await RequestBody.read(request, context: context)
            return try access.with { diary in
                do {
                    switch action {
                    case "rename":
                        let to = try body.requiredString("to").trimmingCharacters(in: .whitespaces)
                        _ = try CodeRenaming.rename(code, to: to, in: diary)
                        return EntryRoutes.json(.object([("code", .string(to))]))
                    case "merge":
                        let into = try body.requiredString("into").trimmingCharacters(in: .whitespaces)
                        _ = try CodeRenaming.merge([code], into: into, in: diary)
                        return EntryRoutes.json(.object([("code", .string(into))]))
                    // `code define`'s function: what is not given stays as it is (the category too).
                    case "move":
                        let parent = try body.requiredString("parent").trimmingCharacters(in: .whitespaces)
                        guard !parent.isEmpty else { throw DaybookError.usage("name the code to move `\(code)` under") }
                        try diary.defineCode(code, parent: parent)
                    case "describe":
                        try diary.defineCode(code, description: try body.requiredString("description"))
                    case "recolour":
                        try diary.defineCode(code, color: try body.requiredString("color"))
                    default:
                        throw HTTPError(.notFound)
                    }
                    return EntryRoutes.json(.object([("code", .string(code))]))
                } catch let e as DaybookError {
                    return Refusal.response(e)
                }
            }
        }
    }
}
