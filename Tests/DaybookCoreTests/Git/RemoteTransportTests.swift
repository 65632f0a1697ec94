// How a remote is reached from git's configuration: insteadOf and pushInsteadOf, http.<url>.*
// matching, proxies and no_proxy, certificate authorities and the credential helpers' order.
import XCTest
@testable import DaybookCore

final class RemoteTransportTests: XCTestCase {
    private func resolve(_ url: String, _ config: [(String, String)], _ env: [String: String] = ["HOME": "/nonexistent"],
                         direction: RemoteTransport.Direction = .fetch, pushURL: String? = nil, remote: String? = nil) -> RemoteTransport {
        RemoteTransport.resolve(url, remoteName: remote, pushURL: pushURL, direction: direction, config: config, environment: env)
    }

    func testTheLongestInsteadOfWinsAndPushInsteadOfOnlyForPushes() {
        let config = [("url.https://short/.insteadof", "lab:"), ("url.https://long/x/.insteadof", "lab:x/"),
                      ("url.ssh://push/.pushinsteadof", "lab:")]
        XCTAssertEqual(RemoteTransport.rewrite("lab:x/d.git", pushURL: nil, direction: .fetch, config: config), "https://long/x/d.git")
        XCTAssertEqual(RemoteTransport.rewrite("lab:d.git", pushURL: nil, direction: .fetch, config: config), "https://short/d.git")
        XCTAssertEqual(RemoteTransport.rewrite("lab:d.git", pushURL: nil, direction: .push, config: config), "ssh://push/d.git")
        // An explicit pushurl gets insteadOf only, never pushInsteadOf.
        XCTAssertEqual(RemoteTransport.rewrite("other:d", pushURL: "lab:p.git", direction: .push, config: config), "https://short/p.git")
        XCTAssertEqual(RemoteTransport.rewrite("nomatch:d", pushURL: nil, direction: .push, config: config), "nomatch:d")
    }

    func testHTTPSettingsMatchLikeGitsURLMatch() {
        let config = [("http.sslcainfo", "/all.pem"), ("http.https://git.uni.example/.sslcainfo", "/uni.pem"),
                      ("http.https://git.uni.example/lab.sslcainfo", "/lab.pem"), ("http.https://*.example.org.sslcainfo", "/org.pem"),
                      ("http.https://git.uni.example:8443.sslcainfo", "/port.pem")]
        XCTAssertEqual(resolve("https://git.uni.example/lab/d.git", config).caFile, "/lab.pem")
        XCTAssertEqual(resolve("https://git.uni.example/lab", config).caFile, "/lab.pem")
        XCTAssertEqual(resolve("https://git.uni.example/labx/d.git", config).caFile, "/uni.pem")  // a path prefix ends at a /
        XCTAssertEqual(resolve("https://a.example.org/d.git", config).caFile, "/org.pem")
        XCTAssertEqual(resolve("https://a.b.example.org/d.git", config).caFile, "/all.pem")  // * is one label
        XCTAssertEqual(resolve("https://git.uni.example:8443/d.git", config).caFile, "/port.pem")
        XCTAssertEqual(resolve("http://git.uni.example/lab/d.git", config).caFile, "/all.pem")  // another scheme
    }

    func testTheEnvironmentOverridesTheCAAndOpenSSLsVariablesComeLast() {
        let config = [("http.sslcainfo", "~/ca.pem")]
        XCTAssertEqual(resolve("https://h/d", config, ["HOME": "/home/me"]).caFile, "/home/me/ca.pem")
        XCTAssertEqual(resolve("https://h/d", config, ["GIT_SSL_CAINFO": "/env.pem", "SSL_CERT_FILE": "/ssl.pem"]).caFile, "/env.pem")
        XCTAssertEqual(resolve("https://h/d", [], ["SSL_CERT_FILE": "/ssl.pem"]).caFile, "/ssl.pem")
        XCTAssertEqual(resolve("https://h/d", [], ["SSL_CERT_DIR": "/certs"]).caPath, "/certs")
        XCTAssertNil(resolve("https://h/d", [], [:]).caFile)
        XCTAssertNil(resolve("ssh://h/d", config, [:]).caFile)
    }

    func testProxiesFromConfigThenEnvironmentAndNoProxy() {
        let https = ["https_proxy": "proxy:3128"]
        XCTAssertEqual(resolve("https://git.example.org/d", [], https).proxy, "http://proxy:3128")
        XCTAssertEqual(resolve("https://git.example.org/d", [], https).proxySource, "https_proxy")
        XCTAssertEqual(resolve("https://git.example.org/d", [], ["HTTPS_PROXY": "http://P:1"]).proxy, "http://P:1")
        XCTAssertNil(resolve("http://git.example.org/d", [], https).proxy)  // https_proxy is for HTTPS
        XCTAssertEqual(resolve("http://git.example.org/d", [], ["http_proxy": "http://p:8"]).proxy, "http://p:8")
        XCTAssertEqual(resolve("https://git.example.org/d", [("http.proxy", "http://cfg:1")], https).proxy, "http://cfg:1")
        XCTAssertEqual(resolve("https://git.example.org/d", [("http.proxy", "http://cfg:1"), ("remote.origin.proxy", "http://r:2")],
                               https, remote: "origin").proxy, "http://r:2")
        XCTAssertNil(resolve("https://git.example.org/d", [("http.proxy", "")], https).proxy)  // empty: none
        for noProxy in ["example.org", ".example.org", "*.example.org", "git.example.org", "other,git.example.org", "*", "git.example.org:443"] {
            XCTAssertNil(resolve("https://git.example.org/d", [], https.merging(["no_proxy": noProxy]) { $1 }).proxy, noProxy)
        }
        for noProxy in ["ample.org", "git.example.org:8443", "example.com"] {
            XCTAssertNotNil(resolve("https://git.example.org/d", [], https.merging(["no_proxy": noProxy]) { $1 }).proxy, noProxy)
        }
        // no_proxy applies to a configured proxy too, as curl applies it for git.
        XCTAssertNil(resolve("https://git.example.org/d", [("http.proxy", "http://cfg:1")], ["NO_PROXY": "example.org"]).proxy)
    }

    func testCredentialHelpersInOrderAnEmptyValueClearing() {
        let config = [("credential.helper", "cache"), ("credential.https://other.org.helper", "other"),
                      ("credential.https://git.example.org.helper", "store"), ("credential.helper", ""),
                      ("credential.helper", "!gh auth git-credential"), ("credential.https://git.example.org/me.helper", "mine")]
        XCTAssertEqual(resolve("https://git.example.org/me/d.git", config).credentialHelpers, ["!gh auth git-credential", "mine"])
        XCTAssertEqual(resolve("https://git.example.org/you/d.git", Array(config.prefix(3))).credentialHelpers, ["cache", "store"])
        XCTAssertTrue(resolve("https://h/d", [("credential.usehttppath", "true")]).credentialUseHTTPPath)
    }
}
