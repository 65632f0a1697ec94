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

/// git's credential protocol with real helper programs (shell commands), as git runs them.
final class CredentialHelpersTests: XCTestCase {
    func testFillAsksInOrderUntilOneAnswersThenStoreAndEraseReachEveryHelper() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-helpers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("log").path
        let helpers = CredentialHelpers(helpers: [
            "!f() { echo \"first $1\" >> \(log); cat > /dev/null; }; f",  // knows nothing
            "!f() { echo \"second $1\" >> \(log); cat > \(log).in; [ \"$1\" = get ] && printf 'username=mp\\npassword=p=w\\n'; true; }; f",
            "!f() { echo \"third $1\" >> \(log); }; f",
        ])
        let request = try XCTUnwrap(CredentialHelpers.request(for: "https://git.example.org:8443/me/d.git", user: nil, usePath: true))
        let filled = try XCTUnwrap(helpers.fill(request))
        XCTAssertEqual(filled.username, "mp")
        XCTAssertEqual(filled.password, "p=w")  // only the first = separates
        XCTAssertEqual(try String(contentsOfFile: log + ".in", encoding: .utf8),
                       "protocol=https\nhost=git.example.org:8443\npath=me/d.git\n\n")
        helpers.approve(filled)
        helpers.reject(filled)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n"),
                       ["first get", "second get", "first store", "second store", "third store", "first erase", "second erase", "third erase"])
    }

    func testQuitStopsAndHelpersRunAsGitRunsThem() {
        XCTAssertNil(CredentialHelpers(helpers: ["!f() { echo quit=1; }; f", "!printf 'username=a\\npassword=b\\n'"])
            .fill(CredentialHelpers.Credential(fields: [("protocol", "https"), ("host", "h")], helper: nil)))
        XCTAssertEqual(CredentialHelpers.command("cache --timeout 300", "get"), "git credential-cache --timeout 300 get")
        XCTAssertEqual(CredentialHelpers.command("/usr/bin/helper", "store"), "/usr/bin/helper store")
        XCTAssertEqual(CredentialHelpers.command("!gh auth git-credential", "erase"), "gh auth git-credential erase")
    }
}
