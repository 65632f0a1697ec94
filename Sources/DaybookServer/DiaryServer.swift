// `daybook serve`: the diary as a local web app over the same library, files and commits as the CLI.
import DaybookCore
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The request context of every route: the diary's limits on top of Hummingbird's basics.
public struct DiaryRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the server for every request; the guard refuses larger bodies by their length first.
    public var maxUploadSize: Int { 8 << 20 }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

public final class DiaryServer: Sendable {
    let access: DiaryAccess
    public let options: ServeOptions
    let port: BoundPort

    /// `environment` is what the diary was opened with: the server opens it again with the same
    /// when daybook.yml or a template changes.
    public init(diary: Diary, environment: [String: String], options: ServeOptions) {
        access = DiaryAccess(diary, environment: environment)
        self.options = options
        port = BoundPort(options.port)
    }

    /// The address to open, with the token, once the server listens.
    public func address(port: Int) -> String {
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)/?token=\(options.token.value)"
    }

    func router() -> Router<DiaryRequestContext> {
        let router = Router(context: DiaryRequestContext.self)
        router.add(middleware: RequestGuard(options: options, port: port))
        StaticAssets.add(to: router)
        PageRoutes(access: access, options: options).add(to: router)
        EntryRoutes(access: access, options: options).add(to: router)
        CodingRoutes(access: access).add(to: router)
        CodeRoutes(access: access).add(to: router)
        StrokeRoutes(access: access).add(to: router)
        SearchRoutes(access: access).add(to: router)
        TemplateRoutes(access: access).add(to: router)
        return router
    }

    /// Listens until SIGINT or SIGTERM, then stops cleanly; `ready` gets the address to open.
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        UntilExit.isEnabled = false
        var logger = Logger(label: "daybook serve")
        logger.logLevel = .error
        let port = self.port
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "daybook"),
            onServerRunning: { channel in
                port.value = channel.localAddress?.port ?? port.value
                ready(self.address(port: port.value))
            },
            logger: logger)
        try await app.runService()
    }
}
