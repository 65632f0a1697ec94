// Who may talk to the diary's server: the token, the Host header, the origin, the size of a body.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Every request passes here first. A diary holds private data, and a local server is reachable by
/// any web page the same browser opens, so:
/// - the `Host` header must name this server by address (`localhost` or an IP literal with the
///   served port): a DNS-rebinding page reaches us under its own host name and is refused;
/// - the token must come with the request: in the URL once (answered with a cookie and a redirect
///   that drops it from the address bar), then the cookie, or `Authorization: Bearer` for scripts;
/// - a request that changes something (any method but GET and HEAD) must come from a page of this
///   server (`Origin`, else `Sec-Fetch-Site: same-origin`), unless it carries the bearer token,
///   which another site's page cannot send;
/// - a body larger than the limit is refused before it is read;
/// - every response forbids framing, inline scripts, and outside resources.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let options: ServeOptions
    let port: BoundPort

    static var securityHeaders: HTTPFields {
        [
            // Style attributes are allowed (codebook colours are written as `style="--code: #…"` by the
            // HTML the export shares); style elements, scripts and everything else only from here.
            .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
                + "img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
            HTTPField.Name("Cross-Origin-Resource-Policy")!: "same-origin",
            .cacheControl: "no-store",
        ]
    }

    var cookieName: String { "daybook-\(port.value)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await check(request, context: context, next: next)
        } catch let error as any HTTPResponseError {
            // Errors become responses here, not further out, so that they carry the headers too.
            response = try error.response(from: request, context: context)
        } catch let error as DaybookError {
            // What the library refuses (no such template, a daybook.yml that no longer reads) is
            // said as the CLI says it, never as an anonymous 500.
            let status: HTTPResponse.Status = switch error.kind {
            case _ where RequestGuard.isLinkRefusal(error): .forbidden
            case .nothing: .notFound
            case .usage, .input: .unprocessableContent
            case .io, .git: .internalServerError
            }
            response = RequestGuard.refusal(status, error.description)
        }
        response.headers.append(contentsOf: RequestGuard.securityHeaders)
        if request.method != .get && request.method != .head { Heap.trim() }
        return response
    }

    private func check(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, isOurHost(host) else {
            return RequestGuard.refusal(.misdirectedRequest, "This server answers only to its own address (the Host header names another).")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > options.maxBodySize {
            // Answered before the body is read; the connection closes, so the rest is never read either.
            var refusal = RequestGuard.refusal(.contentTooLarge, "The request body is larger than \(options.maxBodySize) bytes.")
            refusal.headers[.connection] = "close"
            return refusal
        }
        let bearer = request.headers[.authorization].flatMap { value -> Substring? in
            value.hasPrefix("Bearer ") ? value.dropFirst(7) : nil
        }
        if options.token.matches(bearer) { return try await next(request, context) }
        if let inURL = request.uri.queryParameters["token"] {
            guard options.token.matches(inURL) else { return RequestGuard.refusal(.unauthorized, RequestGuard.tokenHelp) }
            var redirect = Response(status: .seeOther, headers: [.location: RequestGuard.withoutToken(request.uri)])
            redirect.setCookie(Cookie(name: cookieName, value: options.token.value, path: "/", httpOnly: true, sameSite: .strict))
            return redirect
        }
        guard options.token.matches(request.cookies[cookieName].map { Substring($0.value) }) else {
            return RequestGuard.refusal(.unauthorized, RequestGuard.tokenHelp)
        }
        if request.method != .get && request.method != .head && !isSameOrigin(request, host: host) {
            return RequestGuard.refusal(.forbidden, "A change must come from a page of this server (the Origin header names another).")
        }
        return try await next(request, context)
    }

    /// The core's refusal to read through a symbolic link (`Diary.fileBytes`): answered 403, as a
    /// file the server will not give out, never as the file the link points to.
    static func isLinkRefusal(_ error: DaybookError) -> Bool { error.message == Diary.symbolicLinkMessage }

    static var tokenHelp: String { "Open the address that `daybook serve` printed: it carries the token that lets you in." }

    /// `localhost` or an IP literal, on the port served; on a loopback bind, a loopback name only.
    func isOurHost(_ authority: String) -> Bool {
        guard let colon = authority.lastIndex(of: ":"), authority[authority.index(after: colon)...] == "\(port.value)" else { return false }
        var name = String(authority[..<colon])
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        let loopback = name == "localhost" || name == "::1" || (name.hasPrefix("127.") && RequestGuard.isIPv4(name))
        if options.isLoopback { return loopback }
        return loopback || RequestGuard.isIPv4(name) || (name.contains(":") && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." })
    }

    func isSameOrigin(_ request: Request, host: String) -> Bool {
        if let origin = request.headers[.origin] { return origin == "http://" + host }
        return request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "same-origin"
    }

    static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCII) && UInt8(p) != nil }
    }

    /// The request's path and query without the `token` parameter.
    static func withoutToken(_ uri: URI) -> String {
        let kept = (uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") }
        return uri.path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// The port the server listens on, known once it is bound (port 0 lets the system choose).
final class BoundPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port: Int

    init(_ port: Int) { self.port = port }

    var value: Int {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }
}
