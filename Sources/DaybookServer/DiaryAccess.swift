// One request at a time works on the diary: the library's Diary is not made for concurrent use.
import DaybookCore
import Foundation

final class DiaryAccess: @unchecked Sendable {
    private let lock = NSLock()
    private let live: LiveDiary

    init(_ diary: Diary, environment: [String: String]) { live = LiveDiary(diary, environment: environment) }

    /// Runs `work` with the diary as its settings are now, after any other request's work has
    /// finished. Mutations still take the diary lock (`Change`), so the CLI and an editor can work
    /// beside the server.
    func with<T>(_ work: (Diary) throws -> T) throws -> T {
        try lock.withLock { try work(try live.diary()) }
    }

    /// The same, with what the server keeps between requests: the entries as last walked (walked
    /// again only when something under entries/ changed) and what was worked out from them.
    func withLive<T>(_ work: (LiveDiary) throws -> T) throws -> T {
        try lock.withLock { try work(live) }
    }
}
