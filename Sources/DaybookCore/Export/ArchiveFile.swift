// A ZIP archive written front to back: each file deflated (ZIPFoundation's zlib) as it is added,
// the central directory once at the end, ZIP64 records when there are more than 65,535 files.
import Foundation
import ZIPFoundation

/// ZIPFoundation's `Archive.addEntry` rewrites the whole central directory on every call, so an
/// archive of n files costs n² bytes of writing: a backup of 100,000 entries would never end.
/// This writer streams instead, keeping only the central directory (about 100 bytes a file) in
/// memory. Files use data descriptors, so nothing is ever read back or rewritten.
final class ArchiveFile {
    private let url: URL
    private let temporary: URL
    private let out: FileHandle
    private var buffer = Data()
    private var offset: UInt64 = 0
    private var central = Data()
    private var count = 0
    private let dosTime: UInt16
    private let dosDate: UInt16
    private var finished = false

    /// `time` is every file's modification time (the export's moment, so archives are reproducible).
    init(_ url: URL, time: LocalDateTime) throws {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + AtomicFile.temporarySuffix)
        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DaybookError.io("cannot create the archive: \(String(cString: strerror(errno)))", at: SourceLocation(path: url.path))
        }
        out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let (y, m, d) = time.day.components
        dosDate = UInt16(clamping: ((max(y, 1980) - 1980) << 9) | (m << 5) | d)
        dosTime = UInt16(clamping: (time.hour << 11) | (time.minute << 5) | (time.second / 2))
    }

    func add(_ path: String, data: Data) throws {
        try add(path, size: data.count) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
    }

    /// Adds a file from disk, read and deflated in chunks.
    func add(_ path: String, file: URL) throws {
        guard let input = FileHandle(forReadingAtPath: file.path),
              let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: file.path))
        }
        defer { try? input.close() }
        try add(path, size: size) { _, chunk in try input.read(upToCount: chunk) ?? Data() }
    }

    /// Adds every file below `folder` (recursively, in name order), under `prefix`.
    func add(folder: URL, as prefix: String) throws {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var files: [(String, URL)] = []
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append((prefix + String(file.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)), file))
        }
        for (path, file) in files.sorted(by: { $0.0 < $1.0 }) { try add(path, file: file) }
    }

    private func add(_ path: String, size: Int, provider: Provider) throws {
        guard size < 0xFFFF_FFFF else {
            throw DaybookError.io("\(path) is larger than 4 GB, more than a ZIP entry of this archive holds", at: SourceLocation(path: url.path))
        }
        let name = Data(path.utf8)
        let start = offset
        let method: UInt16 = size == 0 ? 0 : 8
        // Local header: UTF-8 name (bit 11), sizes and CRC in the data descriptor after the data (bit 3).
        var header = Data()
        header.le32(0x0403_4B50); header.le16(20); header.le16(0x0808); header.le16(method)
        header.le16(dosTime); header.le16(dosDate); header.le32(0); header.le32(0); header.le32(0)
        header.le16(UInt16(clamping: name.count)); header.le16(0); header.append(name)
        try write(header)
        var compressed = 0
        var crc: UInt32 = 0
        if size > 0 {
            do {
                crc = try Data.compress(size: Int64(size), bufferSize: 1 << 16, provider: provider) { chunk in
                    compressed += chunk.count
                    try self.write(chunk)
                }
            } catch let e as DaybookError { throw e } catch {
                throw DaybookError.io("cannot compress \(path): \(error)", at: SourceLocation(path: url.path))
            }
        }
        var descriptor = Data()
        descriptor.le32(0x0807_4B50); descriptor.le32(crc); descriptor.le32(UInt32(clamping: compressed)); descriptor.le32(UInt32(size))
        try write(descriptor)

        let bigOffset = start >= 0xFFFF_FFFF
        var record = Data()
        record.le32(0x0201_4B50); record.le16(0x031E); record.le16(bigOffset ? 45 : 20); record.le16(0x0808); record.le16(method)
        record.le16(dosTime); record.le16(dosDate); record.le32(crc); record.le32(UInt32(clamping: compressed)); record.le32(UInt32(size))
        record.le16(UInt16(clamping: name.count)); record.le16(bigOffset ? 12 : 0); record.le16(0); record.le16(0); record.le16(0)
        record.le32(0o100600 << 16) // a regular file, private like the diary's own files
        record.le32(bigOffset ? 0xFFFF_FFFF : UInt32(start))
        record.append(name)
        if bigOffset { record.le16(0x0001); record.le16(8); record.le64(start) }
        central.append(record)
        count += 1
    }

    private func write(_ data: Data) throws {
        buffer.append(data)
        offset += UInt64(data.count)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        do { try out.write(contentsOf: buffer) } catch {
            throw DaybookError.io("cannot write the archive: \(error.localizedDescription)", at: SourceLocation(path: url.path))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the central directory and the end records, and renames the archive into place.
    func finish() throws {
        let directoryStart = offset
        try write(central)
        let directorySize = offset - directoryStart
        let needs64 = count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        var end = Data()
        if needs64 {
            let record64 = offset
            end.le32(0x0606_4B50); end.le64(44); end.le16(0x031E); end.le16(45); end.le32(0); end.le32(0)
            end.le64(UInt64(count)); end.le64(UInt64(count)); end.le64(directorySize); end.le64(directoryStart)
            end.le32(0x0706_4B50); end.le32(0); end.le64(record64); end.le32(1)
        }
        end.le32(0x0605_4B50); end.le16(0); end.le16(0)
        end.le16(UInt16(clamping: min(count, 0xFFFF))); end.le16(UInt16(clamping: min(count, 0xFFFF)))
        end.le32(UInt32(clamping: min(directorySize, 0xFFFF_FFFF))); end.le32(UInt32(clamping: min(directoryStart, 0xFFFF_FFFF)))
        end.le16(0)
        try write(end)
        try flush()
        try? out.close()
        try FileSink.move(temporary, over: url)
        finished = true
    }

    deinit { if !finished { try? FileManager.default.removeItem(at: temporary) } }
}

private extension Data {
    mutating func le16(_ v: UInt16) { append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)]) }
    mutating func le32(_ v: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func le64(_ v: UInt64) { for i in 0..<8 { append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
}
