// An encrypted remote, as git-remote-gcrypt keeps one: the diary stays a plain repository here;
// the remote's branch holds commits whose tree is `manifest` (sealed: the branch heads, the packs
// and their keys, the manifest key wrapped for each recipient) and `packs/<random name>` (one
// sealed git pack per push, of the objects that push added). The commits' author, date and
// message are fixed. A private bare repository under `.git/daybook/encrypted/` mirrors the
// remote's sealed commits, so nothing sealed enters the diary's own repository.
import Foundation

final class EncryptedRemote {
    /// What this machine remembers of the remote: the highest sequence it read (a remote that
    /// goes back is refused), the packs already indexed, and the sealed commit last seen.
    struct State: Codable {
        var sequence = 0
        var indexed: [String] = []
        var commit: String?
    }

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
    func fetch(progress: TransferProgress?, plainAllowed: Bool = false) throws -> String? {
        let fresh = !FileManager.default.fileExists(atPath: mirrorURL.path)
        do {
            return try fetchChecked(progress: progress, plainAllowed: plainAllowed)
        } catch {
            if fresh { try? FileManager.default.removeItem(at: mirrorURL) }
            throw error
        }
    }

    private func fetchChecked(progress: TransferProgress?, plainAllowed: Bool) throws -> String? {
        var mirror = try openMirror()
        let ref = "refs/remotes/all/\(branch)"
        try mirror.fetch(url: url, refspecs: ["+refs/heads/*:refs/remotes/all/*"], label: name, progress: progress)
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
        let opened: Manifest
        do {
            opened = try Manifest.open(try mirror.blob(sealedManifest.id), with: device)
        } catch let failure as Manifest.Failure {
            switch failure {
            case let .malformed(why): throw fail("the remote's manifest cannot be read: \(why) (a half-written or damaged remote)")
            case .notARecipient: throw fail("this device's key (\(device.publicKey)) opens nothing on the remote: it is not one of the remote's recipients, or the remote was changed. Someone who syncs with it can run `daybook key add NAME \(device.publicKey)` and sync")
            case .tampered: throw fail("the remote's manifest failed its integrity check: it was changed on the host")
            }
        }
        guard opened.sequence >= state.sequence else {
            throw fail("the remote went back to an older state (push \(opened.sequence), this machine has read push \(state.sequence)): the host served old data or someone replaced it")
        }
        let packFolder = try entries["packs"].map { try mirror.treeEntries(tree: $0.id) } ?? [:]
        var packs: [Data] = []
        // A purge here deleted objects read from the remote before: every pack is read again (the
        // purge's reconcile then erases the entry from them, as from a plain remote's history).
        let indexed = opened.refs.values.allSatisfy(repo.hasCommit) ? Set(state.indexed) : []
        for pack in opened.packs where !indexed.contains(pack.name) {
            guard let blob = packFolder[pack.name], !blob.isTree else {
                throw fail("the manifest names pack \(pack.name), which is not on the remote (a half-written push)")
            }
            guard let data = SealedPack.open(try mirror.blob(blob.id), entry: pack) else {
                throw fail("pack \(pack.name) failed its integrity check: it was changed on the host")
            }
            packs.append(data)
        }
        for data in packs { try repo.indexPack(data) }
        for (b, id) in opened.refs where !repo.hasCommit(id) {
            throw fail("the manifest's branch `\(b)` is at \(id.prefix(7)), which none of the remote's packs holds (a half-written push)")
        }
        state.sequence = opened.sequence
        state.indexed = Array(Set(state.indexed).union(opened.packs.map(\.name))).sorted()
        state.commit = commit
        try saveState()
        sealedCommit = commit
        manifest = opened
        guard let head = opened.refs[branch] else { return nil }
        try repo.setReference("refs/remotes/\(name)/\(branch)", to: head, message: "sync: fetch (encrypted)")
        return head
    }

    private func remakeMirror(progress: TransferProgress?) throws -> Repository {
        try FileManager.default.removeItem(at: mirrorURL)
        state.indexed = []
        let mirror = try openMirror()
        try mirror.fetch(url: url, refspecs: ["+refs/heads/*:refs/remotes/all/*"], label: name, progress: progress)
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
    func push(head: String, recipients: [PublicKey], replacing: Bool, progress: TransferProgress?) throws -> Bool {
        guard recipients.contains(device.publicKey) else {
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
        let next = Manifest(sequence: max(old?.sequence ?? 0, state.sequence) + 1, refs: refs, packs: (old?.packs ?? []) + [entry])
        var packFiles: [(name: String, id: String, isTree: Bool)] = []
        if let old, let sealedCommit, let folder = try mirror.treeEntries(commit: sealedCommit)["packs"] {
            let kept = Set(old.packs.map(\.name))
            packFiles = try mirror.treeEntries(tree: folder.id).filter { kept.contains($0.key) }.map { ($0.key, $0.value.id, false) }
        }
        packFiles.append((entry.name, try mirror.writeBlob(sealedPack), false))
        let tree = try mirror.writeTree([("manifest", try mirror.writeBlob(try next.seal(for: recipients)), false),
                                         ("packs", try mirror.writeTree(packFiles), true)])
        let commit = try mirror.writeAnonymousCommit(tree: tree, parents: replace ? [] : sealedCommit.map { [$0] } ?? [], message: EncryptedRemote.message)
        try mirror.setReference("refs/heads/outgoing", to: commit, message: "sync: seal")
        // A replaced history overwrites only the commit this sync read (none on an empty remote).
        guard try mirror.push(url: url, source: "refs/heads/outgoing", to: "refs/heads/\(branch)",
                              replacing: replace ? sealedCommit : nil, label: name, progress: progress) else { return false }
        try mirror.setReference("refs/remotes/all/\(branch)", to: commit, message: "sync: push (encrypted)")
        if replace && sealedCommit != nil {
            // The replaced history's sealed objects go from this machine too (a purge leaves
            // nothing that opens here); the next sync fetches the new history's one commit.
            try? FileManager.default.removeItem(at: mirrorURL)
        }
        state.sequence = next.sequence
        state.indexed = replace ? [entry.name] : state.indexed + [entry.name]
        state.commit = commit
        try saveState()
        sealedCommit = commit
        manifest = next
        plainHistory = false
        try repo.setReference("refs/remotes/\(name)/\(branch)", to: head, message: "sync: push (encrypted)")
        return true
    }
}
