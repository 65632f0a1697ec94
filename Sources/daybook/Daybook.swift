// The root command: the list of subcommands and how errors become exit statuses.
import ArgumentParser
import DaybookCore
import Foundation

struct Daybook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daybook",
        abstract: "A plain-text research diary: Markdown entries, tags, codes, search, history by git.",
        discussion: "Every change is one git commit. `daybook help COMMAND` or `man daybook-COMMAND` for details.",
        version: "0.1.0",
        subcommands: commandList
    )

    /// `daybook --diary X ls` works like `daybook ls --diary X`: the global options given before the
    /// command move to the end (before a `--`), where every subcommand's option group reads them.
    static func movingGlobalOptions(_ args: [String]) -> [String] {
        var globals: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "-q" || a == "--quiet" || a.hasPrefix("--diary=") || a.hasPrefix("--color=") {
                globals.append(a); i += 1
            } else if (a == "--diary" || a == "--color"), i + 1 < args.count {
                globals += [a, args[i + 1]]; i += 2
            } else { break }
        }
        guard !globals.isEmpty, i < args.count else { return args }
        var rest = Array(args[i...])
        let end = rest.firstIndex(of: "--") ?? rest.count
        rest.insert(contentsOf: globals, at: end)
        return rest
    }

    /// Runs the command line; exit 0 success, 1 nothing found, 2 error (SPEC §3).
    static func runMain() {
        Terminal.ignoreSigpipe()
        Change.notice = Terminal.warning
        do {
            var command = try parseAsRoot(movingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            try command.run()
            Terminal.flush()
            Foundation.exit(0)
        } catch let e as DaybookError {
            Terminal.flush()
            if e.kind == .nothing {
                if !e.message.isEmpty { Terminal.message(e.message) }
                Foundation.exit(1)
            }
            Terminal.error(e)
            Foundation.exit(2)
        } catch let e as ExitCode {
            Terminal.flush()
            Foundation.exit(e.rawValue)
        } catch {
            Terminal.flush()
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .success {
                print(text)
                Foundation.exit(0)
            }
            if code.rawValue == 1 && text.isEmpty { Foundation.exit(1) }
            Terminal.writeErr(text.hasPrefix("Error: ") ? "daybook: error: " + text.dropFirst(7) : text)
            Foundation.exit(2)
        }
    }
}
