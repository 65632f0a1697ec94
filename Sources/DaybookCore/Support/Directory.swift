// Listing folders with readdir: the entry walk reads thousands of them, Foundation's listing is slow.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An open folder: its names, and stamps of the files in it relative to it (no path lookups).
final class Directory {
    private let dir: OpaquePointer

    init?(_ path: String) {
        guard let d = opendir(path) else { return nil }
        dir = d
    }

    deinit { closedir(dir) }

    /// The folder's descriptor, for the *at() calls.
    var descriptor: Int32 { dirfd(dir) }

    /// Every name in the folder except `.` and `..`, unsorted.
    var names: [String] {
        rewinddir(dir)
        var out: [String] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// Every name with whether it is a folder itself (not a symbolic link to one), from readdir's
    /// d_type without a stat per name (lstat only where the file system does not say).
    var namesAndKinds: [(name: String, isFolder: Bool)] {
        rewinddir(dir)
        var out: [(String, Bool)] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != "." && name != ".." else { continue }
            let type = ent.pointee.d_type
            out.append((name, type == UInt8(DT_DIR) || (type == UInt8(DT_UNKNOWN) && isRealFolder(name))))
        }
        return out
    }

    /// Calls `body` with the bytes of every name except `.` and `..`, NUL-terminated (the NUL
    /// not counted), valid during the call only.
    func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        rewinddir(dir)
        while let ent = readdir(dir) {
            withUnsafeBytes(of: &ent.pointee.d_name) { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let n = strlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                if (n == 1 && p[0] == 0x2E) || (n == 2 && p[0] == 0x2E && p[1] == 0x2E) { return }
                body(UnsafeBufferPointer(start: p, count: n))
            }
        }
    }

    /// Calls `body` with the bytes of every name except `.` and `..` (as `forEachName`), whether
    /// it is a folder itself and whether it is a symbolic link, from readdir's d_type (lstat only
    /// where the file system does not say).
    func forEachNameAndKind(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ isFolder: Bool, _ isLink: Bool) -> Void) {
        forEachNameAndType { name, type in body(name, type == UInt8(DT_DIR), type == UInt8(DT_LNK)) }
    }

    /// Calls `body` with the bytes of every regular file's name (as `forEachName`): not a folder,
    /// a symbolic link, a pipe or a device, from readdir's d_type (lstat only where the file system
    /// does not say).
    func forEachFileName(_ body: (_ name: UnsafeBufferPointer<UInt8>) -> Void) {
        forEachNameAndType { name, type in if type == UInt8(DT_REG) { body(name) } }
    }

    /// Every name except `.` and `..` with its d_type, from lstat where readdir gives DT_UNKNOWN
    /// (DT_UNKNOWN still when lstat fails).
    private func forEachNameAndType(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ type: UInt8) -> Void) {
        rewinddir(dir)
        while let ent = readdir(dir) {
            var type = ent.pointee.d_type
            withUnsafeBytes(of: &ent.pointee.d_name) { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let n = strlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                if (n == 1 && p[0] == 0x2E) || (n == 2 && p[0] == 0x2E && p[1] == 0x2E) { return }
                if type == UInt8(DT_UNKNOWN) {
                    var st = stat()
                    if fstatat(dirfd(dir), raw.baseAddress!.assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW) == 0 {
                        switch st.st_mode & S_IFMT {
                        case S_IFDIR: type = UInt8(DT_DIR)
                        case S_IFLNK: type = UInt8(DT_LNK)
                        case S_IFREG: type = UInt8(DT_REG)
                        default: type = UInt8(DT_FIFO) // anything else: no file to read
                        }
                    }
                }
                body(UnsafeBufferPointer(start: p, count: n), type)
            }
        }
    }

    /// The stamp of a regular file in this folder named by a NUL-terminated string; nil for a
    /// symbolic link (never followed: it may lead out of the diary) or anything not a file.
    func stamp(_ name: UnsafePointer<CChar>) -> FileStamp? {
        var st = stat()
        guard fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(st)
    }

    /// The lstat of a name in this folder (a symlink itself, not what it points to).
    func lstat(_ name: String) -> stat? {
        var st = stat()
        guard fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return st
    }

    /// The stamp of a regular file in this folder (a symbolic link is not followed: nil).
    func stamp(_ name: String) -> FileStamp? {
        name.withCString { stamp($0) }
    }

    /// Whether `name` in this folder is a folder itself, not a symbolic link to one.
    func isRealFolder(_ name: String) -> Bool {
        lstat(name).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }
}
