// The secret that lets a browser in: printed in the URL as Jupyter does, then kept in a cookie.
import Foundation

public struct AccessToken: Sendable, Equatable {
    public let value: String

    /// 32 random bytes from the system's generator, as 64 hex digits.
    public init() {
        var generator = SystemRandomNumberGenerator()
        value = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    public init(_ value: String) { self.value = value }

    /// Compares in time that does not depend on where the first difference is, so the token
    /// cannot be guessed byte by byte from response times.
    public func matches(_ candidate: Substring?) -> Bool {
        guard let candidate else { return false }
        let a = Array(value.utf8), b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
