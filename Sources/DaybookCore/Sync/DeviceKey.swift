// A device's key: an X25519 pair that opens what is sealed for it and an Ed25519 pair that signs
// its pushes (swift-crypto): made once per device, kept 0600 in the user's config folder, never in
// a diary. Its public halves name the device as a recipient.
import Crypto
import Foundation

/// A recipient's public key as text: `daybook2` and the 32 bytes of its X25519 key followed by the
/// 32 of its Ed25519 key, in unpadded base64url. A key made before devices signed their pushes is
/// `daybook1` and the X25519 key alone: what is sealed for it opens, but nothing it signs is
/// accepted.
public struct PublicKey: Equatable, Hashable, CustomStringConvertible, Sendable {
    public static let prefix = "daybook2"
    public static let legacyPrefix = "daybook1"
    /// The X25519 half (sealing for it).
    public let raw: Data
    /// The Ed25519 half (checking what it signs); nil for a `daybook1` key.
    public let signing: Data?

    public init(raw: Data, signing: Data? = nil) {
        self.raw = raw
        self.signing = signing
    }

    /// Reads the text form; the error says what is wrong with it.
    public init(text: String) throws {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let legacy = t.hasPrefix(PublicKey.legacyPrefix)
        guard legacy || t.hasPrefix(PublicKey.prefix) else {
            throw DaybookError.input("`\(EntryParser.clipped(t))` is not a daybook public key: it must start with `\(PublicKey.prefix)` (as `daybook key new` prints it)")
        }
        let size = legacy ? 32 : 64
        guard let data = Base64URL.decode(String(t.dropFirst(PublicKey.prefix.count))), data.count == size,
              (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: data.prefix(32))) != nil,
              legacy || (try? Curve25519.Signing.PublicKey(rawRepresentation: data.suffix(32))) != nil else {
            throw DaybookError.input("`\(EntryParser.clipped(t))` is not a daybook public key: after `\(legacy ? PublicKey.legacyPrefix : PublicKey.prefix)` come \(legacy ? 43 : 86) base64url characters (\(size) bytes)")
        }
        raw = Data(data.prefix(32))
        signing = legacy ? nil : Data(data.suffix(32))
    }

    public var description: String {
        guard let signing else { return PublicKey.legacyPrefix + Base64URL.encode(raw) }
        return PublicKey.prefix + Base64URL.encode(raw + signing)
    }

    /// A short form to compare aloud: the first 80 bits of the SHA-256 of the key's bytes, as five
    /// groups of four hexadecimal digits (`3f9a-21c0-7be4-55d1-09aa`).
    public var fingerprint: String {
        let digest = Array(SHA256.hash(data: raw + (signing ?? Data())))
        return stride(from: 0, to: 10, by: 2).map { String(format: "%02x%02x", digest[$0], digest[$0 + 1]) }.joined(separator: "-")
    }

    /// The same device: the same X25519 half (a `daybook1` key and its `daybook2` successor).
    public func sameDevice(_ other: PublicKey) -> Bool { raw == other.raw }

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

/// This device's private key: the X25519 half and the Ed25519 half that signs its pushes.
public struct DeviceKey {
    static let header = "daybook-secret-key-1"
    static let signingHeader = "daybook-signing-key-1"
    let privateKey: Curve25519.KeyAgreement.PrivateKey
    let signingKey: Curve25519.Signing.PrivateKey

    public var publicKey: PublicKey {
        PublicKey(raw: privateKey.publicKey.rawRepresentation, signing: signingKey.publicKey.rawRepresentation)
    }

    init(privateKey: Curve25519.KeyAgreement.PrivateKey, signingKey: Curve25519.Signing.PrivateKey) {
        self.privateKey = privateKey
        self.signingKey = signingKey
    }

    /// A new random key pair (not stored).
    public static func generate() -> DeviceKey {
        DeviceKey(privateKey: Curve25519.KeyAgreement.PrivateKey(), signingKey: Curve25519.Signing.PrivateKey())
    }

    /// Signs `data` with the Ed25519 half.
    func sign(_ data: Data) throws -> Data { try signingKey.signature(for: data) }

    /// Where the key is kept: `$XDG_CONFIG_HOME/daybook/key`, else `~/.config/daybook/key`.
    public static func file(environment env: [String: String]) -> URL {
        UserFolders.config(environment: env).appendingPathComponent("daybook/key")
    }

    /// A stored key, and whether its signing half was made just now.
    public struct Loaded {
        public var key: DeviceKey
        /// The key file held no signing half (a key made before pushes were signed): one was
        /// made and added to the file. Said once, by the command that made it.
        public var signingHalfMade: Bool
    }

    /// The stored key; nil when there is none. A file that does not read as a key is an error
    /// naming it (it is never overwritten). A key made before pushes were signed gets its signing
    /// half now, written to the file beside the first line, which stays as it was.
    public static func loadSigning(environment env: [String: String]) throws -> Loaded? {
        let url = file(environment: env)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let where_ = SourceLocation(path: url.path, line: 1)
        guard let text = String(data: data, encoding: .utf8) else { throw DaybookError.input("the device key file is not text", at: where_) }
        let lines = text.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace) }.filter { !$0.isEmpty }
        guard let first = lines.first, first.count == 2, first[0] == header, let raw = Base64URL.decode(String(first[1])), raw.count == 32,
              let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
            throw DaybookError.input("the device key file is damaged: expected a first line `\(header) <43 base64url characters>`", at: where_)
        }
        guard lines.count > 1 else {
            let signing = Curve25519.Signing.PrivateKey()
            var out = text.hasSuffix("\n") ? text : text + "\n"
            out += "\(signingHeader) \(Base64URL.encode(signing.rawRepresentation))\n"
            try AtomicFile.write(out, to: url)
            chmod(url.path, 0o600)
            return Loaded(key: DeviceKey(privateKey: key, signingKey: signing), signingHalfMade: true)
        }
        let second = lines[1]
        guard lines.count == 2, second.count == 2, second[0] == signingHeader, let sraw = Base64URL.decode(String(second[1])), sraw.count == 32,
              let signing = try? Curve25519.Signing.PrivateKey(rawRepresentation: sraw) else {
            throw DaybookError.input("the device key file is damaged: expected a second line `\(signingHeader) <43 base64url characters>`",
                                     at: SourceLocation(path: url.path, line: 2))
        }
        return Loaded(key: DeviceKey(privateKey: key, signingKey: signing), signingHalfMade: false)
    }

    /// The stored key (see loadSigning); nil when there is none.
    public static func load(environment env: [String: String]) throws -> DeviceKey? {
        try loadSigning(environment: env)?.key
    }

    /// The stored key, or an error telling how to make one.
    public static func required(environment env: [String: String]) throws -> Loaded {
        guard let key = try loadSigning(environment: env) else {
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
        try AtomicFile.write("\(header) \(Base64URL.encode(key.privateKey.rawRepresentation))\n\(signingHeader) \(Base64URL.encode(key.signingKey.rawRepresentation))\n", to: url)
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
