// The pages: the index, an entry, the forms to write, and an entry's attachments.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct PageRoutes {
    let access: DiaryAccess
    let options: ServeOptions

    func add(to router: Router<DiaryRequestContext>) {
        router.get("/") { request, _ -> Response in
            let query = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
            return try access.withLive { live in
                let diary = try live.diary()
                let page = IndexPage(diary: diary, snapshot: try live.entries(), view: HTMLEntryView(diary: diary, unsafeHTML: options.unsafeHTML), query: query)
                // The state the page was made from (as /api/state answers it), so that a change
                // made before the page's first look at the state is seen too.
                let state = (try diary.repository().headID ?? "") + " " + (try live.changeMark())
                return PageRoutes.html(AppLayout.page(title: "Entries", diaryName: PageRoutes.name(diary), data: ["page": "index", "state": state], try page.html()))
            }
        }
        router.get("entries/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.withLive { live in
                let diary = try live.diary()
                if let page = try PageRoutes.unreadable(id, in: diary) { return page }
                let (_, entry, version) = try EntryRoutes.load(id, in: diary)
                let counts = try live.counts("codings per code", parts: .codings) { $0.codings.map(\.code) }
                let view = HTMLEntryView(diary: diary, unsafeHTML: options.unsafeHTML, links: try live.entryLinks())
                let page = EntryPage(diary: diary, view: view, entry: entry, version: version,
                                     codingCounts: counts)
                return PageRoutes.html(AppLayout.page(title: entry.title, diaryName: PageRoutes.name(diary), data: page.data.merging(["page": "entry"]) { $1 }, page.html()))
            }
        }
        router.get("entries/:id/edit") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.with { diary in
                if let page = try PageRoutes.unreadable(id, in: diary) { return page }
                let (_, entry, version) = try EntryRoutes.load(id, in: diary)
                let template = try entry.template.map { try TemplateLibrary(diary: diary).require($0) }
                let page = EntryFormPage(diary: diary, entry: entry, version: version, template: template, startingBody: "")
                return PageRoutes.html(AppLayout.page(title: "Edit " + entry.title, diaryName: PageRoutes.name(diary),
                                                      data: ["page": "edit", "entry": entry.id, "version": version], page.html()))
            }
        }
        router.get("new") { request, _ -> Response in
            let name = request.uri.queryParameters["template"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            return try access.with { diary in
                let template = try name.map { try TemplateLibrary(diary: diary).require($0) }
                let body = try template.map { try TemplateFill.text(of: $0, for: EntryDraft(date: diary.clock.nowLocal, title: nil), in: diary) }
                let page = EntryFormPage(diary: diary, entry: nil, version: nil, template: template, startingBody: body ?? template?.body ?? "")
                return PageRoutes.html(AppLayout.page(title: "New entry", diaryName: PageRoutes.name(diary),
                                                      data: ["page": "new", "template": template?.name ?? ""], page.html()))
            }
        }
        router.get("entries/:id/:file") { _, context -> Response in
            let id = try context.parameters.require("id"), file = try context.parameters.require("file")
            return try access.with { diary in try PageRoutes.attachment(id, file, in: diary) }
        }
    }

    /// An attachment: a plain file name in the entry's attachment folder, never through a link
    /// (refused with 403 by the core's rule, `Diary.fileBytes`). Images are
    /// shown; anything else is offered as a download, so no file of the diary runs as a page here.
    static func attachment(_ id: String, _ name: String, in diary: Diary) throws -> Response {
        guard !name.hasPrefix("."), !name.contains("/"), !name.contains("\\"), !name.contains("\0") else { throw HTTPError(.notFound) }
        let rel = try EntryRoutes.resolve(id, in: diary)
        guard let bytes = try diary.fileBytes(Attachments.folder(ofEntry: rel) + "/" + name) else { throw HTTPError(.notFound) }
        let data = bytes.dropLast()
        let ext = (name as NSString).pathExtension.lowercased()
        let images = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"]
        var headers: HTTPFields = [.contentType: images[ext] ?? "application/octet-stream"]
        if images[ext] == nil { headers[.contentDisposition] = "attachment" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The page of an entry file that does not read: its problems and its raw text to fix (it
    /// opened as a JSON 422 before); nil when it reads. A link is refused as everywhere (403).
    static func unreadable(_ id: String, in diary: Diary) throws -> Response? {
        let rel = try EntryRoutes.resolve(id, in: diary)
        let outcome = diary.readEntry(rel)
        guard outcome.entry == nil else { return nil }
        if let link = outcome.problems.first(where: RequestGuard<DiaryRequestContext>.isLinkRefusal) { throw link }
        guard let bytes = try diary.fileBytes(rel) else { throw HTTPError(.notFound) }
        let data = Data(bytes.dropLast())
        let name = ((rel as NSString).lastPathComponent as NSString).deletingPathExtension
        let page = UnreadableEntryPage(id: name, problems: outcome.problems, text: String(validatingUTF8Data: data))
        return html(AppLayout.page(title: name, diaryName: PageRoutes.name(diary),
                                   data: ["page": "raw", "entry": name, "version": try Repository.blobID(of: data)], page.html()))
    }

    static func name(_ diary: Diary) -> String { diary.config.name ?? "Diary" }

    static func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
