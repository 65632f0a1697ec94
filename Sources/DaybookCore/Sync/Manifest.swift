// What an encrypted remote holds, sealed: packs under keys of their own, and the manifest that
// lists them, whose key is wrapped for each recipient (ephemeral X25519, HKDF-SHA256,
// ChaCha20-Poly1305, all from swift-crypto). Any changed byte fails an authentication check.
import Crypto
import Foundation

/// The manifest of an encrypted remote: the branch heads, every pack with its key, and a
/// sequence number that grows with every push.
public struct Manifest: Equatable, Codable {
    public struct Pack: Equatable, Codable {
        /// The pack's file name on the remote: 32 hexadecimal digits, random.
        public var name: String
        /// Its ChaCha20-Poly1305 key, base64.
        public var key: String
        /// Objects in it.
        public var objects: Int
    }

    public var format = 1
    public var sequence: Int
    /// Branch name -> commit id.
    public var refs: [String: String]
    public var packs: [Pack]

    public init(sequence: Int, refs: [String: String], packs: [Pack]) {
        self.sequence = sequence
        self.refs = refs
        self.packs = packs
    }

    static let magic = Data("daybook-manifest 1\n".utf8)
    static let stanzaSize = 32 + 12 + 32 + 16
    static let info = Data("daybook manifest key 1".utf8)

    /// The sealed bytes: the magic line, the number of recipients, one stanza per recipient
    /// (an ephemeral public key and the manifest key sealed under a key agreed with it), then the
    /// JSON body sealed under the manifest key, with everything before it as associated data.
    public func seal(for recipients: [PublicKey]) throws -> Data {
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
        out.append(try ChaChaPoly.seal(try encoder.encode(self), using: key, authenticating: out).combined)
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
    }

    /// Opens sealed bytes with this device's key.
    public static func open(_ sealed: Data, with device: DeviceKey) throws -> Manifest {
        let bytes = [UInt8](sealed)
        guard bytes.count > magic.count, bytes.starts(with: magic) else { throw Failure.malformed("it does not start with `daybook-manifest 1`") }
        let count = Int(bytes[magic.count])
        let bodyStart = magic.count + 1 + count * stanzaSize
        guard count > 0, bytes.count >= bodyStart + 12 + 16 else {
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
        guard let manifest = try? JSONDecoder().decode(Manifest.self, from: body) else { throw Failure.malformed("its content is not a daybook manifest") }
        try manifest.validate()
        return manifest
    }

    /// Names and ids a remote could use to reach outside its own files are refused.
    func validate() throws {
        func hex(_ s: String, _ n: Int) -> Bool { s.count == n && s.allSatisfy(\.isHexDigit) }
        guard format == 1, sequence >= 1,
              refs.allSatisfy({ !$0.key.isEmpty && !$0.key.contains("..") && hex($0.value, 40) }),
              packs.allSatisfy({ hex($0.name, 32) && Data(base64Encoded: $0.key)?.count == 32 && $0.objects >= 0 }),
              Set(packs.map(\.name)).count == packs.count else {
            throw Failure.malformed("it names a branch, commit or pack in a form daybook does not write")
        }
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
