// Name-based UUIDs (RFC 4122 version 5, SHA-1): the same name gives the same GUID in every export.
import Crypto
import Foundation

public enum NameUUID {
    /// daybook's namespace for REFI-QDA GUIDs (a fixed random UUID).
    public static let namespace: [UInt8] = [0x6f, 0x3c, 0x2e, 0x51, 0x9a, 0x0d, 0x4b, 0x7e, 0x8f, 0x21, 0x5d, 0x44, 0xc3, 0x90, 0x1a, 0xe7]

    /// `xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx` (lower-case hex) for `name` in `namespace`.
    public static func make(_ name: String, namespace: [UInt8] = NameUUID.namespace) -> String {
        // SHA-1 as RFC 4122 names it for version 5 (not for secrecy): swift-crypto's.
        var bytes = Array(Insecure.SHA1.hash(data: namespace + Array(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
