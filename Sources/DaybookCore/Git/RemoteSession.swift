// The callbacks of one fetch or push: credentials for SSH and HTTPS, progress, refused references.
import Foundation
import CLibGit2

/// Passed to libgit2 as the callbacks' payload; lives for one transfer.
final class RemoteSession {
    let progress: TransferProgress?
    private var triedAgent = false
    private var keyFiles: [String]
    /// Key files skipped because they need a passphrase (daybook reads none: the agent holds them).
    private(set) var lockedKeys: [String] = []
    private var triedToken = false
    /// Where the login offered came from, so a refusal is told to the right place.
    private(set) var loginSource: LoginSource?
    private var lastPercent = -1
    /// Statuses of references the remote refused to update.
    var refusals: [String] = []
    /// The SSH host key a refused host showed (`SHA256:...`), for the message.
    private(set) var refusedHostKey: String?
    /// Why a server certificate was refused, when daybook checked it itself.
    private(set) var certificateProblem: String?
    let home: String
    let environment: [String: String]
    let transport: RemoteTransport?

    enum LoginSource: Equatable {
        case environment
        case helper(CredentialHelpers.Credential)
        case storeFile
    }

    init(progress: TransferProgress?, transport: RemoteTransport? = nil,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.progress = progress
        self.environment = environment
        self.transport = transport
        let home = environment["HOME"] ?? NSHomeDirectory()
        self.home = home
        // ~/.ssh/config's IdentityFile replaces the default keys, as in ssh.
        if let files = transport?.ssh?.identityFiles, !files.isEmpty {
            keyFiles = files
        } else {
            keyFiles = ["id_ed25519", "id_ecdsa", "id_rsa"].map { "\(home)/.ssh/\($0)" }
        }
        // IdentitiesOnly: only the configured files, not whatever the agent holds.
        if transport?.ssh?.identitiesOnly == true { triedAgent = true }
    }

    deinit { free(proxyURL) }

    /// The proxy's URL as libgit2 reads it, alive as long as the session.
    private lazy var proxyURL: UnsafeMutablePointer<CChar>? = transport?.proxy.flatMap { strdup($0) }

    /// Sets the proxy options of a transfer: the proxy git's configuration or the environment names
    /// for the URL, else none.
    func install(_ proxy: inout git_proxy_options) {
        if let url = proxyURL {
            proxy.type = GIT_PROXY_SPECIFIED
            proxy.url = UnsafePointer(url)
        } else {
            proxy.type = GIT_PROXY_NONE
        }
        proxy.certificate_check = { cert, valid, host, payload in
            guard let cert, let payload else { return GIT_PASSTHROUGH.rawValue }
            return RemoteSession.from(payload).checkCertificate(cert, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
        }
        proxy.payload = Unmanaged.passUnretained(self).toOpaque()
    }

    private var helpers: CredentialHelpers {
        CredentialHelpers(helpers: transport?.credentialHelpers ?? [], environment: environment)
    }

    /// After a transfer that worked: the helper's credential is approved (`store`).
    func succeeded() {
        if case let .helper(credential) = loginSource { helpers.approve(credential) }
    }

    func install(_ callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, user, allowed, payload in
            guard let out, let payload else { return GIT_PASSTHROUGH.rawValue }
            return RemoteSession.from(payload).credential(out, url: url.map { String(cString: $0) } ?? "",
                                                          user: user.map { String(cString: $0) }, allowed: allowed)
        }
        callbacks.certificate_check = { cert, valid, host, payload in
            guard let cert, let payload else { return GIT_PASSTHROUGH.rawValue }
            return RemoteSession.from(payload).checkCertificate(cert, valid: valid != 0, host: host.map { String(cString: $0) } ?? "")
        }
        callbacks.transfer_progress = { stats, payload in
            guard let stats, let payload else { return 0 }
            RemoteSession.from(payload).report("receiving objects", Int(stats.pointee.received_objects), Int(stats.pointee.total_objects))
            return 0
        }
        callbacks.push_transfer_progress = { current, total, _, payload in
            guard let payload else { return 0 }
            RemoteSession.from(payload).report("sending objects", Int(current), Int(total))
            return 0
        }
        callbacks.push_update_reference = { _, status, payload in
            if let status, let payload { RemoteSession.from(payload).refusals.append(String(cString: status)) }
            return 0
        }
    }

    static func from(_ payload: UnsafeMutableRawPointer) -> RemoteSession {
        Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
    }

    /// Only transfers of many objects are worth a progress line; one report per percent.
    func report(_ what: String, _ done: Int, _ total: Int) {
        guard let progress, total >= 100 else { return }
        let percent = done * 100 / total
        guard percent != lastPercent else { return }
        lastPercent = percent
        progress(what, done, total)
    }

    /// SSH: the agent (unless IdentitiesOnly), then the IdentityFile(s) ~/.ssh/config names for the
    /// host, else ~/.ssh/id_ed25519, id_ecdsa, id_rsa; a key with a passphrase is left to the agent.
    /// HTTPS: `DAYBOOK_GIT_TOKEN`, else what git's credential helpers give, else a token stored by
    /// git's `store` helper. Each is offered once, so a refused credential ends in an error (and a
    /// helper's is erased) instead of a loop.
    func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, url: String, user: String?, allowed: UInt32) -> Int32 {
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            let name = user ?? transport?.ssh?.user ?? "git"
            if !triedAgent {
                triedAgent = true
                if !(environment["SSH_AUTH_SOCK"] ?? "").isEmpty { return git_credential_ssh_key_from_agent(out, name) }
            }
            while let key = keyFiles.first {
                keyFiles.removeFirst()
                guard FileManager.default.fileExists(atPath: key) else { continue }
                if RemoteSession.needsPassphrase(key) { lockedKeys.append(key); continue }
                let pub = FileManager.default.fileExists(atPath: key + ".pub") ? key + ".pub" : nil
                return git_credential_ssh_key_new(out, name, pub, key, nil)
            }
            git_error_set_str(Int32(GIT_ERROR_SSH.rawValue), noKeyMessage())
            return GIT_EAUTH.rawValue
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            if !triedToken {
                triedToken = true
                if let (login, token, source) = login(for: url, user: user) {
                    loginSource = source
                    return git_credential_userpass_plaintext_new(out, login, token)
                }
            }
            git_error_set_str(Int32(GIT_ERROR_HTTP.rawValue), refusedLoginMessage())
            return GIT_EAUTH.rawValue
        }
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 { return git_credential_username_new(out, user ?? transport?.ssh?.user ?? "git") }
        return GIT_PASSTHROUGH.rawValue
    }

    /// What to say when no SSH key was accepted: the keys tried, and a key left out for its passphrase.
    private func noKeyMessage() -> String {
        let configured = transport?.ssh?.identityFiles.isEmpty == false
        let tried = (transport?.ssh?.identitiesOnly == true ? "" : "the SSH agent and ")
            + (configured ? (transport?.ssh?.identityFiles ?? []).joined(separator: ", ") + " (IdentityFile in ~/.ssh/config)"
                          : "~/.ssh/id_ed25519, id_ecdsa, id_rsa")
        var message = "no SSH key was accepted (tried \(tried))"
        if let locked = lockedKeys.first {
            let agent = (environment["SSH_AUTH_SOCK"] ?? "").isEmpty ? "no SSH agent is running" : "the SSH agent does not hold it"
            message += "; \(locked) has a passphrase and \(agent): daybook reads no passphrase, so add the key to an agent (`eval $(ssh-agent)`, then `ssh-add \(locked)`) and sync again"
        }
        return message
    }

    /// A refused login: said with where it came from; a helper's is erased from the helpers (`reject`).
    private func refusedLoginMessage() -> String {
        switch loginSource {
        case .none:
            return "the remote wants a login: set DAYBOOK_GIT_TOKEN, or name a credential helper in git's config (credential.helper), as git uses"
        case .environment:
            return "the remote refused the token in DAYBOOK_GIT_TOKEN"
        case .storeFile:
            return "the remote refused the token stored in ~/.git-credentials"
        case let .helper(credential):
            helpers.reject(credential)
            loginSource = nil
            return "the remote refused the login of \(credential.username ?? "?") that the credential helper `\(credential.helper ?? "?")` gave; the helpers were told to forget it (erase), so the next sync asks them again"
        }
    }

    /// What to do about a failed transfer, after libgit2's reason: an SSH host key it did not know
    /// or that changed, a certificate no configured authority signed.
    func advice(for reason: String) -> String {
        let lower = reason.lowercased()
        if refusedHostKey != nil || lower.contains("hostkey") {
            let ssh = transport?.ssh
            let target = transport.flatMap { SSHConfig.target(of: $0.configuredURL) }
            let port = target?.port.map { "-p \($0) " } ?? ""
            let host = (target?.user.map { $0 + "@" } ?? "") + (target?.host ?? ssh?.alias ?? "the host")
            let shown = refusedHostKey.map { " compare the fingerprint the host shows, \($0), with the one its administrator publishes, or" } ?? ""
            return "; the host key of \(ssh?.hostName ?? target?.host ?? "the host") is not in ~/.ssh/known_hosts, or differs from the one there (a changed key may mean someone is in between: ask why before trusting it). To trust it:\(shown) connect once with `ssh \(port)\(host)`, which shows the fingerprint and adds the key to ~/.ssh/known_hosts after you compare it, then sync again"
        }
        if let certificateProblem { return "; " + certificateProblem }
        if let proxy = transport?.proxy {
            return "; the connection goes through the proxy \(proxy) (named by \(transport?.proxySource ?? "git's configuration")): is it reachable, and does it allow this host?"
        }
        if lower.contains("certificate"), transport?.caFile == nil, transport?.caPath == nil {
            return "; for a host with its own certificate authority, name the authority's certificate in git's http.sslCAInfo (or GIT_SSL_CAINFO), as for git"
        }
        return ""
    }

    /// Whether a private key file is encrypted (OpenSSH's format names a cipher, PEM says ENCRYPTED).
    static func needsPassphrase(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        if text.contains("ENCRYPTED") { return true }
        guard text.contains("BEGIN OPENSSH PRIVATE KEY") else { return false }
        let body = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        guard let data = Data(base64Encoded: body), data.count > 19 else { return false }
        // "openssh-key-v1\0", then the cipher's name as a 4-byte length and its bytes.
        let bytes = [UInt8](data)
        let magic = Array("openssh-key-v1".utf8) + [0]
        guard Array(bytes.prefix(magic.count)) == magic else { return false }
        let n = bytes[15..<19].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= 19 + n else { return false }
        return String(decoding: bytes[19..<(19 + n)], as: UTF8.self) != "none"
    }

    /// A server's certificate or host key: libgit2's verdict stands, but a refused SSH host key is
    /// remembered to show its fingerprint, and a certificate for a host given by its IP address is
    /// checked here against the configured authorities and its IP addresses (libgit2's TLS compares
    /// names only).
    func checkCertificate(_ cert: UnsafeMutablePointer<git_cert>, valid: Bool, host: String) -> Int32 {
        if valid { return 0 }
        if cert.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 {
            let key = UnsafeMutableRawPointer(cert).assumingMemoryBound(to: git_cert_hostkey.self).pointee
            if key.type.rawValue & GIT_CERT_SSH_SHA256.rawValue != 0 {
                let hash = withUnsafeBytes(of: key.hash_sha256) { Data($0) }
                refusedHostKey = "SHA256:" + hash.base64EncodedString().replacingOccurrences(of: "=", with: "")
            }
            return GIT_PASSTHROUGH.rawValue
        }
        if cert.pointee.cert_type == GIT_CERT_X509, ServerCertificate.isIPAddress(host), let transport {
            let x509 = UnsafeMutableRawPointer(cert).assumingMemoryBound(to: git_cert_x509.self).pointee
            guard let data = x509.data else { return GIT_PASSTHROUGH.rawValue }
            let der = [UInt8](UnsafeRawBufferPointer(start: data, count: x509.len))
            let system = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]
            let caFile = transport.caFile ?? (transport.caPath == nil ? system.first { FileManager.default.fileExists(atPath: $0) } : nil)
            if let problem = ServerCertificate.verify(der, ip: host, caFile: caFile, caPath: transport.caPath) {
                certificateProblem = problem
                git_error_set_str(Int32(GIT_ERROR_SSL.rawValue), problem)
                return GIT_ECERTIFICATE.rawValue
            }
            return 0
        }
        return GIT_PASSTHROUGH.rawValue
    }

    /// The login and token for a URL: `DAYBOOK_GIT_TOKEN`, else the credential helpers git's
    /// config names, else the first matching line (`https://user:token@host`) of
    /// ~/.git-credentials or $XDG_CONFIG_HOME/git/credentials.
    func token(for url: String, user: String?) -> (String, String)? {
        login(for: url, user: user).map { ($0.0, $0.1) }
    }

    private func login(for url: String, user: String?) -> (String, String, LoginSource)? {
        if let token = environment["DAYBOOK_GIT_TOKEN"], !token.isEmpty { return (user ?? "git", token, .environment) }
        if !helpers.helpers.isEmpty,
           let request = CredentialHelpers.request(for: url, user: user, usePath: transport?.credentialUseHTTPPath ?? false),
           let filled = helpers.fill(request), let login = filled.username, let password = filled.password {
            return (login, password, .helper(filled))
        }
        guard let target = URLComponents(string: url) else { return nil }
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        for file in [home + "/.git-credentials", xdg + "/git/credentials"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                guard let stored = URLComponents(string: line.trimmingCharacters(in: .whitespaces)),
                      stored.scheme == target.scheme, stored.host == target.host, stored.port == target.port,
                      let password = stored.password, user == nil || stored.user == user else { continue }
                return (stored.user ?? user ?? "git", password, .storeFile)
            }
        }
        return nil
    }
}
