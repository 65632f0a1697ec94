// What `daybook serve` was asked for: where to listen, and what the pages may show.
import Foundation

public struct ServeOptions: Sendable {
    /// The address to bind: 127.0.0.1 by default; another address exposes the diary to that network.
    public var host: String
    /// 0 lets the system choose a free port.
    public var port: Int
    /// Raw HTML in entries is shown as HTML instead of escaped text.
    public var unsafeHTML: Bool
    /// The secret every request must carry (in the URL once, then a cookie).
    public var token: AccessToken
    /// The largest request body accepted, in bytes.
    public var maxBodySize: Int

    public init(host: String = "127.0.0.1", port: Int = 8765, unsafeHTML: Bool = false,
                token: AccessToken = AccessToken(), maxBodySize: Int = 8 << 20) {
        self.host = host
        self.port = port
        self.unsafeHTML = unsafeHTML
        self.token = token
        self.maxBodySize = maxBodySize
    }

    /// Whether `host` is reachable only from this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
