// git's credential protocol with the helper programs git's config names (`credential.helper`):
// the same programs git runs (`git credential-cache`, `git-credential-libsecret`, `gh auth
// git-credential`, ...), asked in order with `get`, told `store` after the remote accepted what
// they gave and `erase` after it refused it, as `git credential fill`, `approve` and `reject` do.
// Running a helper is not running git for a git operation: the transfer stays libgit2's.
import Foundation

struct CredentialHelpers {
    /// The helpers as configured, in order.
    let helpers: [String]
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// A credential: the fields git's protocol sends (protocol, host, path, username, password).
    struct Credential: Equatable {
        var fields: [(String, String)]
        var username: String? { self["username"] }
        var password: String? { self["password"] }
        /// The helper that gave the password.
        var helper: String?

        subscript(key: String) -> String? {
            get { fields.last { $0.0 == key }?.1 }
            set {
                fields.removeAll { $0.0 == key }
                if let newValue { fields.append((key, newValue)) }
            }
        }

        static func == (a: Credential, b: Credential) -> Bool {
            a.fields.map { $0.0 + "=" + $0.1 } == b.fields.map { $0.0 + "=" + $0.1 } && a.helper == b.helper
        }

        /// The protocol's text: `key=value` lines, then an empty line.
        var text: String { fields.map { "\($0.0)=\($0.1)\n" }.joined() + "\n" }
    }

    /// What the helpers are asked about for a URL: its protocol and host (with a port other than
    /// the scheme's), its path with `credential.useHttpPath`, the user the URL names.
    static func request(for url: String, user: String?, usePath: Bool) -> Credential? {
        guard let c = URLComponents(string: url), let scheme = c.scheme, let host = c.host else { return nil }
        var fields = [("protocol", scheme.lowercased()), ("host", host + (c.port.map { ":\($0)" } ?? ""))]
        if usePath { fields.append(("path", String(c.percentEncodedPath.drop { $0 == "/" }))) }
        if let name = user ?? c.user, !name.isEmpty { fields.append(("username", name)) }
        return Credential(fields: fields, helper: nil)
    }

    /// `fill`: asks each helper with `get` until one gives a username and password (a `quit`
    /// answer stops the asking); nil when none does.
    func fill(_ request: Credential) -> Credential? {
        var credential = request
        for helper in helpers {
            guard let answer = run(helper, "get", credential.text) else { continue }
            for line in answer.split(separator: "\n", omittingEmptySubsequences: true) {
                guard let eq = line.firstIndex(of: "=") else { continue }
                let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
                if key == "quit" && ["1", "true", "yes", "on"].contains(value.lowercased()) { return nil }
                if ["protocol", "host", "path", "username", "password"].contains(key) { credential[key] = value }
            }
            if credential.username != nil, credential.password != nil {
                credential.helper = helper
                return credential
            }
        }
        return nil
    }

    /// `approve`: every helper is told `store` (the remote accepted the credential).
    func approve(_ credential: Credential) { for helper in helpers { _ = run(helper, "store", credential.text) } }

    /// `reject`: every helper is told `erase` (the remote refused the credential).
    func reject(_ credential: Credential) { for helper in helpers { _ = run(helper, "erase", credential.text) } }

    /// The shell command git runs for a helper: `!command` as it is, an absolute path as it is,
    /// any other name as `git credential-<name>` (with the arguments written after it).
    static func command(_ helper: String, _ action: String) -> String {
        if helper.hasPrefix("!") { return String(helper.dropFirst()) + " " + action }
        if helper.hasPrefix("/") { return helper + " " + action }
        return "git credential-" + helper + " " + action
    }

    /// Runs a helper with `input` on its standard input; its output, nil when it could not run or failed.
    /// Its standard error stays the user's (a helper may say why it has nothing).
    private func run(_ helper: String, _ action: String, _ input: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", CredentialHelpers.command(helper, action)]
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do { try process.run() } catch { return nil }
        // A helper that does not read its input must not stop us: a closed pipe is ignored while
        // writing to it, and the process's own disposition put back.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
