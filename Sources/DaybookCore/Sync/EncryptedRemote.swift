// An encrypted remote, as git-remote-gcrypt keeps one: the diary stays a plain repository here;
// the remote's branch holds commits whose tree is `manifest` (sealed: the branch heads, the packs
// and their keys, the manifest key wrapped for each recipient) and `packs/<random name>` (one
// sealed git pack per push, of the objects that push added). The commits' author, date and
// message are fixed. A private bare repository under `.git/daybook/encrypted/` mirrors the
// remote's sealed commits, so nothing sealed enters the diary's own repository.
import Foundation

final class EncryptedRemote {
    /// What this machine remembers of the remote: the highest sequence it read (a remote that
    /// goes back is refused), the packs already indexed, the sealed commit last seen, the digest
    /// of the manifest last read or pushed (the next must follow it), and the recipients this
    /// device trusts for the remote (a manifest is accepted only when one of them signed it).
    /// Kept under `.git/daybook/encrypted/`, never in the synced tree.
    struct State: Codable {
        var sequence = 0
        var indexed: [String] = []
        var commit: String?
        var digest: String?
        var trusted: [Manifest.Recipient]?
    }

    /// What this device knows of the diary when it fetches, to judge a manifest by.
    struct Trust {
        /// recipients.yml as this diary has it (before the fetch).
        var local: [(name: String, key: PublicKey)]
        /// daybook.yml's `id`; nil for a diary made before diaries had one.
        var diaryID: String?
        /// The diary holds nothing but its first commit: it may take the remote's history whole.
        var pristine: Bool
        /// `sync --retrust`: forget the trusted recipients and the last manifest read; trust the
        /// remote's current manifest and its recipients as they are.
        var retrust: Bool
    }

    /// After a fetch: the recipients this device trusts from now on, when it trusted them just now
    /// (a first join, or `--retrust`); and the recipient changes a trusted push brought.
    private(set) var trustedNow: [(name: String, key: PublicKey)]?
    private(set) var arrivedChanges: [RecipientChange] = []
    /// After a push: how its recipients differ from those this device trusted before (a change
    /// made on this device: `key add`, `key rm`, or recipients.yml edited by hand).
    private(set) var sealedChanges: [RecipientChange] = []

    static let message = "daybook encrypted remote\n"
    static let configKey = "daybookencrypted"

    let repo: Repository
    let name: String
    let url: String
    let branch: String
    let device: DeviceKey
    let mirrorURL: URL
    let stateURL: URL
    private(set) var state: State
    /// After a fetch: the sealed commit on the remote and its manifest (nil for an empty remote).
    private(set) var sealedCommit: String?
    private(set) var manifest: Manifest?
    /// After a fetch: the remote's branch holds a plain (unencrypted) history, which the next
    /// push replaces.
    private(set) var plainHistory = false

    /// Whether `sync` encrypts what goes to this remote (`remote.<name>.daybookEncrypted`).
    static func isEncrypted(_ repo: Repository, remote: String) -> Bool {
        repo.configString("remote.\(remote).\(configKey)") == "true"
    }

    static func mark(_ repo: Repository, remote: String) throws {
        try repo.setConfig("remote.\(remote).\(configKey)", "true")
    }

    /// Turns encryption off for the remote (`sync --no-encrypt`, once its history is plain): the
    /// mark goes, and the private mirror of its sealed commits with what this machine remembers
    /// of it.
    func unmark() throws {
        try repo.removeConfig("remote.\(name).\(EncryptedRemote.configKey)")
        try? FileManager.default.removeItem(at: mirrorURL)
        try? FileManager.default.removeItem(at: stateURL)
    }

    /// Whether a commit looks like one of an encrypted remote: a plain sync must not merge it.
    static func isSealed(_ repo: Repository, commit: String) -> Bool {
        guard let entries = try? repo.treeEntries(commit: commit), let m = entries["manifest"], !m.isTree,
              let data = try? repo.blob(m.id) else { return false }
        return data.starts(with: Manifest.magic)
    }

    init(_ repo: Repository, remote name: String, url: String, branch: String, device: DeviceKey) {
        self.repo = repo
        self.name = name
        self.url = url
        self.branch = branch
        self.device = device
        let folder = repo.gitDirectory.appendingPathComponent("daybook/encrypted")
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? String($0) : "_" }.joined()
        mirrorURL = folder.appendingPathComponent(safe + ".git")
        stateURL = folder.appendingPathComponent(safe + ".json")
        state = (try? JSONDecoder().decode(State.self, from: Data(contentsOf: stateURL))) ?? State()
    }

    private func fail(_ what: String) -> DaybookError {
        DaybookError(.git, "\(name) (\(url)): \(what); nothing was merged")
    }

    private func openMirror() throws -> Repository {
        try AtomicFile.makeDirectory(mirrorURL.deletingLastPathComponent())
        return try Repository.openOrCreateBare(mirrorURL)
    }

    /// Fetches the sealed branch, opens and checks the manifest and every new pack, then indexes
    /// the packs into the diary's repository and points `refs/remotes/<name>/<branch>` at the
    /// branch's head. Returns that head (nil for an empty remote or a plain history). Any failed
    /// check throws before anything reaches the diary's repository. A plain history where this
    /// machine read a sealed one is refused, unless `plainAllowed` (`sync --no-encrypt`, after
    /// another machine turned encryption off).
    func fetch(progress: TransferProgress?, plainAllowed: Bool = false, trust: Trust) throws -> String? {
        let fresh = !FileManager.default.fileExists(atPath: mirrorURL.path)
        do {
            return try fetchChecked(progress: progress, plainAllowed: plainAllowed, trust: trust)
        } catch {
            if fresh { try? FileManager.default.removeItem(at: mirrorURL) }
            throw error
        }
    }

    private func fetchChecked(progress: TransferProgress?, plainAllowed: Bool, trust: Trust) throws -> String? {
        var mirror = try openMirror()
        let ref = "refs/remotes/all/\(branch)"
        try mirror.fetch(url: url, refspecs: ["+refs/heads/*:refs/remotes/all/*"], label: name, configuredBy: repo, progress: progress)
        // Branches gone from the remote are not pruned by an anonymous fetch; an old one is
        // harmless (its sequence is checked), so only the branch's presence matters.
        guard var commit = mirror.referenceID(ref) else {
            sealedCommit = nil
            manifest = nil
            return nil
        }
        // A remote whose history was replaced (purge, or a plain history made encrypted): the old
        // sealed objects go from this machine with the mirror, which is fetched anew.
        if let last = state.commit, last != commit, mirror.hasCommit(last), try mirror.mergeBase(commit, last) != last {
            mirror = try remakeMirror(progress: progress)
            commit = mirror.referenceID(ref) ?? commit
        }
        let entries = try mirror.treeEntries(commit: commit)
        guard let sealedManifest = entries["manifest"], !sealedManifest.isTree else {
            guard state.sequence == 0 || plainAllowed else {
                throw fail("the remote's branch `\(branch)` holds a plain history where it held an encrypted one (someone pushed to it without encryption); if another machine turned encryption off, follow it with `daybook sync \(name) --no-encrypt`")
            }
            plainHistory = true
            sealedCommit = commit
            return nil
        }
        let sealedBytes = try mirror.blob(sealedManifest.id)
        let opened = try openManifest(sealedBytes)
        // The commit this device read last (or pushed) needs no new trust; anything else must be
        // signed by a recipient this device trusts, name this diary and follow what it read.
        if trust.retrust || (commit != state.commit && opened.digest != state.digest) {
            try accept(opened, commit: commit, mirror: mirror, trust: trust)
        }
        let content = opened.manifest
        let packFolder = try entries["packs"].map { try mirror.treeEntries(tree: $0.id) } ?? [:]
        var packs: [Data] = []
        // A purge here deleted objects read from the remote before: every pack is read again (the
        // purge's reconcile then erases the entry from them, as from a plain remote's history).
        let indexed = content.refs.values.allSatisfy(repo.hasCommit) ? Set(state.indexed) : []
        for pack in content.packs where !indexed.contains(pack.name) {
            guard let blob = packFolder[pack.name], !blob.isTree else {
                throw fail("the manifest names pack \(pack.name), which is not on the remote (a half-written push)")
            }
            guard let data = SealedPack.open(try mirror.blob(blob.id), entry: pack) else {
                throw fail("pack \(pack.name) failed its integrity check: it was changed on the host")
            }
            packs.append(data)
        }
        for data in packs { try repo.indexPack(data) }
        for (b, id) in content.refs where !repo.hasCommit(id) {
            throw fail("the manifest's branch `\(b)` is at \(id.prefix(7)), which none of the remote's packs holds (a half-written push)")
        }
        state.sequence = content.sequence
        state.indexed = Array(Set(state.indexed).union(content.packs.map(\.name))).sorted()
        state.commit = commit
        if opened.signer != nil {
            state.digest = opened.digest
            state.trusted = content.recipients
        }
        try saveState()
        sealedCommit = commit
        self.manifest = content
        guard let head = content.refs[branch] else { return nil }
        try repo.setReference("refs/remotes/\(name)/\(branch)", to: head, message: "sync: fetch (encrypted)")
        return head
    }

    private func openManifest(_ sealed: Data) throws -> Manifest.Opened {
        do {
            return try Manifest.openSigned(sealed, with: device)
        } catch let failure as Manifest.Failure {
            switch failure {
            case let .malformed(why): throw fail("the remote's manifest cannot be read: \(why) (a half-written or damaged remote)")
            case .notARecipient: throw fail("this device's key (\(device.publicKey)) opens nothing on the remote: it is not one of the remote's recipients, or the remote was changed. Someone who syncs with it can run `daybook key add NAME \(device.publicKey)` and sync")
            case .tampered: throw fail("the remote's manifest failed its integrity check: it was changed on the host")
            case .badSignature: throw fail("the remote's manifest carries a signature that does not check: it was forged or changed on the host")
            }
        }
    }

    private static let retrustHint = "if the diary's recipients really changed, compare their fingerprints with their owners (`daybook key ls` on a device that has them), then `daybook sync --retrust` trusts the remote as it is now"

    /// Whether a manifest this device has not read may be merged: signed by a recipient this
    /// device trusts (and still lists), of this diary, and following the last manifest read.
    private func accept(_ opened: Manifest.Opened, commit: String, mirror: Repository, trust: Trust) throws {
        let m = opened.manifest
        guard let signer = opened.signer else {
            throw fail("the remote's manifest is not signed: it was pushed by a daybook older than this one, or by someone without a recipient's key. Upgrade daybook on every device that syncs with it; then a signed push from one of them is accepted")
        }
        let listed = m.recipientKeys
        let signerEntry = listed.first { $0.key.signing == signer }
        let signerText = signerEntry.map { "`\($0.name)` " } ?? ""
        // The fingerprint `key ls` shows on the signer's device (its whole key, when the manifest
        // lists it; else of the signing half alone).
        let signerFingerprint = (signerEntry?.key ?? PublicKey(raw: Data(), signing: signer)).fingerprint
        // The list this device trusts: what it read or pushed last; on a first join, the
        // diary's own recipients when it has any history of its own, else the remote's (shown).
        var trusted: [(name: String, key: PublicKey)]
        var firstJoin = false
        if trust.retrust || (state.trusted == nil && state.sequence == 0 && (trust.pristine || trust.local.isEmpty)) {
            trusted = listed
            firstJoin = true
        } else if let t = state.trusted {
            trusted = t.compactMap { r in (try? PublicKey(text: r.key)).map { (r.name, $0) } }
        } else {
            trusted = trust.local
            firstJoin = state.sequence == 0
        }
        guard trusted.contains(where: { $0.key.signing == signer }) else {
            if let signerEntry, let known = trusted.first(where: { signerEntry.key.sameDevice($0.key) }) {
                throw fail("recipient `\(known.name)` now signs its pushes with a key this device does not trust yet (fingerprint \(signerFingerprint), where this device knew \(known.key.fingerprint)); \(EncryptedRemote.retrustHint)")
            }
            throw fail("the remote's manifest is signed by \(signerText)a key this device does not trust (fingerprint \(signerFingerprint)): not one of the recipients it knows, so a forged push or one by a removed recipient; \(EncryptedRemote.retrustHint)")
        }
        // A recipient removed here (not yet pushed) is not trusted either.
        if !firstJoin, !trust.local.isEmpty, !trust.local.contains(where: { l in signerEntry.map { l.key.sameDevice($0.key) } == true }) {
            throw fail("the remote's manifest is signed by \(signerText)(fingerprint \(signerFingerprint)), who is no longer one of this diary's recipients")
        }
        if let id = trust.diaryID, !trust.pristine, m.diary != id {
            throw fail("the remote's manifest belongs to another diary (id \(m.diary ?? "none"); this diary's id is \(id)): the host served another diary's data, or the remote is another diary's")
        }
        if !firstJoin {
            guard m.sequence > state.sequence else {
                throw fail(m.sequence < state.sequence
                    ? "the remote went back to an older state (push \(m.sequence), this machine has read push \(state.sequence)): the host served old data or someone replaced it"
                    : "the remote's push \(m.sequence) is not the push \(m.sequence) this device read: the host served a different history")
            }
            if let last = state.digest { try follows(opened, commit: commit, last: last, mirror: mirror) }
        }
        trustedNow = firstJoin ? listed : nil
        arrivedChanges = firstJoin ? [] : RecipientChange.between(trusted, listed)
    }

    /// Walks the remote's sealed commits back from `commit` until the manifest this device read
    /// last: each must name the one before it. A replaced history (a purge) starts from a root
    /// commit whose manifest names the one it replaced, which is gone from the remote.
    private func follows(_ opened: Manifest.Opened, commit: String, last: String, mirror: Repository) throws {
        var current = opened, at = commit
        while true {
            if current.manifest.previous == last || current.digest == last { return }
            guard current.manifest.sequence > state.sequence + 1 else { break }
            guard let parent = try mirror.resolve(at).parentIDs.first else { return }
            guard let blob = try mirror.treeEntries(commit: parent)["manifest"], !blob.isTree,
                  let earlier = try? Manifest.openSigned(try mirror.blob(blob.id), with: device),
                  earlier.digest == current.manifest.previous else { break }
            (current, at) = (earlier, parent)
        }
        throw fail("the remote's manifest does not follow push \(state.sequence), the last this device read: the host served another history of pushes (an old one replayed, or a fork); \(EncryptedRemote.retrustHint)")
    }

    private func remakeMirror(progress: TransferProgress?) throws -> Repository {
        try FileManager.default.removeItem(at: mirrorURL)
        state.indexed = []
        let mirror = try openMirror()
        try mirror.fetch(url: url, refspecs: ["+refs/heads/*:refs/remotes/all/*"], label: name, configuredBy: repo, progress: progress)
        return mirror
    }

    private func saveState() throws {
        try AtomicFile.write(try JSONEncoder().encode(state), to: stateURL)
    }

    /// Seals what `head` adds to the remote (all of its history when `replacing`, or when the
    /// remote held a plain history) into one pack, writes a new manifest for `recipients`, and
    /// pushes the sealed commit: on top of the remote's, or, when replacing, as a new history of
    /// one commit, which replaces the branch only while it is still the one this sync fetched.
    /// False when the remote moved on meanwhile: fetch, merge and push again. A purge calls it
    /// with `replacing` after rewriting the diary's history.
    func push(head: String, recipients named: [(name: String, key: PublicKey)], diaryID: String, replacing: Bool,
              progress: TransferProgress?) throws -> Bool {
        let recipients = named.map(\.key)
        guard recipients.contains(where: { $0.sameDevice(device.publicKey) }) else {
            throw DaybookError.usage("this device's key is not one of the diary's recipients, so it could not read its own push: run `daybook key add NAME` (NAME for this device) first")
        }
        let replace = replacing || plainHistory || manifest == nil
        let mirror = try openMirror()
        let old = replace ? nil : manifest
        let hide = (old?.refs.values).map { Array(Set($0)).filter(repo.hasCommit) } ?? []
        let (pack, objects) = try repo.pack(tips: [head], hiding: hide)
        let (sealedPack, entry) = try SealedPack.seal(pack, objects: objects)
        var refs = old?.refs ?? [:]
        refs[branch] = head
        // Signed by this device, naming the diary, the manifest it follows and whom it is sealed for.
        let listed = named.map { Manifest.Recipient(name: $0.name, key: $0.key.description) }
        let next = Manifest(sequence: max(old?.sequence ?? 0, state.sequence) + 1, refs: refs, packs: (old?.packs ?? []) + [entry],
                            diary: diaryID, previous: state.digest, recipients: listed)
        let sealedManifest = try next.seal(for: recipients, signedBy: device)
        var packFiles: [(name: String, id: String, isTree: Bool)] = []
        if let old, let sealedCommit, let folder = try mirror.treeEntries(commit: sealedCommit)["packs"] {
            let kept = Set(old.packs.map(\.name))
            packFiles = try mirror.treeEntries(tree: folder.id).filter { kept.contains($0.key) }.map { ($0.key, $0.value.id, false) }
        }
        packFiles.append((entry.name, try mirror.writeBlob(sealedPack), false))
        let tree = try mirror.writeTree([("manifest", try mirror.writeBlob(sealedManifest), false),
                                         ("packs", try mirror.writeTree(packFiles), true)])
        let commit = try mirror.writeAnonymousCommit(tree: tree, parents: replace ? [] : sealedCommit.map { [$0] } ?? [], message: EncryptedRemote.message)
        try mirror.setReference("refs/heads/outgoing", to: commit, message: "sync: seal")
        // A replaced history overwrites only the commit this sync read (none on an empty remote).
        guard try mirror.push(url: url, source: "refs/heads/outgoing", to: "refs/heads/\(branch)",
                              replacing: replace ? sealedCommit : nil, label: name, configuredBy: repo, progress: progress) else { return false }
        try mirror.setReference("refs/remotes/all/\(branch)", to: commit, message: "sync: push (encrypted)")
        if replace && sealedCommit != nil {
            // The replaced history's sealed objects go from this machine too (a purge leaves
            // nothing that opens here); the next sync fetches the new history's one commit.
            try? FileManager.default.removeItem(at: mirrorURL)
        }
        let before = (state.trusted ?? []).compactMap { r in (try? PublicKey(text: r.key)).map { (r.name, $0) } }
        sealedChanges = state.trusted == nil ? [] : RecipientChange.between(before, named)
        if state.trusted == nil { trustedNow = named }
        state.sequence = next.sequence
        state.indexed = replace ? [entry.name] : state.indexed + [entry.name]
        state.commit = commit
        state.digest = Manifest.digest(sealedManifest)
        state.trusted = listed
        try saveState()
        sealedCommit = commit
        manifest = next
        plainHistory = false
        try repo.setReference("refs/remotes/\(name)/\(branch)", to: head, message: "sync: push (encrypted)")
        return true
    }
}
