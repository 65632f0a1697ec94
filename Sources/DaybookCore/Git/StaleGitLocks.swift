// Lock files of git and libgit2 left behind by a killed command, found and removed under the diary lock;
// a lock a running git uses is waited for, never removed.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.git/index.lock`, `.git/HEAD.lock`, `.git/refs/heads/main.lock`, …: libgit2 creates one beside
/// the file it replaces and renames it over that file. A command killed in between leaves it, and
/// every later commit then fails ("the index is locked"). But a person's git may be using the same
/// lock: `git commit -a` keeps `.git/index.lock` while its editor is open, with no file descriptor
/// on it (only the editor's `GIT_INDEX_FILE` names it). So a lock is stale only when no process
/// holds it open or names it as its index, and either it is older than `minimumAge` or it was made
/// while a daybook that was killed held the diary lock (DiaryLock.KilledHolder).
public enum StaleGitLocks {
    /// A lock untouched this long that nothing holds is taken as left behind (issue 38: a freshly
    /// touched lock may belong to a git that is just starting).
    public static let minimumAge: TimeInterval = 60

    /// One lock file found, relative to the diary's root, and why it is not stale, if it is not.
    public struct Lock: Equatable {
        public var path: String
        /// The process that holds it (open, or as its `GIT_INDEX_FILE`): its id and a name for it.
        public var holder: (pid: Int32, name: String)?
        /// Seconds since it was last written.
        public var age: TimeInterval
        public var stale: Bool

        public static func == (a: Lock, b: Lock) -> Bool { a.path == b.path && a.stale == b.stale && a.holder?.pid == b.holder?.pid }
    }

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

    /// Every lock file, each said stale or not. `killed` is the span in which a killed daybook held
    /// the diary lock: a lock written in it that nothing holds is its leftover, however young.
    public static func locks(in root: URL, killed: ClosedRange<Date>? = nil, now: Date = Date()) -> [Lock] {
        let found = find(in: root)
        guard !found.isEmpty else { return [] }
        let users = lockUsers()
        return found.compactMap { rel in
            let full = root.appendingPathComponent(rel).path
            var st = stat()
            guard lstat(full, &st) == 0 else { return nil }  // gone meanwhile
            let written = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
            let age = now.timeIntervalSince(written)
            // /proc names files by their real paths.
            let holder = users?[realPath(full) ?? full]
            let leftByKilled = killed.map { written >= $0.lowerBound.addingTimeInterval(-0.01) && written <= $0.upperBound } ?? false
            return Lock(path: rel, holder: holder, age: age, stale: holder == nil && (age >= minimumAge || leftByKilled))
        }
    }

    /// The stale lock files, relative to `root`.
    public static func stale(in root: URL, killed: ClosedRange<Date>? = nil) -> [String] {
        locks(in: root, killed: killed).filter(\.stale).map(\.path)
    }

    /// Removes the stale lock files and returns them (relative to `root`); waits up to `wait`
    /// seconds for the others to go (a git command finishing) or to become stale, then fails
    /// naming the first one still in use. Call with the diary lock held.
    public static func clear(in root: URL, killed: ClosedRange<Date>?, wait: TimeInterval = 5, display: (String) -> String = { $0 }) throws -> [String] {
        let deadline = Date().addingTimeInterval(wait)
        var removed: [String] = []
        while true {
            let all = locks(in: root, killed: killed)
            removed += all.filter { $0.stale && unlink(root.appendingPathComponent($0.path).path) == 0 }.map(\.path)
            guard let live = all.first(where: { !$0.stale }) else { return removed }
            if Date() >= deadline {
                let who = live.holder.map { "process \($0.pid) (\($0.name)) holds it" }
                    ?? "no process holds it, but it was written \(Int(live.age)) s ago, so a git command may be starting with it"
                throw DaybookError(.git, "git's lock file is in use: \(who); daybook waited \(Int(wait)) s and changed nothing. "
                                   + "Let that git command finish (close its editor), then run this again; if no git command is running, remove the file",
                                   at: SourceLocation(path: display(live.path)))
            }
            usleep(100_000)
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// For every file some process holds open, or names as its `GIT_INDEX_FILE` (git sets it for
    /// the editor and hooks of `git commit` while the index lock is kept), a process to name for
    /// it (/proc, Linux); nil where there is no /proc.
    static func lockUsers() -> [String: (pid: Int32, name: String)]? {
        guard let procs = try? FileManager.default.contentsOfDirectory(atPath: "/proc"),
              procs.contains("self") else { return nil }
        var out: [String: (pid: Int32, name: String)] = [:]
        let me = getpid()
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        func link(_ path: String) -> String? {
            let n = readlink(path, &buf, buf.count - 1)
            guard n > 0 else { return nil }
            buf[n] = 0
            return String(cString: buf)
        }
        for entry in procs where entry.first?.isNumber == true {
            guard let pid = Int32(entry), pid != me else { continue }
            let dir = "/proc/\(entry)"
            var paths: [String] = []
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: dir + "/fd")) ?? [] {
                if let p = link(dir + "/fd/" + fd) { paths.append(p) }
            }
            if let env = FileManager.default.contents(atPath: dir + "/environ") {
                for v in env.split(separator: 0) where v.starts(with: Array("GIT_INDEX_FILE=".utf8)) {
                    let value = String(decoding: v.dropFirst("GIT_INDEX_FILE=".utf8.count), as: UTF8.self)
                    if value.hasPrefix("/") { paths.append(value) } else if let cwd = link(dir + "/cwd") { paths.append(cwd + "/" + value) }
                }
            }
            guard !paths.isEmpty else { continue }
            let holder = (pid: pid, name: processName(pid))
            for p in paths {
                let key = URL(fileURLWithPath: p).standardized.path
                if out[key] == nil { out[key] = holder }
            }
        }
        return out
    }

    /// `git commit` (its command line), or the process's own name when no git started it: the
    /// editor that holds a lock through `GIT_INDEX_FILE` is named by the git that waits for it.
    static func processName(_ pid: Int32) -> String {
        var current = pid
        for _ in 0..<4 {
            let cmdline = FileManager.default.contents(atPath: "/proc/\(current)/cmdline") ?? Data()
            let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let first = args.first, (first as NSString).lastPathComponent == "git" {
                return args.prefix(3).joined(separator: " ")
            }
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"),
                  let ppid = stat[stat.index(after: close)...].split(separator: " ").dropFirst().first.flatMap({ Int32($0) }),
                  ppid > 1 else { break }
            current = ppid
        }
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return comm ?? "?"
    }
}
