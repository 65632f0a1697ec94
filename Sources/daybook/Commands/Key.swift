// `daybook key`: this device's key pair, and the diary's recipients for encrypted remotes.
import ArgumentParser
import DaybookCore
import Foundation

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make this device's key; add, remove and list the diary's recipients (encrypted remotes).",
        discussion: "A remote marked with `daybook sync --encrypt` receives only sealed data that the recipients' keys open. Losing every recipient's key loses the remote copy. See `man daybook-key`.",
        subcommands: [KeyNew.self, KeyAdd.self, KeyRm.self, KeyLs.self])

    /// `key add` and `key rm`: one change of recipients.yml, one commit, one line on stderr.
    static func changeRecipients(_ global: GlobalOptions, commit message: String, done: String, _ edit: (Change) throws -> Void) throws {
        let change = try Change(try global.openDiary())
        try edit(change)
        try change.commit(message)
        global.confirm("daybook: " + done)
    }
}

extension KeyCommand {
    /// This device's key; a key made before pushes were signed gets its signing half now, said once.
    static func deviceKey(_ global: GlobalOptions) throws -> DeviceKey {
        let loaded = try DeviceKey.required(environment: global.environment)
        if loaded.signingHalfMade { signingHalfMade(global, loaded.key) }
        return loaded.key
    }

    static func signingHalfMade(_ global: GlobalOptions, _ key: DeviceKey) {
        global.confirm("daybook: this device's key now has a signing half (added to \(DeviceKey.file(environment: global.environment).path)); its public key is now \(key.publicKey) (fingerprint \(key.publicKey.fingerprint))")
    }
}

struct KeyNew: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Make this device's key pair and print its public key.",
        discussion: "The private key is kept in $XDG_CONFIG_HOME/daybook/key (else ~/.config/daybook/key), mode 0600; an existing key is never replaced.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let key = try DeviceKey.create(environment: global.environment)
        print(key.publicKey)
        global.confirm("daybook: made this device's key (fingerprint \(key.publicKey.fingerprint)) in \(DeviceKey.file(environment: global.environment).path) (keep a copy: an encrypted remote that only it opens is lost with it); add it to a diary with `daybook key add NAME`")
    }
}

struct KeyAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a public key one of the diary's recipients (default: this device's).",
        discussion: "Adds one line to recipients.yml and commits it. The next push to an encrypted remote is sealed for it too.")

    @Argument(help: "A name for the recipient: letters, digits, ., _ and -.") var name: String
    @Argument(help: "The public key (daybook1…), as `daybook key new` printed it; default: this device's.") var publicKey: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let key = try publicKey.map(PublicKey.init(text:)) ?? KeyCommand.deviceKey(global).publicKey
        try Recipients.checkName(name)
        try KeyCommand.changeRecipients(global, commit: "key: add recipient \(name)",
                                        done: "\(name) is a recipient; pushes to encrypted remotes are sealed for it from the next sync on") {
            try Recipients.add(name: name, key: key, in: $0)
        }
    }
}

struct KeyRm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a recipient: pushes after this are sealed without its key.",
        discussion: "Every push seals the manifest under a fresh key for the recipients of that moment, so a removed key opens nothing pushed later. What it could read before stays readable to whoever kept a copy.")

    @Argument(help: "The recipient's name (see `daybook key ls`).") var name: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try KeyCommand.changeRecipients(global, commit: "key: remove recipient \(name)",
                                        done: "\(name) is no longer a recipient; the next sync seals the remote under a new key without it") {
            _ = try Recipients.remove(name: name, in: $0)
        }
    }
}

struct KeyLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the diary's recipients: name, public key and fingerprint, one per line.",
        discussion: "The fingerprint (five groups of four hexadecimal digits) is short enough to compare aloud with the key's owner. This device's key is marked `(this device)`; a key that cannot sign (made before pushes were signed) is marked `(cannot sign)`. Exit 1 when the diary has no recipients.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let loaded = try DeviceKey.loadSigning(environment: global.environment)
        if let loaded, loaded.signingHalfMade { KeyCommand.signingHalfMade(global, loaded.key) }
        let mine = loaded?.key.publicKey
        let keys = try Recipients.read(diary).keys
        for (name, key) in keys {
            print("\(name) \(key) \(key.fingerprint)" + (mine.map(key.sameDevice) == true ? " (this device)" : "") + (key.signing == nil ? " (cannot sign)" : ""))
        }
        if let mine, !keys.contains(where: { $0.key.sameDevice(mine) }) {
            global.confirm("daybook: this device's key \(mine) is not a recipient (`daybook key add NAME`)")
        }
        if keys.isEmpty { throw DaybookError.nothing("the diary has no recipients (`daybook key add NAME [PUBLIC-KEY]`)") }
    }
}
