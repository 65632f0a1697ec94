// A folder an export writes, made whole in a temporary sibling before anything is moved into place.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An export that stops half-way (a full disk, a name the file system refuses) must leave nothing
/// behind: its files are written in a hidden temporary folder beside the target and moved into the
/// target (renamed over files of the same name, others kept) only when every one was written.
enum StagedFolder {
    static func write(_ folder: URL, _ body: (URL) throws -> Void) throws {
        let parent = folder.deletingLastPathComponent()
        try AtomicFile.makeDirectory(parent)
        let stage = parent.appendingPathComponent(".\(folder.lastPathComponent)-\(UUID().uuidString.prefix(8))" + AtomicFile.temporarySuffix)
        defer { try? FileManager.default.removeItem(at: stage) }
        try AtomicFile.makeDirectory(stage)
        try body(stage)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir) else {
            return try FileManager.default.moveItem(at: stage, to: folder)
        }
        guard isDir.boolValue else { throw DaybookError.io("not a folder; the export writes a folder here", at: SourceLocation(path: folder.path)) }
        try checkPlaces(of: stage, in: folder)
        try moveContents(of: stage, into: folder)
    }

    /// Refuses, before anything moves, a target that holds a folder where a file goes or a file
    /// where a folder goes.
    private static func checkPlaces(of from: URL, in to: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: from.path) {
            let source = from.appendingPathComponent(name), target = to.appendingPathComponent(name)
            var isDir: ObjCBool = false, targetIsDir: ObjCBool = false
            FileManager.default.fileExists(atPath: source.path, isDirectory: &isDir)
            guard FileManager.default.fileExists(atPath: target.path, isDirectory: &targetIsDir) else { continue }
            if isDir.boolValue != targetIsDir.boolValue {
                throw DaybookError.io("is a \(targetIsDir.boolValue ? "folder" : "file") where the export writes a \(isDir.boolValue ? "folder" : "file"); nothing was written",
                                      at: SourceLocation(path: target.path))
            }
            if isDir.boolValue { try checkPlaces(of: source, in: target) }
        }
    }

    /// Renames every file below `from` to the same place below `to`, making folders as needed.
    private static func moveContents(of from: URL, into to: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: from.path).sorted() {
            let source = from.appendingPathComponent(name), target = to.appendingPathComponent(name)
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: source.path, isDirectory: &isDir)
            if isDir.boolValue {
                try AtomicFile.makeDirectory(target)
                try moveContents(of: source, into: target)
            } else if rename(source.path, target.path) != 0 {
                throw DaybookError.io("cannot move the exported file into place: \(String(cString: strerror(errno)))", at: SourceLocation(path: target.path))
            }
        }
    }
}
