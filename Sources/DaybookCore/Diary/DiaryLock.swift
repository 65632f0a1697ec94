// The diary lock: one mutating command at a time, released by the kernel if the holder dies.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public final class DiaryLock {
    private let fd: Int32

    /// Waits up to `timeout` seconds for `.daybook/lock`, then fails naming the holder's process id.
    public init(stateFolder: URL, timeout: TimeInterval = 10) throws {
        try AtomicFile.makeDirectory(stateFolder)
        let path = stateFolder.appendingPathComponent("lock").path
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
        let pid = "\(getpid())\n"
        ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}
