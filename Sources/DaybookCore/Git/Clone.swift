// Read-only copies of other people's repositories (a study's participants): clone, and move a
// copy forward to what its remote holds, without ever committing or pushing.
import Foundation
import CLibGit2

extension Repository {
    /// Clones `url` (any URL libgit2 supports, or a path) into the new folder `folder`, checking
    /// out `branch` (default: the remote's default branch).
    public static func clone(_ url: String, to folder: URL, branch: String?, progress: TransferProgress?) throws -> Repository {
        _ = initialized
        var opts = git_clone_options()
        try check(git_clone_options_init(&opts, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        // Reached as git would reach it (insteadOf, ~/.ssh/config, certificates, helpers, proxy).
        let transport = RemoteTransport.resolve(url, direction: .fetch, config: defaultConfigEntries(matching: RemoteTransport.configPattern))
        let session = RemoteSession(progress: progress, transport: transport)
        session.install(&opts.fetch_opts.callbacks)
        session.install(&opts.fetch_opts.proxy_opts)
        try transport.applyCertificateAuthorities()
        var repo: OpaquePointer?
        let code: Int32 = withExtendedLifetime(session) {
            privately {
                if let branch {
                    return branch.withCString { b in
                        opts.checkout_branch = b
                        return git_clone(&repo, transport.url, folder.path, &opts)
                    }
                }
                return git_clone(&repo, transport.url, folder.path, &opts)
            }
        }
        guard code == 0, let repo else {
            let reason = Repository.lastErrorMessage()
            throw DaybookError(.git, "cannot clone \(url): \(reason)\(session.advice(for: reason))")
        }
        git_repository_free(repo)
        session.succeeded()
        let cloned = try Repository.open(folder)
        // origin keeps the URL as given, as git's clone does; it is rewritten again at each fetch.
        if transport.url != url { try cloned.setRemote("origin", url: url) }
        return cloned
    }

    /// Fetches `origin` and moves the current branch forward to the remote's branch, updating the
    /// files (a checkout that refuses to overwrite local changes). Returns how many commits came
    /// in; throws when the copy has commits the remote lacks, since a read-only copy never merges.
    public func pullFastForward(branch wanted: String?, progress: TransferProgress?) throws -> Int {
        try fetch(remote: "origin", progress: progress)
        let branch = try currentBranch()
        let remoteBranch = wanted ?? upstream(of: branch)?.branch ?? branch
        guard let theirs = referenceID("refs/remotes/origin/\(remoteBranch)") else {
            throw DaybookError(.git, "the remote has no branch `\(remoteBranch)`")
        }
        guard let ours = headID else { throw DaybookError(.git, "the copy has no commit on \(branch)") }
        if ours == theirs { return 0 }
        guard try mergeBase(ours, theirs) == ours else {
            throw DaybookError(.git, "the copy has commits its remote lacks (history rewritten, or a change made in the copy); remove the folder and sync again")
        }
        let behind = try aheadBehind(ours, theirs).behind
        let target = try lookupCommit(theirs)
        defer { git_commit_free(target) }
        var checkout = git_checkout_options()
        try Repository.check(git_checkout_options_init(&checkout, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        checkout.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue
        let code = Repository.privately { git_checkout_tree(handle, target, &checkout) }
        guard code == 0 else {
            throw DaybookError(.git, "cannot update the files of the copy: \(Repository.lastErrorMessage()) (were files in it changed?)")
        }
        try moveBranch(to: theirs, message: "study sync: fast-forward")
        return behind
    }
}
