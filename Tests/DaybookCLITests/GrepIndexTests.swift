// End-to-end: grep with the word index prints exactly what grep without it prints, and survives
// edits behind its back, a damaged index and a killed build.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class GrepIndexTests: CLITestCase {
    let indexed = ["DAYBOOK_INDEX_MIN": "0"]
    let plain = ["DAYBOOK_NO_INDEX": "1"]
    var indexFile: URL { diary.appendingPathComponent(".daybook/cache/words.bin") }

    /// Thirty entries written straight to disk, then two seconds' wait: files changed within two
    /// seconds of a build are never taken from the index, and these tests want it used.
    func seed() throws {
        try initDiary()
        let words = ["login", "failed", "nurse", "Ward", "pharmacist", "trolley", "badge", "Grüße", "café", "night-shift"]
        for k in 0..<30 {
            let body = (0..<4).map { line in (0..<5).map { words[($0 * 7 + k * 3 + line) % words.count] }.joined(separator: " ") }
            let text = "---\ntitle: \(words[k % words.count].capitalized) \(k)\ndate: 2026-11-\(String(format: "%02d", 1 + k % 20))T09:\(String(format: "%02d", k)):00+01:00\n---\n"
                + body.joined(separator: "\n") + "\nunique\(k)\n"
            _ = try write("entries/2026/11/2026-11-\(String(format: "%02d", 1 + k % 20))-09\(String(format: "%02d", k))-e\(k).md", text)
        }
        usleep(2_100_000)
    }

    func grep(_ args: [String], env: [String: String]) throws -> RunResult { try run(["grep"] + args, env: env) }

    func assertSameAsWithoutIndex(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try grep(args, env: indexed), b = try grep(args, env: plain)
        XCTAssertEqual(a.out, b.out, "grep \(args)", file: file, line: line)
        XCTAssertEqual(a.status, b.status, "grep \(args)", file: file, line: line)
    }

    func testResultsWithTheIndexAreTheResultsWithout() throws {
        try seed()
        XCTAssertEqual(try grep(["-l", "unique7"], env: indexed).out, "diary/entries/2026/11/2026-11-08-0907-e7.md\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexFile.path), "the first grep builds the index")
        for args in [["pharmacist"], ["-c", "nurse"], ["-l", "Ward"], ["-i", "ward"], ["-w", "log"], ["-F", "night-shift"],
                     ["--json", "café"], ["-C1", "unique12"], ["log+in\\s+fail"], ["^Nurse"], ["--front-matter", "T09:1"],
                     ["-c", "-i", "GRÜSSE"], ["nowhere"], ["unique1", "--tag", "x"], ["-F", "login fail"]] {
            try assertSameAsWithoutIndex(args)
        }
        XCTAssertEqual(try grep(["nowhere"], env: indexed).status, 1)
    }

    func testAnEditBehindDaybooksBackIsFound() throws {
        try seed()
        XCTAssertEqual(try grep(["-c", "unique3"], env: indexed).status, 0)
        let url = diary.appendingPathComponent("entries/2026/11/2026-11-04-0903-e3.md")
        let before = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        let text = try read(url)
        try text.replacingOccurrences(of: "unique3", with: "altered").write(to: url, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: url.path)
        XCTAssertEqual(try grep(["-l", "altered"], env: indexed).out, "diary/entries/2026/11/2026-11-04-0903-e3.md\n")
        XCTAssertEqual(try grep(["-l", "unique3"], env: indexed).status, 1)
        // Replaced by another file behind its back.
        let other = diary.appendingPathComponent("entries/2026/11/2026-11-04-0903-e3.md.new")
        try text.replacingOccurrences(of: "unique3", with: "swapped").write(to: other, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(other.path, url.path), 0)
        XCTAssertEqual(try grep(["-l", "swapped"], env: indexed).out, "diary/entries/2026/11/2026-11-04-0903-e3.md\n")
        // Removed, and added.
        try FileManager.default.removeItem(at: url)
        _ = try write("entries/2026/11/2026-11-30-2000-late.md", "---\ndate: 2026-11-30T20:00:00+01:00\n---\nswapped in late\n")
        XCTAssertEqual(try grep(["-l", "swapped"], env: indexed).out, "diary/entries/2026/11/2026-11-30-2000-late.md\n")
        try assertSameAsWithoutIndex(["-c", "nurse"])
    }

    func testADamagedIndexOrAKilledBuildChangesNothing() throws {
        try seed()
        XCTAssertEqual(try grep(["-c", "nurse"], env: indexed).status, 0)
        var bytes = [UInt8](try Data(contentsOf: indexFile))
        for k in stride(from: 200, to: bytes.count, by: 97) { bytes[k] ^= 0xFF }
        try Data(bytes).write(to: indexFile)
        try assertSameAsWithoutIndex(["-c", "nurse"])
        try assertSameAsWithoutIndex(["pharmacist"])
        try Data(bytes.prefix(100)).write(to: indexFile)
        try assertSameAsWithoutIndex(["-l", "unique2"])
        // A build killed mid-write leaves a temporary file; the next build sweeps it.
        let leftover = indexFile.deletingLastPathComponent().appendingPathComponent(".words.bin.2147483600.daybook-tmp")
        try Data("half".utf8).write(to: leftover)
        try FileManager.default.removeItem(at: indexFile)
        try assertSameAsWithoutIndex(["-c", "trolley"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        // Deleting the cache loses nothing.
        try FileManager.default.removeItem(at: diary.appendingPathComponent(".daybook/cache"))
        try assertSameAsWithoutIndex(["-c", "badge"])
    }
}
