// Whether anything under a folder changed since it was last asked: Linux inotify, for processes that run for long.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process that runs for long (`daybook serve`, the language server) keeps what it read of the
/// entries between requests and asks this whether to read again, instead of walking 100,000 files
/// for every page. Every folder below the root is watched (folders made later too); any change
/// of a file or folder in them — written, replaced, moved, removed, its mode changed — counts.
/// Where inotify is not to be had (another system, or the user's limit of watches reached), every
/// question is answered "changed", so the caller reads again each time, as a command does.
public final class DiaryWatcher {
    private var fd: Int32 = -1
    private var folders: [Int32: String] = [:]
    private var count = 0
    private let root: String

    /// Whether changes are seen; false means every call of `generation()` says "changed".
    public var isWatching: Bool { fd >= 0 }

    public init(folder: URL) {
        root = folder.path
        #if os(Linux)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd >= 0, !watchTree(root) { stop() }
        #endif
    }

    deinit { stop() }

    /// A number that is the same as at the last call when nothing changed since, and larger when
    /// something did (or may have).
    public func generation() -> Int {
        guard isWatching else {
            count += 1
            return count
        }
        #if os(Linux)
        if folders.isEmpty {
            // The folder is not there (yet), or was removed: watch it once it is, and until then
            // trust nothing.
            if !watchTree(root) { stop() }
            count += 1
            return count
        }
        #endif
        if drain() { count += 1 }
        return count
    }

    private func stop() {
        if fd >= 0 { close(fd) }
        fd = -1
        folders = [:]
    }

    #if os(Linux)
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Watches `path` and every folder below it (never following a link). False when the limit of
    /// watches is reached: then nothing is trusted.
    private func watchTree(_ path: String) -> Bool {
        let wd = inotify_add_watch(fd, path, DiaryWatcher.mask)
        if wd < 0 { return errno == ENOENT || errno == ENOTDIR } // gone already, or not a folder: nothing to watch
        folders[wd] = path
        guard let dir = opendir(path) else { return true }
        defer { closedir(dir) }
        while let item = readdir(dir) {
            guard item.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if !watchTree(path + "/" + name) { return false }
        }
        return true
    }

    /// Reads every event waiting; true when there was one. A new folder is watched at once.
    private func drain() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            changed = true
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: the folders made meanwhile may not be watched. Start again.
                    for wd in folders.keys { inotify_rm_watch(fd, wd) }
                    folders = [:]
                    if !watchTree(root) { stop(); return true }
                } else if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let parent = folders[wd] {
                    let name = String(decoding: buffer[nameStart..<min(nameStart + length, n)].prefix(while: { $0 != 0 }), as: UTF8.self)
                    if !watchTree(parent + "/" + name) { stop(); return true }
                } else if mask & UInt32(IN_IGNORED) != 0 {
                    folders[wd] = nil
                }
                offset = nameStart + length
            }
        }
        return changed
    }
    #else
    private func drain() -> Bool { true }
    #endif
}
