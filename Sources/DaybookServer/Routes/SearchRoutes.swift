// Search as you type: the `grep` of the command line, as fixed text without case, the newest entries' first matches.
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
            return try access.withLive { live in
                var options = GrepOptions()
                options.fixed = true
                options.ignoreCase = true
                let grep = try Grep(q, options: options)
                var results: [JSONValue] = []
                // The entries the server keeps, newest first, and no further than the page shows:
                // a word in every entry of 100,000 would otherwise read them all at each keystroke.
                grep.searchWhile(try live.diary(), snapshot: try live.entries(), newestFirst: true, filter: CompiledFilter(),
                                 problem: { _ in }, found: { result in
                    let lines = result.lines.prefix(3).map { JSONValue.object([("line", .int($0.number)), ("text", .string($0.text))]) }
                    results.append(.object([("id", .string(result.id)), ("lines", .array(lines))]))
                    return results.count < SearchRoutes.limit
                })
                return EntryRoutes.json(.array(results))
            }
        }
    }
}
