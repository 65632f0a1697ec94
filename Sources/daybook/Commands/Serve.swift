// `daybook serve`: the diary as a local web app; prints the address with its secret token.
import ArgumentParser
import DaybookCore
import DaybookServer
import Foundation

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the diary as a local web app (read, write, draw with a pen, code by selecting text).",
        discussion: """
        Listens on 127.0.0.1 (this machine only) and prints the address to open, with a secret token; \
        the browser keeps the token in a cookie. --host 0.0.0.0 lets a tablet on the same network in: \
        anyone there who has the address with its token can read and change the diary. Ctrl-C stops it. \
        See `man daybook-serve`.
        """)

    @Option(help: ArgumentHelp("The port (0: any free port).", valueName: "n")) var port = 8765
    @Option(help: ArgumentHelp("The address to listen on: 127.0.0.1 (default), or 0.0.0.0 / a LAN address for a tablet.", valueName: "addr"))
    var host = "127.0.0.1"
    @Flag(help: "Open the address in the default browser.") var open = false
    @Flag(help: "Show raw HTML in entries as HTML instead of escaping it.") var unsafeHTML = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let options = ServeOptions(host: host, port: port, unsafeHTML: unsafeHTML)
        let server = DiaryServer(diary: diary, environment: global.environment, options: options)
        let exposed = !options.isLoopback
        let openBrowser = open
        let done = DispatchSemaphore(value: 0)
        let failure = ServeFailure()
        Task.detached {
            do {
                try await server.run { address in
                    Terminal.out(address)
                    Terminal.flush()
                    if exposed {
                        Terminal.warning(Diagnostic(.warning, "listening on \(options.host): anyone on this network who has the address with its token can read and change the diary"))
                    }
                    Terminal.message("daybook: serving \(diary.root.path); Ctrl-C stops")
                    if openBrowser { Serve.openInBrowser(address) }
                }
            } catch {
                failure.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = failure.error {
            throw DaybookError.io("cannot serve on \(host):\(port): \(error)")
        }
    }

    static func openInBrowser(_ address: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xdg-open", address]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}

private final class ServeFailure: @unchecked Sendable {
    var error: Error?
}
