// A device's key pair (X25519, swift-crypto): made once per device, kept 0600 in the user's
// config folder, never in a diary. Its public half names the device as a recipient.
import Crypto
import Foundation

/// A recipient's public key as text: `daybook1` and the 32 bytes in unpadded base64url.
public struct PublicKey: Equatable, Hashable, CustomStringConvertible, Sendable {
    public static let prefix = "daybook1"
    public let raw: Data

    public init(raw: Data) { self.raw = raw }

    /// Reads the text form; the error says what is wrong with it.
    public init(text: String) throws {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard t.hasPrefix(PublicKey.prefix) else {
            throw DaybookError.input("`\(EntryParser.clipped(t))` is not a daybook public key: it must start with `\(PublicKey.prefix)` (as `daybook key new` prints it)")
        }
        guard let data = Base64URL.decode(String(t.dropFirst(PublicKey.prefix.count))), data.count == 32,
              (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: data)) != nil else {
            throw DaybookError.input("`\(EntryParser.clipped(t))` is not a daybook public key: after `\(PublicKey.prefix)` come 43 base64url characters (32 bytes)")
        }
        raw = data
    }

    public var description: String { PublicKey.prefix + Base64URL.encode(raw) }

    var agreementKey: Curve25519.KeyAgreement.PublicKey {
        // Checked when made (init(text:)) or taken from a private key.
        try! Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw)
    }
}

/// Unpadded base64url (RFC 4648 §5), the alphabet that needs no quoting in a shell or YAML.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }
}

/// This device's private key.
public struct DeviceKey {
    static let header = "daybook-secret-key-1"
    let privateKey: Curve25519.KeyAgreement.PrivateKey

    public var publicKey: PublicKey { PublicKey(raw: privateKey.publicKey.rawRepresentation) }

    init(privateKey: Curve25519.KeyAgreement.PrivateKey) { self.privateKey = privateKey }

    /// A new random key pair (not stored).
    public static func generate() -> DeviceKey { DeviceKey(privateKey: Curve25519.KeyAgreement.PrivateKey()) }

    /// Where the key is kept: `$XDG_CONFIG_HOME/daybook/key`, else `~/.config/daybook/key`.
    public static func file(environment env: [String: String]) -> URL {
        UserFolders.config(environment: env).appendingPathComponent("daybook/key")
    }

    /// The stored key; nil when there is none. A file that does not read as a key is an error
    /// naming it (it is never overwritten).
    public static func load(environment env: [String: String]) throws -> DeviceKey? {
        let url = file(environment: env)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let where_ = SourceLocation(path: url.path, line: 1)
        guard let text = String(data: data, encoding: .utf8) else { throw DaybookError.input("the device key file is not text", at: where_) }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, parts[0] == header, let raw = Base64URL.decode(String(parts[1])), raw.count == 32,
              let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
            throw DaybookError.input("the device key file is damaged: expected one line `\(header) <43 base64url characters>`", at: where_)
        }
        return DeviceKey(privateKey: key)
    }

    /// The stored key, or an error telling how to make one.
    public static func required(environment env: [String: String]) throws -> DeviceKey {
        guard let key = try load(environment: env) else {
            throw DaybookError.usage("this device has no key (\(file(environment: env).path)): make one with `daybook key new`, then have it added to the diary's recipients")
        }
        return key
    }

    /// Makes and stores a new key (file 0600, folders 0700). An existing key is never replaced:
    /// losing it loses what only it can open.
    public static func create(environment env: [String: String]) throws -> DeviceKey {
        let url = file(environment: env)
        if FileManager.default.fileExists(atPath: url.path) {
            throw DaybookError.usage("this device already has a key (\(url.path)); it is not replaced, since an encrypted remote only this key opens would be lost with it")
        }
        let key = generate()
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaybookError.io("cannot create the folder: \(error.localizedDescription)", at: SourceLocation(path: dir.path))
        }
        chmod(dir.path, 0o700)
        try AtomicFile.write("\(header) \(Base64URL.encode(key.privateKey.rawRepresentation))\n", to: url)
        chmod(url.path, 0o600)
        return key
    }
}

/// The user's folders named by the XDG base directory variables.
public enum UserFolders {
    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`.
    public static func config(environment env: [String: String]) -> URL {
        if let x = env["XDG_CONFIG_HOME"], x.hasPrefix("/") { return URL(fileURLWithPath: x) }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config")
    }
}
