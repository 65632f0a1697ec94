// Whole-file writes that leave either the old or the new file, never a torn one.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum AtomicFile {
    /// Suffix of the temporary files; `.gitignore` of a diary ignores them, `check --fix` sweeps them.
    public static let temporarySuffix = ".daybook-tmp"

    /// Writes `data` to a temporary file in the same folder, flushes it, and renames it over `url`.
    /// New files get mode 0600 (less when the umask says so); an existing file keeps its mode.
    /// Without `sync` the data is not flushed before the rename: for caches, which a crash may
    /// leave damaged (they are checked and rebuilt), never for the user's files.
    public static func write(_ data: Data, to url: URL, sync: Bool = true) throws {
        var mode: mode_t = 0o600
        var st = stat()
        if stat(url.path, &st) == 0 { mode = st.st_mode & 0o7777 }
        try replace(url, mode: mode, sync: sync) { fd in
            data.withUnsafeBytes { raw in raw.isEmpty || writeAll(fd, raw.baseAddress!, raw.count) }
        }
    }

    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Copies a file in chunks through a temporary file and a rename, so a kill mid-copy leaves
    /// no partial file under the final name.
    public static func copy(from src: URL, to dst: URL) throws {
        let input = open(src.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ioError("cannot read", src.path) }
        defer { close(input) }
        let size = 1 << 20
        let buf = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buf.deallocate() }
        try replace(dst, mode: 0o600) { out in
            while true {
                let n = read(input, buf, size)
                if n < 0 { if errno == EINTR { continue }; return false }
                if n == 0 { return true }
                if !writeAll(out, buf, n) { return false }
            }
        }
    }

    /// The temporary file beside `url` that `fill` writes (flushed when `sync`), and its folder;
    /// on a failure it is gone and the error names it.
    private static func writeTemporary(beside url: URL, mode: mode_t, sync: Bool, fill: (Int32) -> Bool) throws -> (String, String) {
        let dir = url.deletingLastPathComponent().path
        let tmp = dir + "/." + url.lastPathComponent + ".\(getpid())" + temporarySuffix
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot create", tmp) }
        let ok = fill(fd) && (!sync || fsync(fd) == 0)
        if ok && mode != 0o600 { fchmod(fd, mode) }
        close(fd)
        guard ok else {
            let e = ioError("cannot write", tmp)
            unlink(tmp)
            throw e
        }
        return (tmp, dir)
    }

    /// The one way a file is replaced: `fill` writes a temporary file beside `url`, which is
    /// flushed and renamed over it; on any failure the temporary file goes and `url` is untouched.
    static func replace(_ url: URL, mode: mode_t, sync: Bool = true, fill: (Int32) -> Bool) throws {
        let (tmp, dir) = try writeTemporary(beside: url, mode: mode, sync: sync, fill: fill)
        guard rename(tmp, url.path) == 0 else {
            let e = ioError("cannot rename over", url.path)
            unlink(tmp)
            throw e
        }
        if sync { syncDirectory(dir) }
    }

    /// Replaces `url` with `data` only while it holds `expected`, and never loses what another
    /// program writes meanwhile. The temporary file is written and flushed first; then the file is
    /// compared again right before the swap, and the swap is an exchange (renameat2
    /// RENAME_EXCHANGE), so what was replaced is still at hand: when it is not `expected` (an edit
    /// landed between the compare and the swap), it is swapped back. False (and `url` holds the
    /// outside version) when the file changed.
    /// A program appending (`open(…, 'a')`) writes through a descriptor to the file it opened,
    /// which after the swap is the replaced one: its write would land there and be unlinked with it
    /// (issue 38). So the compare and the swap are made under a read lease (F_SETLEASE) on the
    /// file: granted only while no process has it open for writing (else this waits for it to be
    /// closed, up to `busyWait` seconds, then fails saying so), and any open for writing from then
    /// on waits for the lease and breaks it, which is seen before the replaced file goes: it is
    /// then swapped back. Where leases are not to be had (a file system without them), the
    /// compare-swap-compare alone.
    static func replace(_ url: URL, expected: Data, with data: Data, busyWait: TimeInterval = 3) throws -> Bool {
        var mode: mode_t = 0o600
        var st = stat()
        if stat(url.path, &st) == 0 { mode = st.st_mode & 0o7777 }
        let (tmp, dir) = try writeTemporary(beside: url, mode: mode, sync: true) { fd in
            data.withUnsafeBytes { raw in raw.isEmpty || writeAll(fd, raw.baseAddress!, raw.count) }
        }
        let lease = ReadLease(url.path, wait: busyWait)
        defer { lease.release() }
        if lease.busy {
            unlink(tmp)
            throw DaybookError.io("another program keeps the file open for writing (daybook waited \(Int(busyWait)) s); nothing was changed: close it, then run the command again",
                                  at: SourceLocation(path: url.path))
        }
        guard FileManager.default.contents(atPath: url.path) == expected else {
            unlink(tmp)
            return false
        }
        guard let exchange = renameExchange else {
            // No renameat2 (a kernel or file system without it): the plain rename, whose window is
            // the few instructions since the compare.
            guard rename(tmp, url.path) == 0 else { let e = ioError("cannot rename over", url.path); unlink(tmp); throw e }
            syncDirectory(dir)
            return true
        }
        guard exchange(AT_FDCWD, tmp, AT_FDCWD, url.path, 2 /* RENAME_EXCHANGE */) == 0 else {
            let e = ioError("cannot rename over", url.path)
            unlink(tmp)
            throw e
        }
        // `tmp` now names the file that was replaced. Not what was compared, not the file under
        // the lease, or someone opening it to write (the lease broken; an open that began before
        // the swap has a moment to reach the lease first): an outside edit landed or is landing
        // in it; it goes back. A write into our new file in the moment before (its content is no
        // longer `data`) is newer still and stays instead.
        if lease.held { usleep(2_000) }
        if lease.broken || !lease.isFile(tmp) || FileManager.default.contents(atPath: tmp) != expected || lease.broken {
            _ = exchange(AT_FDCWD, tmp, AT_FDCWD, url.path, 2)
            if FileManager.default.contents(atPath: tmp) != data { _ = exchange(AT_FDCWD, tmp, AT_FDCWD, url.path, 2) }
            unlink(tmp)
            syncDirectory(dir)
            return false
        }
        unlink(tmp)
        syncDirectory(dir)
        return true
    }

    /// A read lease on a file (fcntl F_SETLEASE, F_RDLCK; Linux): while held, no process has the
    /// file open for writing, and one that opens it to write waits until it is released (up to the
    /// kernel's lease-break-time) and breaks it.
    final class ReadLease {
        private var fd: Int32 = -1
        private var inode = stat()
        /// Held: the lease was granted. Busy: a process kept the file open for writing all along.
        private(set) var held = false
        private(set) var busy = false
        private static let setLease: Int32 = 1024, getLease: Int32 = 1025  // F_SETLEASE, F_GETLEASE
        private static let readLock: Int32 = 0, unlock: Int32 = 2           // F_RDLCK, F_UNLCK
        /// A broken lease is told to its holder by SIGIO, whose default is to end the process.
        private static let quietSignal: Void = { signal(SIGIO, SIG_IGN); return () }()

        init(_ path: String, wait: TimeInterval) {
            _ = ReadLease.quietSignal
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0, fstat(fd, &inode) == 0, inode.st_mode & S_IFMT == S_IFREG else { return }
            let deadline = Date().addingTimeInterval(wait)
            var pause: useconds_t = 1_000
            while fcntl(fd, ReadLease.setLease, ReadLease.readLock) != 0 {
                // EAGAIN: open for writing somewhere. Anything else: no leases here.
                guard errno == EAGAIN else { return }
                if Date() >= deadline { busy = true; return }
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
            held = true
        }

        /// Someone began opening the file to write since the lease was granted.
        var broken: Bool { held && fcntl(fd, ReadLease.getLease) != ReadLease.readLock }

        /// Whether `path` is the file under the lease.
        func isFile(_ path: String) -> Bool {
            guard fd >= 0 else { return true }
            var st = stat()
            return lstat(path, &st) == 0 && st.st_ino == inode.st_ino && st.st_dev == inode.st_dev
        }

        func release() {
            if held { _ = fcntl(fd, ReadLease.setLease, ReadLease.unlock); held = false }
            if fd >= 0 { close(fd); fd = -1 }
        }

        deinit { release() }
    }

    /// renameat2(2), which Glibc's Swift module does not declare; nil where the C library lacks it.
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    nonisolated(unsafe) private static let renameExchange: RenameAt2? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(sym, to: RenameAt2.self)
    }()

    /// Removes the temporary files that writes of `name` in `folder` left when their process was
    /// killed (the process named in the file's name is gone).
    public static func removeLeftovers(in folder: URL, of name: String) {
        let prefix = "." + name + "."
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where file.hasPrefix(prefix) && file.hasSuffix(temporarySuffix) {
            let pid = file.dropFirst(prefix.count).dropLast(temporarySuffix.count)
            if let pid = Int32(pid), pid != getpid(), kill(pid, 0) == 0 || errno != ESRCH { continue }
            unlink(folder.appendingPathComponent(file).path)
        }
    }

    /// Creates a folder (and its parents) with mode 0700.
    public static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaybookError.io("cannot create folder: \(error.localizedDescription)", at: SourceLocation(path: url.path))
        }
    }

    /// Writes all `count` bytes, retrying after interruptions; false on an error.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var off = 0
        while off < count {
            let n = Glibc.write(fd, bytes + off, count - off)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }

    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    static func ioError(_ what: String, _ path: String) -> DaybookError {
        DaybookError.io("\(what) file: \(String(cString: strerror(errno)))", at: SourceLocation(path: path))
    }
}
