// One request at a time works on the diary: the library's Diary is not made for concurrent use.
import DaybookCore
import Foundation

final class DiaryAccess: @unchecked Sendable {
    private let lock = NSLock()
    private let diary: Diary

    init(_ diary: Diary) { self.diary = diary }

    /// Runs `work` with the diary, after any other request's work has finished. Mutations still
    /// take the diary lock (`Change`), so the CLI and an editor can work beside the server.
    func with<T>(_ work: (Diary) throws -> T) rethrows -> T {
        try lock.withLock { try work(diary) }
    }
}
