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
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent().path
        let tmp = dir + "/." + url.lastPathComponent + ".\(getpid())" + temporarySuffix
        var mode: mode_t = 0o600
        var st = stat()
        if stat(url.path, &st) == 0 { mode = st.st_mode & 0o7777 }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot create", tmp) }
        var ok = true
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                off += n
            }
        }
        if ok && fsync(fd) != 0 { ok = false }
        if mode != 0o600 { fchmod(fd, mode) }
        close(fd)
        guard ok else {
            let e = ioError("cannot write", tmp)
            unlink(tmp)
            throw e
        }
        guard rename(tmp, url.path) == 0 else {
            let e = ioError("cannot rename over", url.path)
            unlink(tmp)
            throw e
        }
        syncDirectory(dir)
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
        let dir = dst.deletingLastPathComponent().path
        let tmp = dir + "/." + dst.lastPathComponent + ".\(getpid())" + temporarySuffix
        let out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw ioError("cannot create", tmp) }
        let size = 1 << 20
        let buf = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buf.deallocate() }
        var failed = false
        while true {
            let n = read(input, buf, size)
            if n < 0 { if errno == EINTR { continue }; failed = true; break }
            if n == 0 { break }
            var off = 0
            while off < n {
                let w = Glibc.write(out, buf + off, n - off)
                if w < 0 { if errno == EINTR { continue }; failed = true; break }
                off += w
            }
            if failed { break }
        }
        if !failed && fsync(out) != 0 { failed = true }
        close(out)
        if failed {
            let e = ioError("cannot copy to", tmp)
            unlink(tmp)
            throw e
        }
        guard rename(tmp, dst.path) == 0 else {
            let e = ioError("cannot rename over", dst.path)
            unlink(tmp)
            throw e
        }
        syncDirectory(dir)
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

    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    static func ioError(_ what: String, _ path: String) -> DaybookError {
        DaybookError.io("\(what) file: \(String(cString: strerror(errno)))", at: SourceLocation(path: path))
    }
}
