// A ZIP archive being written (ZIPFoundation): built in a temporary file, renamed into place at the end.
import Foundation
import ZIPFoundation

final class ArchiveFile {
    private let url: URL
    private let temporary: URL
    private let archive: Archive
    private var finished = false

    init(_ url: URL) throws {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + AtomicFile.temporarySuffix)
        try? FileManager.default.removeItem(at: temporary)
        do {
            try AtomicFile.makeDirectory(url.deletingLastPathComponent())
            archive = try Archive(url: temporary, accessMode: .create)
        } catch {
            throw DaybookError.io("cannot create the archive: \(error)", at: SourceLocation(path: url.path))
        }
    }

    func add(_ path: String, data: Data) throws {
        do {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        } catch { throw DaybookError.io("cannot add \(path) to the archive: \(error)", at: SourceLocation(path: url.path)) }
    }

    /// Adds a file from disk, read in chunks by ZIPFoundation.
    func add(_ path: String, file: URL) throws {
        do { try archive.addEntry(with: path, fileURL: file, compressionMethod: .deflate) } catch {
            throw DaybookError.io("cannot add \(path) to the archive: \(error)", at: SourceLocation(path: file.path))
        }
    }

    /// Adds every file below `folder` (recursively), under `prefix`.
    func add(folder: URL, as prefix: String) throws {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var files: [(String, URL)] = []
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let rel = String(file.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            files.append((prefix + rel, file))
        }
        for (path, file) in files.sorted(by: { $0.0 < $1.0 }) { try add(path, file: file) }
    }

    func finish() throws {
        try FileSink.move(temporary, over: url)
        finished = true
    }

    deinit { if !finished { try? FileManager.default.removeItem(at: temporary) } }
}
