// The callbacks of one fetch or push: credentials for SSH and HTTPS, progress, refused references.
import Foundation
import CLibGit2

/// Passed to libgit2 as the callbacks' payload; lives for one transfer.
final class RemoteSession {
    let progress: TransferProgress?
    private var triedAgent = false
    private var keyFiles: [String]
    private var triedToken = false
    private var lastPercent = -1
    /// Statuses of references the remote refused to update.
    var refusals: [String] = []
    let home: String
    let environment: [String: String]

    init(progress: TransferProgress?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.progress = progress
        self.environment = environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        self.home = home
        keyFiles = ["id_ed25519", "id_ecdsa", "id_rsa"].map { "\(home)/.ssh/\($0)" }
    }

    func install(_ callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, user, allowed, payload in
            guard let out, let payload else { return GIT_PASSTHROUGH.rawValue }
            return RemoteSession.from(payload).credential(out, url: url.map { String(cString: $0) } ?? "",
                                                          user: user.map { String(cString: $0) }, allowed: allowed)
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

    /// SSH: the agent, then the key files in ~/.ssh. HTTPS: `DAYBOOK_GIT_TOKEN`, else a token
    /// stored for the host by git's `store` credential helper. Each is offered once, so a refused
    /// credential ends in an error instead of a loop.
    func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, url: String, user: String?, allowed: UInt32) -> Int32 {
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            let name = user ?? "git"
            if !triedAgent {
                triedAgent = true
                if !(environment["SSH_AUTH_SOCK"] ?? "").isEmpty { return git_credential_ssh_key_from_agent(out, name) }
            }
            while let key = keyFiles.first {
                keyFiles.removeFirst()
                guard FileManager.default.fileExists(atPath: key) else { continue }
                let pub = FileManager.default.fileExists(atPath: key + ".pub") ? key + ".pub" : nil
                return git_credential_ssh_key_new(out, name, pub, key, nil)
            }
            git_error_set_str(Int32(GIT_ERROR_SSH.rawValue), "no SSH key was accepted (tried the SSH agent and ~/.ssh/id_ed25519, id_ecdsa, id_rsa)")
            return GIT_EAUTH.rawValue
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            if !triedToken, let (login, token) = token(for: url, user: user) {
                triedToken = true
                return git_credential_userpass_plaintext_new(out, login, token)
            }
            git_error_set_str(Int32(GIT_ERROR_HTTP.rawValue), triedToken ? "the remote refused the token"
                              : "the remote wants a login: set DAYBOOK_GIT_TOKEN, or store a token with git's credential store")
            return GIT_EAUTH.rawValue
        }
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 { return git_credential_username_new(out, user ?? "git") }
        return GIT_PASSTHROUGH.rawValue
    }

    /// The login and token for a URL: `DAYBOOK_GIT_TOKEN`, else the first matching line
    /// (`https://user:token@host`) of ~/.git-credentials or $XDG_CONFIG_HOME/git/credentials.
    func token(for url: String, user: String?) -> (String, String)? {
        if let token = environment["DAYBOOK_GIT_TOKEN"], !token.isEmpty { return (user ?? "git", token) }
        guard let target = URLComponents(string: url) else { return nil }
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        for file in [home + "/.git-credentials", xdg + "/git/credentials"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                guard let stored = URLComponents(string: line.trimmingCharacters(in: .whitespaces)),
                      stored.scheme == target.scheme, stored.host == target.host, stored.port == target.port,
                      let password = stored.password, user == nil || stored.user == user else { continue }
                return (stored.user ?? user ?? "git", password)
            }
        }
        return nil
    }
}
