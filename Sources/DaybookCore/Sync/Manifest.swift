// What an encrypted remote holds, sealed: packs under keys of their own, and the manifest that
// lists them, whose key is wrapped for each recipient (ephemeral X25519, HKDF-SHA256,
// ChaCha20-Poly1305, all from swift-crypto) and which the pushing device signs (Ed25519). Any
// changed byte fails an authentication check; a manifest nobody trusted signed is refused by
// EncryptedRemote. The format is written out in daybook-sync(1), MANIFEST FORMAT.
import Crypto
import Foundation

/// The manifest of an encrypted remote: the branch heads, every pack with its key, a sequence
/// number that grows with every push, the diary it belongs to, the digest of the manifest it
/// follows, and the recipients it was sealed for.
public struct Manifest: Equatable, Codable {
    public struct Pack: Equatable, Codable {
        /// The pack's file name on the remote: 32 hexadecimal digits, random.
        public var name: String
        /// Its ChaCha20-Poly1305 key, base64.
        public var key: String
        /// Objects in it.
        public var objects: Int
    }

    /// A recipient as the pushing device listed it: its name in recipients.yml and its key.
    public struct Recipient: Equatable, Codable {
        public var name: String
        /// The public key's text form (`daybook2…`, or `daybook1…` for a key that cannot sign).
        public var key: String
        public init(name: String, key: String) {
            self.name = name
            self.key = key
        }
    }

    public var format = 2
    public var sequence: Int
    /// Branch name -> commit id.
    public var refs: [String: String]
    public var packs: [Pack]
    /// The diary's id (`id:` in daybook.yml); nil only in a format 1 manifest.
    public var diary: String?
    /// SHA-256 (hex) of the sealed manifest this one follows; nil for a remote's first push.
    public var previous: String?
    /// The recipients it was sealed for; nil only in a format 1 manifest.
    public var recipients: [Recipient]?

    public init(sequence: Int, refs: [String: String], packs: [Pack], diary: String? = nil, previous: String? = nil,
                recipients: [Recipient]? = nil) {
        self.sequence = sequence
        self.refs = refs
        self.packs = packs
        self.diary = diary
        self.previous = previous
        self.recipients = recipients
    }

    static let magic = Data("daybook-manifest 2\n".utf8)
    static let legacyMagic = Data("daybook-manifest 1\n".utf8)
    static let stanzaSize = 32 + 12 + 32 + 16
    static let info = Data("daybook manifest key 1".utf8)
    static let signatureContext = Data("daybook manifest signature 2\n".utf8)

    /// The SHA-256 of sealed manifest bytes, in hex: what the next manifest names as `previous`.
    public static func digest(_ sealed: Data) -> String {
        SHA256.hash(data: sealed).map { String(format: "%02x", $0) }.joined()
    }

    /// The sealed bytes: the magic line, the number of recipients, one stanza per recipient
    /// (an ephemeral public key and the manifest key sealed under a key agreed with it), then the
    /// body sealed under the manifest key, with everything before it as associated data. The body
    /// is the signer's Ed25519 public key, its signature, then the JSON; the signature covers
    /// `daybook manifest signature 2\n`, the header (everything before the body) and the JSON.
    public func seal(for recipients: [PublicKey], signedBy signer: DeviceKey) throws -> Data {
        guard !recipients.isEmpty, recipients.count < 256 else {
            throw DaybookError.usage("an encrypted remote needs 1 to 255 recipients (the diary has \(recipients.count)): add keys with `daybook key add`")
        }
        let key = SymmetricKey(size: .bits256)
        var out = Manifest.magic
        out.append(UInt8(recipients.count))
        for r in recipients {
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let wrap = try Manifest.wrappingKey(try ephemeral.sharedSecretFromKeyAgreement(with: r.agreementKey),
                                                ephemeral: ephemeral.publicKey.rawRepresentation, recipient: r.raw)
            out.append(ephemeral.publicKey.rawRepresentation)
            out.append(try ChaChaPoly.seal(key.withUnsafeBytes { Data($0) }, using: wrap).combined)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(self)
        let signature = try signer.sign(Manifest.signatureContext + out + json)
        let body = signer.signingKey.publicKey.rawRepresentation + signature + json
        out.append(try ChaChaPoly.seal(body, using: key, authenticating: out).combined)
        return out
    }

    static func wrappingKey(_ secret: SharedSecret, ephemeral: Data, recipient: Data) throws -> SymmetricKey {
        secret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: ephemeral + recipient, sharedInfo: info, outputByteCount: 32)
    }

    /// Why sealed bytes cannot be opened.
    public enum Failure: Error, Equatable {
        /// Not a manifest, or cut short.
        case malformed(String)
        /// No stanza opens with this key: the device is not a recipient (or a stanza was changed).
        case notARecipient
        /// A stanza opened but the body failed its check: changed on the remote.
        case tampered
        /// The body opened but its signature does not check with the key it names.
        case badSignature
    }

    /// An opened manifest, who signed it and its digest.
    public struct Opened {
        public var manifest: Manifest
        /// The Ed25519 public key whose signature checked; nil for a format 1 (unsigned) manifest.
        public var signer: Data?
        public var digest: String
    }

    /// Opens sealed bytes with this device's key and checks the signature against the key the
    /// body names (whether that key is trusted is the caller's question).
    public static func openSigned(_ sealed: Data, with device: DeviceKey) throws -> Opened {
        let bytes = [UInt8](sealed)
        let legacy = bytes.starts(with: legacyMagic)
        guard bytes.count > magic.count, legacy || bytes.starts(with: magic) else {
            throw Failure.malformed("it does not start with `daybook-manifest 2`")
        }
        let count = Int(bytes[magic.count])
        let bodyStart = magic.count + 1 + count * stanzaSize
        guard count > 0, bytes.count >= bodyStart + 12 + 16 + (legacy ? 0 : 96) else {
            throw Failure.malformed("it is cut short (\(bytes.count) bytes, \(count) recipient\(count == 1 ? "" : "s"))")
        }
        var key: SymmetricKey?
        for i in 0..<count {
            let at = magic.count + 1 + i * stanzaSize
            let ephemeral = Data(bytes[at..<at + 32])
            guard let pub = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeral),
                  let secret = try? device.privateKey.sharedSecretFromKeyAgreement(with: pub),
                  let wrap = try? wrappingKey(secret, ephemeral: ephemeral, recipient: device.publicKey.raw),
                  let box = try? ChaChaPoly.SealedBox(combined: Data(bytes[at + 32..<at + stanzaSize])),
                  let raw = try? ChaChaPoly.open(box, using: wrap) else { continue }
            key = SymmetricKey(data: raw)
            break
        }
        guard let key else { throw Failure.notARecipient }
        let header = Data(bytes[..<bodyStart])
        guard let box = try? ChaChaPoly.SealedBox(combined: Data(bytes[bodyStart...])),
              let body = try? ChaChaPoly.open(box, using: key, authenticating: header) else { throw Failure.tampered }
        var json = body
        var signer: Data?
        if !legacy {
            guard body.count > 96 else { throw Failure.malformed("its body is cut short") }
            let pub = body.prefix(32), signature = body.dropFirst(32).prefix(64)
            json = Data(body.dropFirst(96))
            guard let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: pub),
                  verifier.isValidSignature(signature, for: signatureContext + header + json) else { throw Failure.badSignature }
            signer = Data(pub)
        }
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: json) else { throw Failure.malformed("its content is not a daybook manifest") }
        try manifest.validate(legacy: legacy)
        return Opened(manifest: manifest, signer: signer, digest: digest(sealed))
    }

    /// Opens sealed bytes with this device's key (see openSigned).
    public static func open(_ sealed: Data, with device: DeviceKey) throws -> Manifest {
        try openSigned(sealed, with: device).manifest
    }

    /// Names and ids a remote could use to reach outside its own files are refused.
    func validate(legacy: Bool = false) throws {
        func hex(_ s: String, _ n: Int) -> Bool { s.count == n && s.allSatisfy(\.isHexDigit) }
        guard format == (legacy ? 1 : 2), sequence >= 1,
              refs.allSatisfy({ !$0.key.isEmpty && !$0.key.contains("..") && hex($0.value, 40) }),
              packs.allSatisfy({ hex($0.name, 32) && Data(base64Encoded: $0.key)?.count == 32 && $0.objects >= 0 }),
              Set(packs.map(\.name)).count == packs.count else {
            throw Failure.malformed("it names a branch, commit or pack in a form daybook does not write")
        }
        guard legacy || (diary.map { hex($0, 32) } == true && previous.map { hex($0, 64) } != false
                         && recipients?.isEmpty == false && recipients?.allSatisfy({ (try? PublicKey(text: $0.key)) != nil }) == true) else {
            throw Failure.malformed("it lacks the diary id, or names a previous manifest or a recipient in a form daybook does not write")
        }
    }

    /// The recipients' keys (those that read).
    public var recipientKeys: [(name: String, key: PublicKey)] {
        (recipients ?? []).compactMap { r in (try? PublicKey(text: r.key)).map { (r.name, $0) } }
    }
}

/// One pack of git objects sealed under its own key.
public enum SealedPack {
    static let magic = Data("daybook-pack 1\n".utf8)

    /// Seals a pack; returns the sealed bytes and the pack's entry for the manifest.
    public static func seal(_ pack: Data, objects: Int) throws -> (sealed: Data, entry: Manifest.Pack) {
        let key = SymmetricKey(size: .bits256)
        var name = [UInt8](repeating: 0, count: 16)
        for i in name.indices { name[i] = UInt8.random(in: 0...255) }
        let hexName = name.map { String(format: "%02x", $0) }.joined()
        var out = magic
        out.append(try ChaChaPoly.seal(pack, using: key, authenticating: magic + Data(hexName.utf8)).combined)
        return (out, Manifest.Pack(name: hexName, key: key.withUnsafeBytes { Data($0) }.base64EncodedString(), objects: objects))
    }

    /// The pack, or nil when the bytes fail their check (changed, cut, or another pack's).
    public static func open(_ sealed: Data, entry: Manifest.Pack) -> Data? {
        guard sealed.starts(with: magic), let raw = Data(base64Encoded: entry.key),
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst(magic.count)) else { return nil }
        return try? ChaChaPoly.open(box, using: SymmetricKey(data: raw), authenticating: magic + Data(entry.name.utf8))
    }
}
