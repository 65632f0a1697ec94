import XCTest
@testable import DaybookCore

final class ManifestTests: XCTestCase {
    let signer = DeviceKey.generate()
    var sample: Manifest {
        Manifest(sequence: 3, refs: ["main": String(repeating: "ab", count: 20)],
                 packs: [Manifest.Pack(name: String(repeating: "0f", count: 16), key: Data(repeating: 7, count: 32).base64EncodedString(), objects: 12)],
                 diary: String(repeating: "5a", count: 16), previous: String(repeating: "c3", count: 32),
                 recipients: [Manifest.Recipient(name: "laptop", key: signer.publicKey.description)])
    }

    func testEveryRecipientOpensWhatWasSealedForIt() throws {
        let a = DeviceKey.generate(), b = DeviceKey.generate()
        let sealed = try sample.seal(for: [a.publicKey, b.publicKey], signedBy: signer)
        XCTAssertEqual(try Manifest.open(sealed, with: a), sample)
        XCTAssertEqual(try Manifest.open(sealed, with: b), sample)
        // Magic line, count, two stanzas of 92 bytes, then the sealed body.
        XCTAssertTrue(sealed.starts(with: Data("daybook-manifest 2\n".utf8)))
        XCTAssertEqual(sealed[19], 2)
        XCTAssertGreaterThan(sealed.count, 19 + 1 + 2 * 92 + 28)
        // Nothing of the content is visible, and sealing twice gives different bytes (fresh keys).
        XCTAssertNil(sealed.range(of: Data("main".utf8)))
        XCTAssertNotEqual(try sample.seal(for: [a.publicKey], signedBy: signer), try sample.seal(for: [a.publicKey], signedBy: signer))
    }

    func testAnotherKeyOpensNothing() throws {
        let sealed = try sample.seal(for: [DeviceKey.generate().publicKey], signedBy: signer)
        XCTAssertThrowsError(try Manifest.open(sealed, with: DeviceKey.generate())) { XCTAssertEqual($0 as? Manifest.Failure, .notARecipient) }
    }

    func testEveryChangedByteIsDetected() throws {
        let key = DeviceKey.generate()
        let sealed = try sample.seal(for: [key.publicKey], signedBy: signer)
        for at in stride(from: 20, to: sealed.count, by: 7) {
            var bad = sealed
            bad[at] ^= 0x40
            XCTAssertThrowsError(try Manifest.open(bad, with: key), "byte \(at)") { error in
                let f = error as? Manifest.Failure
                XCTAssertTrue(f == .notARecipient || f == .tampered, "byte \(at): \(error)")
                if at >= 20 + 92 { XCTAssertEqual(f, .tampered, "byte \(at) is in the body") }
            }
        }
        var count = sealed
        count[19] = 5  // a recipient count that does not match
        XCTAssertThrowsError(try Manifest.open(count, with: key))
    }

    func testCutAndForeignBytesAreMalformed() throws {
        let key = DeviceKey.generate()
        let sealed = try sample.seal(for: [key.publicKey], signedBy: signer)
        for n in [0, 10, 19, 20, 100, 19 + 1 + 92 + 20] {
            XCTAssertThrowsError(try Manifest.open(sealed.prefix(n), with: key)) {
                guard case .malformed? = $0 as? Manifest.Failure else { return XCTFail("\(n): \($0)") }
            }
        }
        XCTAssertThrowsError(try Manifest.open(Data("tree 1234\n".utf8), with: key))
    }

    func testAManifestNamingPathsOutsideIsRefused() throws {
        let key = DeviceKey.generate()
        var bad = sample
        bad.packs[0].name = "../../hooks/pre-commit"
        XCTAssertThrowsError(try Manifest.open(try bad.seal(for: [key.publicKey], signedBy: signer), with: key)) {
            guard case .malformed? = $0 as? Manifest.Failure else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try sample.seal(for: [], signedBy: signer))
    }

    func testPacksOpenOnlyWithTheirOwnKeyAndName() throws {
        let pack = Data("PACK some objects".utf8)
        let (sealed, entry) = try SealedPack.seal(pack, objects: 4)
        XCTAssertEqual(SealedPack.open(sealed, entry: entry), pack)
        XCTAssertEqual(entry.objects, 4)
        XCTAssertEqual(entry.name.count, 32)
        XCTAssertNil(sealed.range(of: Data("objects".utf8)))
        var renamed = entry
        renamed.name = String(repeating: "0", count: 32)
        XCTAssertNil(SealedPack.open(sealed, entry: renamed))
        var flipped = sealed
        flipped[flipped.count - 1] ^= 1
        XCTAssertNil(SealedPack.open(flipped, entry: entry))
        XCTAssertNil(SealedPack.open(sealed, entry: try SealedPack.seal(pack, objects: 4).entry))
    }

    func testPublicKeysReadBackAndBadOnesSayWhy() throws {
        let key = DeviceKey.generate().publicKey
        XCTAssertEqual(try PublicKey(text: key.description + "\n"), key)
        XCTAssertEqual(key.description.count, 8 + 86)
        XCTAssertThrowsError(try PublicKey(text: "ssh-ed25519 AAAA")) { XCTAssertTrue("\($0)".contains("must start with `daybook2`")) }
        XCTAssertThrowsError(try PublicKey(text: "daybook2abc")) { XCTAssertTrue("\($0)".contains("86 base64url")) }
        // A key made before pushes were signed still reads, without a signing half.
        let legacy = try PublicKey(text: "daybook1" + Base64URL.encode(key.raw))
        XCTAssertNil(legacy.signing)
        XCTAssertTrue(legacy.sameDevice(key))
        XCTAssertNotEqual(legacy, key)
        XCTAssertNotEqual(legacy.fingerprint, key.fingerprint)
        XCTAssertEqual(key.fingerprint.count, 24)
        XCTAssertTrue(key.fingerprint.allSatisfy { $0 == "-" || $0.isHexDigit })
        XCTAssertThrowsError(try PublicKey(text: "daybook1abc")) { XCTAssertTrue("\($0)".contains("43 base64url")) }
        XCTAssertThrowsError(try PublicKey(text: "daybook1" + String(repeating: "+", count: 43)))
    }

    func testTheDeviceKeyIsStoredPrivatelyAndNeverReplaced() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
        XCTAssertNil(try DeviceKey.load(environment: env))
        let made = try DeviceKey.create(environment: env)
        XCTAssertEqual(try DeviceKey.load(environment: env)?.publicKey, made.publicKey)
        let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("daybook/key").path)
        XCTAssertEqual((attrs[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o600)
        XCTAssertThrowsError(try DeviceKey.create(environment: env))
        XCTAssertEqual(try DeviceKey.load(environment: env)?.publicKey, made.publicKey)
        XCTAssertEqual(DeviceKey.file(environment: ["HOME": "/h"]).path, "/h/.config/daybook/key")
    }

    func testAKeyWithoutSigningHalfGetsOneOnceAndKeepsItsFirstLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
        let file = DeviceKey.file(environment: env)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let first = "daybook-secret-key-1 " + Base64URL.encode(Data(repeating: 9, count: 32)) + "\n"
        try first.write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        let once = try XCTUnwrap(DeviceKey.loadSigning(environment: env))
        XCTAssertTrue(once.signingHalfMade)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix(first))
        let twice = try XCTUnwrap(DeviceKey.loadSigning(environment: env))
        XCTAssertFalse(twice.signingHalfMade)
        XCTAssertEqual(twice.key.publicKey, once.key.publicKey)
        let attrs = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attrs[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o600)
    }

    func testTheSignatureNamesItsSignerAndAnyOtherSignerFails() throws {
        let reader = DeviceKey.generate()
        let opened = try Manifest.openSigned(try sample.seal(for: [reader.publicKey], signedBy: signer), with: reader)
        XCTAssertEqual(opened.signer, signer.publicKey.signing)
        XCTAssertEqual(opened.manifest, sample)
        // A body whose signature was made over other bytes does not open as signed.
        let sealed = try sample.seal(for: [reader.publicKey], signedBy: signer)
        XCTAssertEqual(opened.digest.count, 64)
        XCTAssertNotEqual(Manifest.digest(sealed), opened.digest)
        var unsigned = sample
        unsigned.diary = nil
        XCTAssertThrowsError(try Manifest.open(try unsigned.seal(for: [reader.publicKey], signedBy: signer), with: reader)) {
            guard case .malformed? = $0 as? Manifest.Failure else { return XCTFail("\($0)") }
        }
    }

    /// The budget: signing and checking add at most 10 ms to a sync. One push signs one
    /// manifest; one fetch checks one (more only when it missed pushes). Measured on a manifest
    /// of 200 packs and 5 recipients, the cost of the signature is the difference between sealing
    /// and opening with it and the same work on the unsigned JSON.
    func testSigningAndCheckingAManifestCostsWellUnderTenMilliseconds() throws {
        let keys = (0..<5).map { _ in DeviceKey.generate() }
        var big = sample
        big.packs = (0..<200).map { i in
            Manifest.Pack(name: String(format: "%032x", i), key: Data(repeating: UInt8(i % 256), count: 32).base64EncodedString(), objects: i)
        }
        big.recipients = keys.map { Manifest.Recipient(name: "r", key: $0.publicKey.description) }
        let rounds = 50
        var start = Date()
        var sealed = Data()
        for _ in 0..<rounds { sealed = try big.seal(for: keys.map(\.publicKey), signedBy: signer) }
        let seal = Date().timeIntervalSince(start) / Double(rounds)
        start = Date()
        for _ in 0..<rounds { _ = try Manifest.openSigned(sealed, with: keys[4]) }
        let open = Date().timeIntervalSince(start) / Double(rounds)
        let json = try JSONEncoder().encode(big)
        start = Date()
        for _ in 0..<rounds {
            let signature = try signer.sign(json)
            XCTAssertTrue(signer.signingKey.publicKey.isValidSignature(signature, for: json))
        }
        let signature = Date().timeIntervalSince(start) / Double(rounds)
        print(String(format: "manifest of %d bytes: seal %.3f ms, open and check %.3f ms; Ed25519 sign and verify alone %.3f ms",
                     sealed.count, seal * 1000, open * 1000, signature * 1000))
        XCTAssertLessThan(signature, 0.010)
        XCTAssertLessThan(seal + open, 0.050)
    }
}

final class RecipientTrustTests: XCTestCase {
    func testRecipientChangesCompareWholeKeys() throws {
        let a = DeviceKey.generate().publicKey, b = DeviceKey.generate().publicKey, c = DeviceKey.generate().publicKey
        let changes = RecipientChange.between([("a", a), ("b", b)], [("a", a), ("c", c)])
        XCTAssertEqual(changes, [RecipientChange(added: false, name: "b", key: b), RecipientChange(added: true, name: "c", key: c)])
        // The same device with another signing half is a change: the old key is not trusted to sign.
        let b2 = PublicKey(raw: b.raw, signing: DeviceKey.generate().publicKey.signing)
        XCTAssertEqual(RecipientChange.between([("b", b)], [("b", b2)]).map(\.added), [false, true])
    }

    func testADiaryIDIsMadeAtInitAndABadOneIsAnErrorWithItsLine() throws {
        let id = DiaryConfig.newDiaryID()
        XCTAssertTrue(DiaryConfig.isDiaryID(id))
        XCTAssertNotEqual(id, DiaryConfig.newDiaryID())
        XCTAssertEqual(try DiaryConfig.parse("name: x\nid: \(id)\n", path: "daybook.yml").id, id)
        XCTAssertThrowsError(try DiaryConfig.parse("name: x\nid: 12\n", path: "daybook.yml")) { XCTAssertTrue("\($0)".contains("daybook.yml:2")) }
    }
}
