// The record that makes a change of many files all or nothing: written before each file changes,
// rolled back by the next change when the command that wrote it was killed.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `.daybook/intent`: one JSON line saying which command began (and its process id), then one line
/// per file before that file is written or removed, with the git blob id of what it is about to
/// hold (none for a removal), each flushed to disk before the file changes. A change commits what
/// it wrote and then deletes the record. Under the diary lock, a record whose writer is gone means
/// a command stopped half done (killed, or its machine lost power): every file it names is put back
/// as HEAD has it, but only where the file still holds what the command wrote (or is missing where
/// the command removed it), so an edit made since is never overwritten. After the roll-back the
/// files are HEAD's again, so the command is as if it never ran (issue 38: a `tag rename` of 200
/// entries killed half way was committed as "edit outside daybook: 150 entries").
struct ChangeIntent {
    struct Header: Codable { var command: String; var pid: Int32 }
    struct Step: Codable { var path: String; var new: String? }

    static func url(_ diary: Diary) -> URL { diary.stateFolder.appendingPathComponent("intent") }

    private let fd: Int32
    private let url: URL

    /// Begins the record (there is none: a record left by a killed command was rolled back when the
    /// change began).
    init(_ diary: Diary, command: String) throws {
        url = ChangeIntent.url(diary)
        try AtomicFile.makeDirectory(diary.stateFolder)
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AtomicFile.ioError("cannot create", url.path) }
        try append(Header(command: command, pid: getpid()))
        // The record's name must last as long as its lines.
        AtomicFile.syncDirectory(diary.stateFolder.path)
    }

    /// Records that `path` is about to hold the blob `new` (nil: be removed), on disk before it does.
    func record(_ path: String, new: String?) throws {
        try append(Step(path: path, new: new))
    }

    private func append<T: Encodable>(_ value: T) throws {
        var line = try JSONEncoder().encode(value)
        line.append(0x0A)
        let ok = line.withUnsafeBytes { AtomicFile.writeAll(fd, $0.baseAddress!, $0.count) } && fsync(fd) == 0
        guard ok else { throw AtomicFile.ioError("cannot write", url.path) }
    }

    /// The change committed (or wrote nothing): the record goes.
    func finish() {
        close(fd)
        unlink(url.path)
    }

    /// Closes the record and leaves it for rollBack.
    func finishWithoutRemoving() {
        close(fd)
    }

    /// A record left behind: the command it names, and whether the process that writes it is
    /// still running (a change in progress, not a killed one).
    static func pending(_ diary: Diary) -> (command: String, running: Bool, files: Int)? {
        guard let data = FileManager.default.contents(atPath: url(diary).path) else { return nil }
        let lines = data.split(separator: 0x0A)
        guard let first = lines.first, let header = try? JSONDecoder().decode(Header.self, from: Data(first)) else {
            return ("a command", false, max(0, lines.count - 1))
        }
        let running = header.pid != getpid() && (kill(header.pid, 0) == 0 || errno != ESRCH)
        return (header.command, running, Set(lines.dropFirst().compactMap { try? JSONDecoder().decode(Step.self, from: Data($0)).path }).count)
    }

    /// Rolls back the record a killed command left, if there is one: returns its command and the
    /// files put back as HEAD has them, nil when there was no record. Call under the diary lock.
    static func rollBack(_ diary: Diary, _ repository: Repository) throws -> (command: String, restored: [String])? {
        let file = url(diary)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        var lines = data.split(separator: 0x0A)
        // A line cut short by a power loss is the last, and its file was not written yet.
        let header = lines.first.flatMap { try? JSONDecoder().decode(Header.self, from: Data($0)) }
        if header != nil { lines.removeFirst() }
        var written: [String: Set<String?>] = [:]
        var order: [String] = []
        for line in lines {
            guard let step = try? JSONDecoder().decode(Step.self, from: Data(line)),
                  Diary.isPlainRelative(step.path), !step.path.hasPrefix(".git/"), step.path != ".git" else { continue }
            if written[step.path] == nil { order.append(step.path) }
            written[step.path, default: []].insert(step.new)
        }
        let head = repository.headID
        var restored: [String] = []
        for path in order {
            let mine = written[path] ?? []
            let before = try head.map { try repository.files(at: $0, under: path) } ?? []
            let url = diary.url(path)
            var st = stat()
            let exists = lstat(url.path, &st) == 0
            if exists && st.st_mode & S_IFMT == S_IFDIR {
                // A folder the command removed (an entry's attachments): what HEAD has in it and is
                // missing comes back.
                for (p, bytes) in before where !FileManager.default.fileExists(atPath: diary.url(p).path) {
                    try restore(bytes, to: p, in: diary)
                    restored.append(p)
                }
                continue
            }
            let current = exists ? FileManager.default.contents(atPath: url.path) : nil
            let headBytes = before.first { $0.path == path }?.data
            if current == headBytes && (current != nil || before.isEmpty) { continue }
            if let current {
                // The file holds what the command wrote: HEAD's version comes back (or, new, it goes).
                guard mine.contains(try Repository.blobID(of: current)) else { continue }
                if let headBytes { try restore(headBytes, to: path, in: diary) } else { unlink(url.path); removeEmptyFolders(above: path, in: diary) }
                restored.append(path)
            } else if mine.contains(nil) {
                // Removed by the command: HEAD's files come back (a folder's too).
                for (p, bytes) in before where !FileManager.default.fileExists(atPath: diary.url(p).path) {
                    try restore(bytes, to: p, in: diary)
                    restored.append(p)
                }
            }
        }
        unlink(file.path)
        AtomicFile.syncDirectory(diary.stateFolder.path)
        return (header?.command ?? "a command", restored)
    }

    private static func restore(_ data: Data, to path: String, in diary: Diary) throws {
        try diary.checkNoSymbolicLink(path)
        let url = diary.url(path)
        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        try AtomicFile.write(data, to: url)
    }

    /// Month and year folders (or an attachments folder) the rolled-back files leave empty go.
    private static func removeEmptyFolders(above path: String, in diary: Diary) {
        var dir = diary.url(path).deletingLastPathComponent()
        while dir.path.hasPrefix(diary.root.path + "/"), dir.path != diary.entriesFolder.path, rmdir(dir.path) == 0 {
            dir = dir.deletingLastPathComponent()
        }
    }
}
