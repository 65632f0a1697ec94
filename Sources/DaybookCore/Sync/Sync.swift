// `sync`: commit pending changes, fetch, merge by daybook's own rules, push; never lose a change.
import Foundation

/// What one sync did.
public struct SyncReport {
    public var remote: String
    public var url: String
    /// The commit of edits made outside daybook before syncing, if any.
    public var outsideCommit: String?
    /// Changes (commits) received from the remote, and sent to it.
    public var received = 0
    public var sent = 0
    public var fastForward = false
    public var mergeCommit: String?
    public var conflicts: [TreeMerge.Conflict] = []
    public var renamed: [(from: String, to: String)] = []
    /// Entries a purge on another machine erased, now erased from this diary's history too.
    public var erasedHere = 0
    /// The remote's branch was replaced by this diary's purged history.
    public var replacedRemote = false
    /// The remote's plain history was replaced by an encrypted one; its old commits may stay on
    /// the host until deleted there.
    public var replacedPlainHistory = false
    /// Encryption was turned off (`decrypt`): the remote is plain from now on.
    public var encryptionOff = false
    /// Turning it off replaced the remote's sealed history by the diary's plain one.
    public var replacedSealedHistory = false
    /// This device's key got its signing half in this sync (a key made before pushes were signed).
    public var signingHalfMade = false
    /// The recipients this device trusts for an encrypted remote from now on, when it came to
    /// trust them in this sync (its first sync with the remote, or `--retrust`).
    public var trusting: [(name: String, key: PublicKey)]?
    /// Recipients a trusted push from another device added or removed.
    public var recipientsArrived: [RecipientChange] = []
    /// Recipients this sync's push added or removed (changed on this device).
    public var recipientsSent: [RecipientChange] = []
    /// A recipient line of this device's key got its signing half, under this name.
    public var upgradedRecipient: String?
    /// The diary had nothing but its first commit and took the remote's history whole.
    public var tookRemoteHistory = false
}

public enum DiarySync {
    /// Syncs the diary's current branch with `remote` (else its upstream's remote, else `origin`).
    /// `setURL` first creates the remote or points it at that URL; `encrypt` marks the remote
    /// encrypted (from then on every sync with it seals what it sends, as EncryptedRemote says);
    /// `decrypt` turns that off: the sealed history is merged, then replaced by the diary's plain
    /// one (or, made plain by another machine already, synced as a plain remote), and the mark
    /// goes. The remote's branch is the upstream branch, else one of the same name; an empty
    /// remote receives the diary.
    ///
    /// On an encrypted remote a manifest is merged only when a recipient this device trusts signed
    /// it, it names this diary and follows the last manifest read (EncryptedRemote.accept);
    /// `retrust` trusts the remote's current manifest and recipients as they are. A purge record
    /// from a plain remote is applied only with `applyPurge` (a push to an encrypted remote is
    /// signed by a trusted recipient, which is its authority).
    public static func run(_ diary: Diary, remote: String?, setURL: String?, push: Bool, encrypt: Bool = false, decrypt: Bool = false,
                           retrust: Bool = false, applyPurge: Bool = false,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           progress: TransferProgress? = nil) throws -> SyncReport {
        let change = try Change(diary)
        let repo = change.repository
        // A diary that holds nothing but its first commit (a fresh `init`) may take a remote's
        // history whole; any other with no commit in common with the remote is refused.
        let pristine = try repo.headID.map { try repo.resolve($0).parentIDs.isEmpty } ?? true
        let branch = try repo.currentBranch()
        let upstream = repo.upstream(of: branch)
        let name = remote ?? upstream?.remote ?? "origin"
        if decrypt {
            guard !encrypt else { throw DaybookError.usage("choose one of --encrypt and --no-encrypt") }
            guard push else {
                throw DaybookError.usage("--no-encrypt replaces the remote's encrypted history by a push, so it cannot go with --no-push")
            }
            guard EncryptedRemote.isEncrypted(repo, remote: name) else {
                throw DaybookError.usage("`\(name)` is not an encrypted remote: there is no encryption to turn off")
            }
        }
        let encrypted = encrypt || EncryptedRemote.isEncrypted(repo, remote: name)
        // The key is checked before anything is written.
        let loaded = encrypted ? try DeviceKey.required(environment: environment) : nil
        let device = loaded?.key
        if let setURL { try repo.setRemote(name, url: setURL) }
        guard let url = repo.remoteURL(name) else {
            throw DaybookError.usage("the diary has no remote `\(name)`: name one with `daybook sync --set-remote URL`")
        }
        if encrypt { try EncryptedRemote.mark(repo, remote: name) }
        let remoteBranch = upstream.flatMap { $0.remote == name ? $0.branch : nil } ?? branch
        let tracking = "refs/remotes/\(name)/\(remoteBranch)"
        let sealed = device.map { EncryptedRemote(repo, remote: name, url: url, branch: remoteBranch, device: $0) }
        var report = SyncReport(remote: name, url: url, outsideCommit: change.outsideCommit)
        report.signingHalfMade = loaded?.signingHalfMade ?? false
        guard !retrust || sealed != nil else {
            throw DaybookError.usage("--retrust is for an encrypted remote: `\(name)` is not one (`daybook sync \(name) --encrypt`)")
        }
        // Read only for an encrypted remote: a plain sync does not depend on recipients.yml.
        let trust = sealed == nil ? nil : EncryptedRemote.Trust(local: try Recipients.read(diary).keys, diaryID: diary.config.id,
                                                                pristine: pristine, retrust: retrust)
        var attempts = 0
        while true {
            attempts += 1
            var theirs: String?
            // The remote branch as this round fetched it: the push moves it only from there.
            var fetched: String?? = .none
            // The remote's history is to be replaced by the diary's (on an encrypted remote: a
            // new sealed history of one pack).
            var replace = false
            if let sealed {
                theirs = try sealed.fetch(progress: progress, plainAllowed: decrypt, trust: trust ?? EncryptedRemote.Trust(local: [], diaryID: nil, pristine: false, retrust: false))
                if let now = sealed.trustedNow { report.trusting = now }
                report.recipientsArrived += sealed.arrivedChanges
                if sealed.plainHistory {
                    // A plain remote made encrypted: its history is merged, then replaced. Turning
                    // encryption off, one another machine made plain: synced as a plain remote.
                    try repo.fetch(remote: name, progress: progress)
                    theirs = repo.referenceID(tracking)
                    replace = !decrypt
                } else if decrypt && sealed.sealedCommit != nil {
                    // Turning encryption off: the sealed history is merged, then replaced.
                    replace = true
                }
            } else {
                try repo.fetch(remote: name, progress: progress)
                theirs = repo.referenceID(tracking)
                fetched = theirs
                if let t = theirs, EncryptedRemote.isSealed(repo, commit: t) {
                    repo.removeReference(tracking)
                    throw DaybookError(.git, "\(name) (\(url)) is an encrypted remote: sync with it by `daybook sync \(name) --encrypt` (this device's key must be one of its recipients); nothing was merged")
                }
            }
            // A purge made on either machine: applied here, and the remote's branch replaced.
            var replaces: String?
            if let t = theirs {
                let purged = try HistoryPurge.reconcile(change, theirs: t, confirmed: applyPurge || sealed.map { !$0.plainHistory } == true,
                                                        report: &report)
                (theirs, replaces) = (purged.theirs, purged.replaces)
                if replaces != nil { replace = true }
            }
            if let theirs { try integrate(theirs, into: change, pristine: pristine, report: &report) }
            guard push, let head = repo.headID else { break }
            let ahead = try theirs.map { try repo.aheadBehind(head, $0).ahead } ?? 1
            if ahead == 0 && !replace { break }
            let pushed: Bool
            if let sealed, let device, !decrypt {
                let (id, upgraded) = try prepareSealedPush(change, device: device)
                if let upgraded { report.upgradedRecipient = upgraded }
                guard let head = repo.headID else { break }
                pushed = try sealed.push(head: head, recipients: try Recipients.read(diary).keys, diaryID: id, replacing: replace, progress: progress)
                if pushed {
                    if report.trusting == nil, let now = sealed.trustedNow { report.trusting = now }
                    report.recipientsSent += sealed.sealedChanges
                }
            } else {
                // A sealed history is replaced only while the remote's branch is the sealed
                // commit this sync fetched.
                let sealedHead = sealed.flatMap { $0.plainHistory ? nil : $0.sealedCommit }
                pushed = try repo.push(remote: name, branch: branch, to: remoteBranch, replacing: sealedHead ?? replaces,
                                       from: sealedHead == nil && replaces == nil ? fetched : .none, progress: progress)
                report.replacedSealedHistory = report.replacedSealedHistory || (pushed && sealedHead != nil)
            }
            if pushed {
                report.replacedPlainHistory = report.replacedPlainHistory || (sealed != nil && !decrypt && replace && replaces == nil)
                report.replacedRemote = report.replacedRemote || replaces != nil
                // An empty remote (or a replaced history) received the whole history.
                report.sent += theirs == nil || replace ? try commitCount(repo) : ahead
                break
            }
            // Someone pushed meanwhile: fetch and merge that too, then push again.
            guard attempts < 3 else {
                throw DaybookError(.git, "cannot push to \(name) (\(url)): it kept changing during the sync; run `daybook sync` again")
            }
        }
        if decrypt, let sealed {
            // The remote's branch is plain now: pushed by this sync, or by another machine's.
            try sealed.unmark()
            report.encryptionOff = true
        }
        if upstream == nil || setURL != nil, repo.referenceID(tracking) != nil {
            try repo.setUpstream(of: branch, remote: name, remoteBranch: remoteBranch)
        }
        return report
    }

    /// Before a sealed push: the diary's id (made and committed when daybook.yml has none, for a
    /// diary made before diaries had one, and the remote named none to take), and this device's
    /// recipient line given its signing half (committed). Returns the id and the upgraded name.
    static func prepareSealedPush(_ change: Change, device: DeviceKey) throws -> (id: String, upgraded: String?) {
        let diary = change.diary, repo = change.repository
        let file = "daybook.yml"
        let data = diary.regularFileContents(file) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        var id = try DiaryConfig.parse(text, path: diary.displayPath(file)).id
        if id == nil {
            let made = DiaryConfig.newDiaryID()
            try AtomicFile.write(Data(((text.isEmpty || text.hasSuffix("\n") ? text : text + "\n") + "id: \(made)\n").utf8), to: diary.url(file))
            _ = try repo.commit(paths: [file], message: "sync: the diary's id, which its encrypted remote's manifests name")
            id = made
        }
        var upgraded: String?
        if let (name, newText) = try Recipients.upgraded(to: device.publicKey, in: diary) {
            try AtomicFile.write(newText, to: diary.url(Recipients.file))
            _ = try repo.commit(paths: [Recipients.file], message: "key: recipient \(name) signs its pushes (its key's signing half added)")
            upgraded = name
        }
        return (id ?? "", upgraded)
    }

    static func commitCount(_ repo: Repository) throws -> Int {
        var n = 0
        try repo.walk { _ in n += 1; return true }
        return n
    }

    /// Brings the remote commit `theirs` into the working tree and the branch: nothing when the
    /// diary has it already, a fast-forward when the diary has nothing new, else a merge commit.
    static func integrate(_ theirs: String, into change: Change, pristine: Bool = false, report: inout SyncReport) throws {
        let repo = change.repository
        guard let ours = repo.headID, ours != theirs else { return }
        let base = try repo.mergeBase(ours, theirs)
        if base == theirs { return }
        if base == nil {
            guard pristine else { throw unrelated(report) }
            try take(theirs, over: ours, in: change, report: &report)
            return
        }
        let behind = try repo.aheadBehind(ours, theirs).behind
        let merge = try TreeMerge(base: base.map(repo.blobIDs) ?? [:], ours: repo.blobIDs(commit: ours),
                                  theirs: repo.blobIDs(commit: theirs), remoteHash: String(theirs.prefix(7)), load: repo.blob)
        // A tree from elsewhere must not write outside the diary or into the repository itself;
        // checked before anything is written.
        for (path, _) in merge.changes { try checkWritable(path) }
        // The merge's files land together or not at all: a sync killed half way is rolled back
        // by the next change, and the next sync merges again.
        if merge.changes.count > 1 { try change.allOrNothing("sync") }
        for (path, content) in merge.changes {
            switch content {
            case let .blob(id)?: try change.write(repo.blob(id), to: path)
            case let .data(data)?: try change.write(data, to: path)
            case nil: try change.remove(path)
            }
        }
        report.received += behind
        report.conflicts += merge.conflicts
        report.renamed += merge.renamed
        if base == ours, merge.conflicts.isEmpty, merge.renamed.isEmpty, try change.fastForward(to: theirs) {
            report.fastForward = true
            return
        }
        var message = "sync: merge \(behind) change\(behind == 1 ? "" : "s") from \(report.remote)"
        if !merge.conflicts.isEmpty {
            message += "\n\nBoth machines changed these; this machine's version kept, the other beside it:\n"
                + merge.conflicts.map { "\($0.path) -> \($0.copy) (\($0.reason))" }.joined(separator: "\n")
        }
        for r in merge.renamed { message += "\n\nBoth machines added \(r.from); the other machine's is now \(r.to)" }
        report.mergeCommit = try change.commitMerge(message, with: theirs)
    }

    /// A tree from elsewhere must not write outside the diary or into the repository itself;
    /// checked before anything is written.
    static func checkWritable(_ path: String) throws {
        let parts = path.split(separator: "/")
        guard !path.hasPrefix("/"), !parts.contains(".."), !parts.contains(where: { $0.lowercased() == ".git" }) else {
            throw DaybookError(.git, "the remote's history holds a path daybook will not write: \(path)")
        }
    }

    /// Two histories with no commit in common are two diaries: never merged.
    static func unrelated(_ report: SyncReport) -> DaybookError {
        DaybookError(.git, "\(report.remote) (\(report.url)): the remote's history and this diary's have no commit in common, so they are two different diaries (or the host served another diary's); nothing was merged. To start over deliberately: to make a copy of the remote, sync a new, empty diary with it (`daybook init NEWDIR` then `daybook --diary NEWDIR sync --set-remote \(report.url)`: a diary with nothing but its first commit takes the remote's history whole); to put this diary on a remote, sync it with a new, empty one (`daybook sync --set-remote NEW-URL`)")
    }

    /// A diary with nothing but its first commit takes the remote's history whole: its files
    /// become the remote's, and its branch moves to the remote's head.
    static func take(_ theirs: String, over ours: String, in change: Change, report: inout SyncReport) throws {
        let repo = change.repository
        let mine = try repo.blobIDs(commit: ours), other = try repo.blobIDs(commit: theirs)
        for path in other.keys { try checkWritable(path) }
        for (path, id) in other where mine[path] != id { try change.write(repo.blob(id), to: path) }
        for path in mine.keys where other[path] == nil { try change.remove(path) }
        guard try change.fastForward(to: theirs) else {
            throw DaybookError(.git, "\(report.remote) (\(report.url)): could not take the remote's history: the files written differ from its head's")
        }
        report.received += try repo.aheadBehind(ours, theirs).behind
        report.fastForward = true
        report.tookRemoteHistory = true
    }
}
