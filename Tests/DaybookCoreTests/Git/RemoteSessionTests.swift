// Where HTTPS tokens come from: DAYBOOK_GIT_TOKEN, else git's credential store file.
import XCTest
@testable import DaybookCore

final class RemoteSessionTests: XCTestCase {
    func testTheEnvironmentTokenComesFirst() {
        let s = RemoteSession(progress: nil, environment: ["HOME": "/nonexistent", "DAYBOOK_GIT_TOKEN": "t0k"])
        XCTAssertEqual(s.token(for: "https://git.example.org/me/diary.git", user: nil).map { [$0.0, $0.1] }, ["git", "t0k"])
        XCTAssertEqual(s.token(for: "https://me@git.example.org/d.git", user: "me").map { [$0.0, $0.1] }, ["me", "t0k"])
    }

    func testTheCredentialStoreMatchesSchemeHostAndUser() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try "https://other:x@elsewhere.org\nhttps://mp:s%40cret@git.example.org\n"
            .write(to: home.appendingPathComponent(".git-credentials"), atomically: true, encoding: .utf8)
        let s = RemoteSession(progress: nil, environment: ["HOME": home.path])
        XCTAssertEqual(s.token(for: "https://git.example.org/me/diary.git", user: nil).map { [$0.0, $0.1] }, ["mp", "s@cret"])
        XCTAssertNil(s.token(for: "https://git.example.org/d.git", user: "someone-else"))
        XCTAssertNil(s.token(for: "http://git.example.org/d.git", user: nil))
    }

    func testProgressIsReportedOnlyForManyObjectsOncePerPercent() {
        var reports: [Int] = []
        let s = RemoteSession(progress: { _, done, _ in reports.append(done) }, environment: [:])
        for i in 0...10 { s.report("receiving objects", i, 10) }
        XCTAssertEqual(reports, [])
        for i in 0...400 { s.report("receiving objects", i, 400) }
        XCTAssertEqual(reports.count, 101)
    }
}
