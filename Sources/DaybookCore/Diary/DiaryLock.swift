// The diary lock: one mutating command at a time, released by the kernel if the holder dies.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public final class DiaryLock {
    private let fd: Int32

    /// The time span in which a daybook that was killed held the lock: from when it took the lock
    /// to when the next one (this process) did. Its process id was still in the lock file (a
    /// command that ends releases the lock and empties the file) and the process is gone. Git
    /// lock files made in that span, that no process holds, are its leftovers (StaleGitLocks).
    public struct KilledHolder: Sendable, Equatable {
        public var pid: Int32
        public var since: Date
        public var until: Date
    }

    /// The killed holder this lock took over from, or one an earlier lock of this process did (the
    /// lock is taken and given back several times by one `check --fix`).
    public var killedHolder: KilledHolder? { taken ?? DiaryLock.inherited[path] }
    private var taken: KilledHolder?
    private let path: String
    nonisolated(unsafe) private static var inherited: [String: KilledHolder] = [:]
    private static let inheritedLock = NSLock()

    /// Waits up to `timeout` seconds for `.daybook/lock`, then fails naming the holder's process id.
    public init(stateFolder: URL, timeout: TimeInterval = 10) throws {
        try AtomicFile.makeDirectory(stateFolder)
        let path = stateFolder.appendingPathComponent("lock").path
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DaybookError.io("cannot open the lock: \(String(cString: strerror(errno)))", at: SourceLocation(path: path))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline {
                let holder = (try? String(contentsOfFile: path, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                close(fd)
                throw DaybookError.io("the diary is locked by process \(holder.isEmpty ? "?" : holder) (waited \(Int(timeout)) s)",
                                      at: SourceLocation(path: path))
            }
            usleep(20_000)
        }
        if let killed = DiaryLock.killedHolder(fd: fd) {
            taken = killed
            DiaryLock.inheritedLock.lock()
            DiaryLock.inherited[path] = killed
            DiaryLock.inheritedLock.unlock()
        }
        let pid = "\(getpid())\n"
        ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// The holder whose process id the lock file still names, when that process is gone: the
    /// file's modification time is when it wrote its id.
    private static func killedHolder(fd: Int32) -> KilledHolder? {
        var buf = [CChar](repeating: 0, count: 32)
        let n = pread(fd, &buf, buf.count - 1, 0)
        guard n > 0 else { return nil }
        let text = String(cString: buf).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let since = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
        return KilledHolder(pid: pid, since: since, until: Date())
    }

    /// The killed holder of the diary's lock, looked at without taking it (for `check`): nil when
    /// the lock file names no process, or one that is still running.
    public static func killedHolder(stateFolder: URL) -> KilledHolder? {
        let fd = open(stateFolder.appendingPathComponent("lock").path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return killedHolder(fd: fd)
    }

    deinit {
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}

extension Diary {
    /// Removes the git lock files a killed command left (StaleGitLocks), waiting a little for a
    /// running git to finish with its own; `killed` is the holder of the diary lock the caller
    /// took over from. Call with the diary lock held.
    func clearGitLocks(killed: DiaryLock.KilledHolder?) throws -> [String] {
        try StaleGitLocks.clear(in: root, killed: killed.map { $0.since...$0.until }, display: displayPath)
    }

    /// The stale git lock files, relative to the root, as `check` sees them without the lock.
    func staleGitLocks() -> [String] {
        let killed = DiaryLock.killedHolder(stateFolder: stateFolder)
        return StaleGitLocks.stale(in: root, killed: killed.map { $0.since...$0.until })
    }
}
