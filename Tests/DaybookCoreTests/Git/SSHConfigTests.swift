// ~/.ssh/config as OpenSSH reads it for where and as whom to connect, and SSH URLs taken apart.
import XCTest
@testable import DaybookCore

final class SSHConfigTests: XCTestCase {
    let text = """
    # two accounts on one host
    IdentityFile ~/.ssh/first_everywhere
    Host github-work
        HostName github.com
        User git
        Port 2222
        IdentityFile ~/.ssh/work_%h
        IdentitiesOnly yes
    Host github-* !github-private
      User someone-else
      Port=22
    Host = "quoted host"
        HostName %h.example.org
    Match host github-work
        User never
    Host *
        User fallback
        IdentityFile %d/.ssh/last
    """

    func testTheFirstValueOfEachKeyThatAppliesWins() {
        let file = SSHConfig.parse(text, home: "/home/me")
        let work = file.host("github-work", home: "/home/me")
        XCTAssertEqual(work.hostName, "github.com")
        XCTAssertEqual(work.user, "git")
        XCTAssertEqual(work.port, 2222)
        XCTAssertTrue(work.identitiesOnly)
        XCTAssertEqual(work.identityFiles, ["/home/me/.ssh/first_everywhere", "/home/me/.ssh/work_github.com", "/home/me/.ssh/last"])
        let other = file.host("github-other", home: "/home/me")
        XCTAssertEqual(other.user, "someone-else")
        XCTAssertEqual(other.port, 22)
        XCTAssertNil(other.hostName)
        XCTAssertEqual(file.host("github-private", home: "/h").user, "fallback")  // negated pattern
        XCTAssertEqual(file.host("quoted host", home: "/h").hostName, "quoted host.example.org")
    }

    func testURLsTakenApartAndRebuilt() {
        let short = SSHConfig.target(of: "github-work:me/diary.git")
        XCTAssertEqual(short, SSHConfig.Target(user: nil, host: "github-work", port: nil, path: "me/diary.git", short: true))
        var host = SSHConfig.Host(alias: "github-work")
        host.hostName = "github.com"; host.user = "git"; host.port = 2222
        XCTAssertEqual(short?.url(with: host), "ssh://git@github.com:2222/~/me/diary.git")
        XCTAssertEqual(SSHConfig.target(of: "me@github-work:/srv/d.git")?.url(with: host), "ssh://me@github.com:2222/srv/d.git")
        XCTAssertEqual(SSHConfig.target(of: "ssh://github-work:2200/srv/d.git")?.url(with: host), "ssh://git@github.com:2200/srv/d.git")
        XCTAssertEqual(SSHConfig.target(of: "git+ssh://u@h/x")?.user, "u")
        XCTAssertNil(SSHConfig.target(of: "https://h/x"))
        XCTAssertNil(SSHConfig.target(of: "/srv/diary.git"))
        XCTAssertNil(SSHConfig.target(of: "./a:b"))
    }

    func testAPassphraseIsSeenInBothKeyFormats() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, pass) in [("plain", ""), ("locked", "secret words")] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
            p.arguments = ["-q", "-t", "ed25519", "-N", pass, "-f", dir.appendingPathComponent(name).path]
            guard (try? p.run()) != nil else { throw XCTSkip("ssh-keygen is not installed") }
            p.waitUntilExit()
        }
        XCTAssertFalse(RemoteSession.needsPassphrase(dir.appendingPathComponent("plain").path))
        XCTAssertTrue(RemoteSession.needsPassphrase(dir.appendingPathComponent("locked").path))
        try "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n".write(to: dir.appendingPathComponent("pem"), atomically: true, encoding: .utf8)
        XCTAssertTrue(RemoteSession.needsPassphrase(dir.appendingPathComponent("pem").path))
    }
}
