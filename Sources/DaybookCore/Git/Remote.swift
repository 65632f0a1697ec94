// Remotes: naming them, fetching from and pushing to them over any transport libgit2 has.
import Foundation
import CLibGit2

/// Progress of a transfer: what is moving, how many objects are done, how many in all.
public typealias TransferProgress = (_ what: String, _ done: Int, _ total: Int) -> Void

extension Repository {
    /// The branch HEAD is on.
    public func currentBranch() throws -> String {
        var head: OpaquePointer?
        guard git_repository_head(&head, handle) == 0, let head else {
            throw DaybookError(.git, "the diary's repository has no current branch")
        }
        defer { git_reference_free(head) }
        guard git_reference_is_branch(head) == 1, let name = git_reference_shorthand(head) else {
            throw DaybookError(.git, "the diary's repository is not on a branch (detached HEAD): check out a branch first")
        }
        return String(cString: name)
    }

    /// The URL of a remote, nil when there is no such remote.
    public func remoteURL(_ name: String) -> String? {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, handle, name) == 0 else { return nil }
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }
    }

    /// Creates the remote, or points it at a new URL.
    public func setRemote(_ name: String, url: String) throws {
        if remoteURL(name) != nil {
            try Repository.check(git_remote_set_url(handle, name, url), "git_remote_set_url")
        } else {
            var remote: OpaquePointer?
            try Repository.check(git_remote_create(&remote, handle, name, url), "git_remote_create")
            git_remote_free(remote)
        }
    }

    /// The remote and remote branch a branch syncs with (`branch.<name>.remote` and `.merge`).
    public func upstream(of branch: String) -> (remote: String, branch: String)? {
        guard let remote = configString("branch.\(branch).remote"), let merge = configString("branch.\(branch).merge") else { return nil }
        return (remote, merge.hasPrefix("refs/heads/") ? String(merge.dropFirst("refs/heads/".count)) : merge)
    }

    public func setUpstream(of branch: String, remote: String, remoteBranch: String) throws {
        try setConfig("branch.\(branch).remote", remote)
        try setConfig("branch.\(branch).merge", "refs/heads/" + remoteBranch)
    }

    /// Sets a value in the repository's own configuration.
    public func setConfig(_ key: String, _ value: String) throws {
        var cfg: OpaquePointer?
        try Repository.check(git_repository_config(&cfg, handle), "git_repository_config")
        defer { git_config_free(cfg) }
        try Repository.check(git_config_set_string(cfg, key, value), "git_config_set_string")
    }

    /// Removes a value from the repository's own configuration (nothing when it is not set).
    public func removeConfig(_ key: String) throws {
        var cfg: OpaquePointer?
        try Repository.check(git_repository_config(&cfg, handle), "git_repository_config")
        defer { git_config_free(cfg) }
        let code = git_config_delete_entry(cfg, key)
        if code != GIT_ENOTFOUND.rawValue { try Repository.check(code, "git_config_delete_entry") }
    }

    /// Fetches the remote's branches into `refs/remotes/<name>/`.
    public func fetch(remote name: String, progress: TransferProgress?) throws {
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        let url = configString("remote.\(name).url") ?? remoteURL(name) ?? "?"
        let transport = RemoteTransport.resolve(url, remoteName: name, direction: .fetch, repo: self)
        try Repository.check(git_remote_set_instance_url(remote, transport.url), "git_remote_set_instance_url")
        try fetch(remote, refspecs: nil, label: name, transport: transport, progress: progress)
    }

    /// Fetches `refspecs` from `url` with no remote configured for it (nothing else is updated).
    /// The transport follows `configuredBy`'s configuration (the diary's, for its encrypted
    /// remote's private mirror), else this repository's; `label` is the remote's name there.
    func fetch(url: String, refspecs: [String], label: String, configuredBy: Repository? = nil, progress: TransferProgress?) throws {
        let transport = RemoteTransport.resolve(url, remoteName: label, direction: .fetch, repo: configuredBy ?? self)
        let remote = try anonymousRemote(transport.url)
        defer { git_remote_free(remote) }
        try fetch(remote, refspecs: refspecs, label: label, transport: transport, progress: progress)
    }

    private func fetch(_ remote: OpaquePointer?, refspecs: [String]?, label: String, transport: RemoteTransport, progress: TransferProgress?) throws {
        let session = RemoteSession(progress: progress, transport: transport)
        var opts = git_fetch_options()
        try Repository.check(git_fetch_options_init(&opts, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        session.install(&opts.callbacks)
        session.install(&opts.proxy_opts)
        try transport.applyCertificateAuthorities()
        let code = withExtendedLifetime(session) { () -> Int32 in
            guard let refspecs else { return git_remote_fetch(remote, nil, &opts, "sync: fetch") }
            return withPathspec(refspecs) { git_remote_fetch(remote, $0, &opts, "sync: fetch") }
        }
        guard code == 0 else { throw remoteFailure("fetch from", label, transport.configuredURL, session) }
        session.succeeded()
    }

    /// Pushes a local branch to a remote branch. False when the remote refused it because it
    /// moved on meanwhile (not a fast-forward): fetch and merge again, then push.
    /// `replacing` (after a purge) replaces the remote branch even though it is not a fast-forward,
    /// but only while it still points at that commit: the push reads the branch on the connection
    /// it sends on, and the remote accepts the update only from that value, so a push made
    /// meanwhile is never overwritten (false: fetch and merge it first).
    /// `from`, when given, is the value of the remote branch the caller fetched (nil: it had none):
    /// the branch is updated only while it still has that value (a compare-and-swap, on every
    /// transport), else false.
    public func push(remote name: String, branch: String, to remoteBranch: String, replacing: String? = nil,
                     from fetched: String?? = .none, progress: TransferProgress?) throws -> Bool {
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        let url = configString("remote.\(name).url") ?? remoteURL(name) ?? "?"
        let transport = RemoteTransport.resolve(url, remoteName: name, pushURL: configString("remote.\(name).pushurl"), direction: .push, repo: self)
        try Repository.check(git_remote_set_instance_pushurl(remote, transport.url), "git_remote_set_instance_pushurl")
        // Pushed elsewhere than fetched from (pushurl, pushInsteadOf): what the fetch saw says
        // nothing of the push's repository, so the push is a plain fast-forward there, as git's.
        let fetchedHere = transport.url == RemoteTransport.resolve(url, remoteName: name, direction: .fetch, repo: self).url ? fetched : .none
        return try push(remote, source: "refs/heads/\(branch)", to: "refs/heads/\(remoteBranch)", replacing: replacing,
                        fetched: fetchedHere, label: name, transport: transport, progress: progress)
    }

    /// Pushes `source` to the reference `target` of `url`, with no remote configured for it;
    /// false as above. `replacing` replaces the remote's reference even when that is not a
    /// fast-forward, but only while it still points at that commit (false when it moved).
    func push(url: String, source: String, to target: String, replacing: String?, label: String, configuredBy: Repository? = nil,
              progress: TransferProgress?) throws -> Bool {
        let transport = RemoteTransport.resolve(url, remoteName: label, direction: .push, repo: configuredBy ?? self)
        let remote = try anonymousRemote(transport.url)
        defer { git_remote_free(remote) }
        return try push(remote, source: source, to: target, replacing: replacing, fetched: .none, label: label, transport: transport, progress: progress)
    }

    /// A push updates the remote's reference only from the value read on the connection it sends
    /// on (and, with `fetched`, only when that is the value the caller fetched; with `replacing`,
    /// that commit): git's own protocol sends that value and the remote compares it under its
    /// lock. libgit2's push into a repository on this machine (a path, `file://`) writes the
    /// reference whatever it holds by then, so two syncs at once could move it back (issue 38):
    /// there daybook copies the objects and moves the reference itself, by a compare-and-swap.
    private func push(_ remote: OpaquePointer?, source: String, to target: String, replacing: String?, fetched: String??,
                      label: String, transport: RemoteTransport, progress: TransferProgress?) throws -> Bool {
        let url = transport.url
        let session = RemoteSession(progress: progress, transport: transport)
        var opts = git_push_options()
        try Repository.check(git_push_options_init(&opts, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        session.install(&opts.callbacks)
        session.install(&opts.proxy_opts)
        try transport.applyCertificateAuthorities()
        var moved = false
        var local: Bool?
        var failure: Error?
        // git_remote_push in two steps: the upload writes into the remote (under the user's umask,
        // as git would), the tracking refs it updates are the diary's (private).
        let code = withExtendedLifetime(session) { () -> Int32 in
            defer { git_remote_disconnect(remote) }
            // The reference is read on the connection the push then uses.
            let connected = git_remote_connect(remote, GIT_DIRECTION_PUSH, &opts.callbacks, &opts.proxy_opts, &opts.custom_headers)
            if connected != 0 { return connected }
            let advertised = Repository.advertised(remote, target)
            if let replacing, advertised != replacing { moved = true; return 0 }
            if case let .some(expected) = fetched, advertised != expected { moved = true; return 0 }
            if let path = Repository.localPath(url) {
                do {
                    local = try pushLocal(into: path, source: source, target: target, from: advertised, force: replacing != nil,
                                          remoteName: git_remote_name(remote).map { String(cString: $0) })
                } catch {
                    failure = error
                }
                return 0
            }
            let sent = withPathspec([(replacing == nil ? "" : "+") + source + ":" + target]) { spec in
                PrivateUmask.asUser { git_remote_upload(remote, spec, &opts) }
            }
            return sent != 0 ? sent : git_remote_update_tips(remote, &opts.callbacks, 0, GIT_REMOTE_DOWNLOAD_TAGS_UNSPECIFIED, nil)
        }
        // The login worked (whatever the reference then did): a helper's credential is approved.
        if code == 0 && failure == nil { session.succeeded() }
        if moved { return false }
        if let failure { throw failure }
        if let local { return local }
        if code != 0 {
            if Repository.lastErrorMessage().lowercased().contains("fast") { return false }
            throw remoteFailure("push to", label, transport.configuredURL, session)
        }
        if let refusal = session.refusals.first {
            // Moved meanwhile: not a fast-forward any more, or (git's receive-pack comparing the
            // value this push read, under its lock) changed since it was read.
            let moved = ["fast", "fetch first", "failed to update ref", "failed to lock", "cannot lock", "stale info"]
            if moved.contains(where: refusal.lowercased().contains) { return false }
            throw DaybookError(.git, "cannot push to \(label) (\(transport.configuredURL)): the remote refused: \(refusal)")
        }
        return true
    }

    /// The folder of a remote libgit2 reaches by its local transport: a `file://` URL, or a path
    /// to a folder (as libgit2 decides); nil for any other URL.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("file://") { return URL(string: url)?.path ?? String(url.dropFirst("file://".count)) }
        var isDir: ObjCBool = false
        guard !url.contains("://"), FileManager.default.fileExists(atPath: url, isDirectory: &isDir), isDir.boolValue else { return nil }
        return url
    }

    /// Pushes `source` into the repository at `path` (on this machine): its objects as one pack,
    /// then `target` moved from `current` (nil: it must not exist) to it by a compare-and-swap
    /// under the reference's lock, a fast-forward unless `force`. False when the reference moved
    /// meanwhile or the push is not a fast-forward; the tracking reference of a named remote follows.
    private func pushLocal(into path: String, source: String, target: String, from current: String?, force: Bool,
                           remoteName: String?) throws -> Bool {
        guard let head = referenceID(source) else { throw DaybookError(.git, "no \(source) to push") }
        if let current, !force {
            var a = try oid(head), b = try oid(current)
            guard current == head || (hasCommit(current) && git_graph_descendant_of(handle, &a, &b) == 1) else { return false }
        }
        let (pack, objects) = try self.pack(tips: [head], hiding: current.map { hasCommit($0) ? [$0] : [] } ?? [])
        let moved: Bool = try PrivateUmask.asUser {
            let remote = try Repository.open(URL(fileURLWithPath: path))
            if objects > 0 { try remote.indexPack(pack) }
            var new = try oid(head)
            var out: OpaquePointer?
            let code: Int32
            if let current {
                var old = try oid(current)
                code = git_reference_create_matching(&out, remote.handle, target, &new, 1, &old, "push")
            } else {
                code = git_reference_create_matching(&out, remote.handle, target, &new, 0, nil, "push")
            }
            if out != nil { git_reference_free(out) }
            // Another push holds the branch (its lock) or has moved it: the remote moved; fetch and merge again.
            if code == GIT_EMODIFIED.rawValue || code == GIT_EEXISTS.rawValue || code == GIT_ELOCKED.rawValue { return false }
            try Repository.check(code, "git_reference_create_matching")
            return true
        }
        guard moved else { return false }
        if let remoteName, target.hasPrefix("refs/heads/") {
            try setReference("refs/remotes/\(remoteName)/" + target.dropFirst("refs/heads/".count), to: head, message: "sync: push")
        }
        return true
    }

    /// The commit a connected remote advertises for a reference.
    private static func advertised(_ remote: OpaquePointer?, _ ref: String) -> String? {
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        guard git_remote_ls(&heads, &count, remote) == 0, let heads else { return nil }
        for i in 0..<count {
            if let h = heads[i]?.pointee, String(cString: h.name) == ref { return string(h.oid) }
        }
        return nil
    }

    private func anonymousRemote(_ url: String) throws -> OpaquePointer? {
        var remote: OpaquePointer?
        try Repository.check(git_remote_create_anonymous(&remote, handle, url), "git_remote_create_anonymous")
        return remote
    }

    private func lookupRemote(_ name: String) throws -> OpaquePointer? {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, handle, name) == 0 else {
            throw DaybookError.usage("the diary has no remote `\(name)`: name one with `daybook sync --set-remote URL`")
        }
        return remote
    }

    static func lastErrorMessage() -> String {
        guard let e = git_error_last(), let m = e.pointee.message else { return "unknown error" }
        return String(cString: m).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// One line: what failed, against which remote, and libgit2's reason.
    private func remoteFailure(_ what: String, _ name: String, _ url: String, _ session: RemoteSession) -> DaybookError {
        var reason = Repository.lastErrorMessage()  // before any other libgit2 call replaces it
        reason += session.advice(for: reason)
        let features = UInt32(bitPattern: git_libgit2_features())
        let ssh = url.hasPrefix("ssh://") || (!url.contains("://") && url.contains("@") && url.contains(":"))
        if ssh && features & GIT_FEATURE_SSH.rawValue == 0 { reason += " (this build of libgit2 has no SSH support)" }
        if url.hasPrefix("https://") && features & GIT_FEATURE_HTTPS.rawValue == 0 { reason += " (this build of libgit2 has no HTTPS support)" }
        return DaybookError(.git, "cannot \(what) \(name) (\(url)): \(reason)")
    }
}
