// The pen: an entry's strokes as JSON, strokes drawn on the page added one line each, and the eraser.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct StrokeRoutes {
    let access: DiaryAccess

    func add(to router: Router<DiaryRequestContext>) {
        router.get("api/entries/:id/strokes") { _, context -> Response in
            let id = try context.parameters.require("id")
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                // Never through a symbolic link (the core's rule): a linked stroke file is refused with 403.
                guard let bytes = try diary.fileBytes(StrokeFile.path(ofEntry: rel)) else {
                    return EntryRoutes.json(.object([("format", .string(StrokeFile.format)), ("version", .int(StrokeFile.version)), ("strokes", .array([]))]))
                }
                return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes.dropLast())))
            }
        }
        // A stroke file document (SPEC §1.4), read by the same parser as `ink add`: NaN, a force
        // out of 0…1 or a point without x and y is refused with its place, and nothing is written.
        router.post("api/entries/:id/strokes") { request, context -> Response in
            let id = try context.parameters.require("id")
            let bytes = try await RequestBody.bytes(request, context: context)
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                do {
                    let outcome = StrokeFileParser(path: "the drawn strokes").parse(bytes: Array(bytes) + [0])
                    guard let incoming = outcome.file else { throw outcome.problems.first ?? DaybookError.input("the strokes cannot be read") }
                    guard !incoming.strokes.isEmpty else { throw DaybookError.input("no strokes were sent") }
                    let entry = try CodingRoutes.entry(rel, in: diary)
                    let change = try Change(diary)
                    try StrokeFile.add(incoming, toEntry: rel, in: change)
                    try change.commit(StrokeFile.additionMessage(incoming.strokes.count, title: entry.title))
                    return EntryRoutes.json(.object([("added", .int(incoming.strokes.count))]), status: .created)
                } catch let e as DaybookError {
                    return Refusal.response(e)
                }
            }
        }
        // The eraser takes whole strokes: /api/entries/ID/strokes/N, N counted from 1 as `ink ls` shows them.
        router.delete("api/entries/:id/strokes/:n") { _, context -> Response in
            let id = try context.parameters.require("id")
            guard let n = Int(try context.parameters.require("n")), n >= 1 else { throw HTTPError(.badRequest, message: "a stroke is named by its number, from 1") }
            return try access.with { diary in
                let rel = try EntryRoutes.resolve(id, in: diary)
                do {
                    let entry = try CodingRoutes.entry(rel, in: diary)
                    let change = try Change(diary)
                    try StrokeFile.remove(strokes: [n - 1], ofEntry: rel, in: change)
                    try change.commit(StrokeFile.removalMessage(1, title: entry.title))
                    return EntryRoutes.json(.object([("removed", .int(1))]))
                } catch let e as DaybookError {
                    return Refusal.response(e)
                }
            }
        }
    }
}
