// The streaming ZIP writer, read back by Python's zipfile (CRCs checked), with and without ZIP64.
import XCTest
@testable import DaybookCore

final class ArchiveFileTests: XCTestCase {
    var folder: URL!
    let time = LocalDateTime(day: LocalDay(year: 2026, month: 11, day: 21)!, secondOfDay: 10 * 3600 + 30 * 60, offset: 3600)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// What Python's zipfile reads: `testzip()` result, then one `name size date` line a file.
    func python(_ zip: URL, _ script: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import zipfile,sys\nz = zipfile.ZipFile(sys.argv[1])\n" + script, zip.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    func testFilesReadBackWithTheirBytesNamesAndTime() throws {
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let onDisk = folder.appendingPathComponent("big.bin")
        try big.write(to: onDisk)
        let zip = folder.appendingPathComponent("a.zip")
        let archive = try ArchiveFile(zip, time: time)
        try archive.add("entries/2026/11/grüße.md", data: Data("Grüße 🙂\n".utf8))
        try archive.add("empty.txt", data: Data())
        try archive.add("attachments/big.bin", file: onDisk)
        try archive.finish()
        let out = try python(zip, """
        print(z.testzip())
        for i in z.infolist(): print(i.filename, i.file_size, i.date_time)
        print(z.read('entries/2026/11/grüße.md').decode())
        print(z.read('attachments/big.bin') == open(sys.argv[1].replace('a.zip', 'big.bin'), 'rb').read())
        """)
        XCTAssertEqual(out, """
        None
        entries/2026/11/grüße.md 13 (2026, 11, 21, 10, 30, 0)
        empty.txt 0 (2026, 11, 21, 10, 30, 0)
        attachments/big.bin 300000 (2026, 11, 21, 10, 30, 0)
        Grüße 🙂

        True

        """)
    }

    func testMoreThan65535FilesUseZIP64() throws {
        let zip = folder.appendingPathComponent("many.zip")
        let archive = try ArchiveFile(zip, time: time)
        let one = Data("x".utf8)
        for i in 0..<70_000 { try archive.add("f/\(i).txt", data: one) }
        try archive.finish()
        XCTAssertEqual(try python(zip, "print(len(z.namelist()), z.read('f/69999.txt'))"), "70000 b'x'\n")
    }

    func testAnUnfinishedArchiveLeavesNothingBehind() throws {
        let zip = folder.appendingPathComponent("never.zip")
        do {
            let archive = try ArchiveFile(zip, time: time)
            try archive.add("a", data: Data("a".utf8))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
