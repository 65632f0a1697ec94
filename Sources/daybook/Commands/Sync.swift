// `daybook sync`: commit, fetch, merge, push — and say what happened, conflicts first.
import ArgumentParser
import DaybookCore
import Foundation

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Commit pending changes, fetch, merge and push.",
        discussion: """
        Entries merge by key (tags and codings as sets) and body lines. Where both machines changed the \
        same lines or the same value, this machine's version stays and the other is saved beside it as \
        <id>.conflict-<hash>.md; `daybook check` lists such copies until you remove them. See `man daybook-sync`.
        """)

    @Argument(help: "The remote (default: the branch's upstream remote, else origin).") var remote: String?
    @Option(name: .customLong("set-remote"), help: ArgumentHelp("Create the remote, or point it at URL, and sync with it.", valueName: "url"))
    var setRemote: String?
    @Flag(name: .customLong("no-push"), help: "Fetch and merge only.") var noPush = false
    @Flag(inversion: .prefixedNo,
          help: "--encrypt marks the remote encrypted: from now on it receives only data sealed for the diary's recipients (`daybook key`). --no-encrypt turns that off: its sealed history is replaced by the plain one.")
    var encrypt: Bool?
    @Flag(name: .customLong("retrust"),
          help: "Encrypted remote: forget which recipients and which push this device trusted for it, and trust its current manifest and recipients as they are (their fingerprints are shown). Compare them with their owners first.")
    var retrust = false
    @Flag(name: .customLong("apply-purge"),
          help: "Plain remote: erase here too the entries a purge record from the remote names (sync lists them and stops without this).")
    var applyPurge = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let showProgress = Terminal.stderrIsTerminal && !global.quiet
        let report = try DiarySync.run(diary, remote: remote, setURL: setRemote.map(url), push: !noPush,
                                       encrypt: encrypt == true, decrypt: encrypt == false, retrust: retrust, applyPurge: applyPurge,
                                       environment: global.environment, progress: showProgress ? Sync.progress : nil)
        // What concerns trust is said even with -q: who can read the diary from now on.
        if report.signingHalfMade {
            Terminal.message("daybook: this device's key now has a signing half (added to \(DeviceKey.file(environment: global.environment).path)); pushes are signed with it")
        }
        if let trusting = report.trusting {
            Terminal.message("daybook: \(report.remote): trusting \(trusting.count) recipient\(trusting.count == 1 ? "" : "s") (compare the fingerprints with their owners: `daybook key ls` on their devices):")
            for r in trusting { Terminal.message("  \(r.name) \(r.key.fingerprint)") }
        }
        for c in report.recipientsArrived {
            Terminal.message("daybook: \(report.remote): recipient \(c.name) (fingerprint \(c.key.fingerprint)) \(c.added ? "added" : "removed") by a push from another device")
        }
        for c in report.recipientsSent {
            Terminal.message("daybook: \(report.remote): recipient \(c.name) (fingerprint \(c.key.fingerprint)) \(c.added ? "added: what this sync pushed is sealed for it too" : "removed: what this sync pushed is not sealed for it")")
        }
        if let name = report.upgradedRecipient {
            Terminal.message("daybook: recipient \(name) (this device) now carries this device's whole key, with its signing half, in recipients.yml (committed)")
        }
        if report.tookRemoteHistory {
            global.confirm("daybook: this diary held nothing but its first commit, so it took the remote's history whole")
        }
        for c in report.conflicts {
            Terminal.warning(Diagnostic(.warning, "\(c.reason): kept this machine's version; the other machine's is in \(diary.displayPath(c.copy))",
                                        at: SourceLocation(path: diary.displayPath(c.path))))
        }
        for r in report.renamed {
            global.confirm("daybook: both machines added \(diary.displayPath(r.from)): the other machine's entry is now \(diary.displayPath(r.to))")
        }
        if report.replacedPlainHistory {
            Terminal.warning(Diagnostic(.warning, "the remote's plain history was replaced by an encrypted one, but its old commits may stay on the host (\(report.url)): delete them there (see `man daybook-sync`)"))
        }
        if report.replacedSealedHistory {
            Terminal.warning(Diagnostic(.warning, "the remote's encrypted history was replaced by the plain one: the host (\(report.url)) can read every entry from now on; other machines follow with `daybook sync --no-encrypt` (see `man daybook-sync`)"))
        }
        var done: [String] = []
        if let c = report.outsideCommit { done.append("committed edits made outside daybook (\(c.prefix(7)))") }
        if report.received > 0 { done.append("received \(changes(report.received))" + (report.fastForward ? "" : " (merged)")) }
        if report.erasedHere > 0 { done.append("erased \(report.erasedHere) entr\(report.erasedHere == 1 ? "y" : "ies") another machine purged") }
        if report.sent > 0 { done.append("sent \(changes(report.sent))" + (report.replacedRemote ? " (the remote's history replaced by the purged one)" : "")) }
        if noPush { done.append("nothing pushed (--no-push)") }
        if report.encryptionOff { done.append("the remote is no longer encrypted") }
        if !report.conflicts.isEmpty { done.append("\(report.conflicts.count) conflict cop\(report.conflicts.count == 1 ? "y" : "ies") to review") }
        global.confirm("daybook: synced with \(report.remote): " + (done.isEmpty ? "already up to date" : done.joined(separator: ", ")))
    }

    func changes(_ n: Int) -> String { "\(n) change\(n == 1 ? "" : "s")" }

    /// A path given to --set-remote works from any folder later, so it is made absolute.
    func url(_ given: String) -> String {
        let path = (given as NSString).expandingTildeInPath
        guard !given.contains("://"), FileManager.default.fileExists(atPath: path) else { return given }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    static func progress(_ what: String, _ done: Int, _ total: Int) {
        let line = "\rdaybook: \(what): \(done * 100 / max(total, 1))% (\(done)/\(total))"
        // One line rewritten in place; the newline comes when the transfer is complete.
        fputs(done >= total ? line + "\n" : line, stderr)
    }
}
