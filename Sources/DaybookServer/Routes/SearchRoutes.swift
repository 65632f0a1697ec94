// Search as you type: the `grep` of the command line, as fixed text without case, the first matches of each entry.
import DaybookCore
import Foundation
import Hummingbird

struct SearchRoutes {
    let access: DiaryAccess
    static let limit = 50

    func add(to router: Router<DiaryRequestContext>) {
        router.get("api/search") { request, _ -> Response in
            let q = request.uri.queryParameters["q"].map(String.init) ?? ""
            guard !q.trimmingCharacters(in: .whitespaces).isEmpty else { return EntryRoutes.json(.array([])) }
            return try access.with { diary in
                var options = GrepOptions()
                options.fixed = true
                options.ignoreCase = true
                let grep = try Grep(q, options: options)
                var results: [JSONValue] = []
                grep.search(diary, filter: CompiledFilter(), problem: { _ in }) { result in
                    guard results.count < SearchRoutes.limit else { return }
                    let id = result.id
                    let lines = result.lines.prefix(3).map { JSONValue.object([("line", .int($0.number)), ("text", .string($0.text))]) }
                    results.append(.object([("id", .string(id)), ("lines", .array(lines))]))
                }
                return EntryRoutes.json(.array(results))
            }
        }
    }
}
