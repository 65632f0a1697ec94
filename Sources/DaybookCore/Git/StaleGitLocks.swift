// Lock files of git and libgit2 left behind by a killed command, found and removed under the diary lock.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.git/index.lock`, `.git/HEAD.lock`, `.git/refs/heads/main.lock`, …: libgit2 creates one beside
/// the file it replaces and renames it over that file. A command killed in between leaves it, and
/// every later commit then fails ("the index is locked"). Under daybook's own diary lock no other
/// daybook writes the repository, so a lock file no process holds open is stale.
public enum StaleGitLocks {
    /// Lock files in the repository of the diary at `root`, relative to `root`, sorted.
    public static func find(in root: URL) -> [String] {
        let git = root.appendingPathComponent(".git")
        var out: [String] = []
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: git.path)) ?? [] where name.hasSuffix(".lock") {
            out.append(".git/" + name)
        }
        if let e = fm.enumerator(atPath: git.appendingPathComponent("refs").path) {
            while let p = e.nextObject() as? String { if p.hasSuffix(".lock") { out.append(".git/refs/" + p) } }
        }
        return out.sorted()
    }

    /// The lock files that no process holds open (a running `git` keeps its lock open until it
    /// renames it), relative to `root`.
    public static func stale(in root: URL) -> [String] {
        let found = find(in: root)
        guard !found.isEmpty else { return [] }
        guard let held = openFiles() else {
            // No /proc to ask: a lock untouched for a minute is taken as left by a killed command.
            return found.filter { rel in
                let attrs = try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(rel).path)
                return ((attrs?[.modificationDate] as? Date).map { -$0.timeIntervalSinceNow > 60 }) ?? false
            }
        }
        return found.filter { !held.contains(root.appendingPathComponent($0).path) }
    }

    /// Removes the stale lock files and returns them (relative to `root`). Call with the diary lock held.
    public static func remove(in root: URL) -> [String] {
        stale(in: root).filter { unlink(root.appendingPathComponent($0).path) == 0 }
    }

    /// Every file any process we may look at holds open, from /proc/<pid>/fd (Linux); nil
    /// where there is no /proc.
    static func openFiles() -> Set<String>? {
        var out = Set<String>()
        guard let procs = try? FileManager.default.contentsOfDirectory(atPath: "/proc"),
              procs.contains("self") else { return nil }
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for pid in procs where pid.first?.isNumber == true {
            let fdDir = "/proc/\(pid)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: fdDir) else { continue }
            for fd in fds {
                let n = readlink(fdDir + "/" + fd, &buf, buf.count - 1)
                if n > 0 { buf[n] = 0; out.insert(String(cString: buf)) }
            }
        }
        return out
    }
}
