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

    /// The stamp of a file in this folder (symlinks followed).
    func stamp(_ name: String) -> FileStamp? {
        var st = stat()
        guard fstatat(dirfd(dir), name, &st, 0) == 0 else { return nil }
        return FileStamp(st)
    }
}
