// The root command: the list of subcommands and how errors become exit statuses.
import ArgumentParser
import DaybookCore
import Foundation

struct Daybook: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "daybook",
            abstract: "A plain-text research diary: Markdown entries, tags, codes, search, history by git.",
            discussion: "Every change is one git commit. `daybook help COMMAND` or `man daybook-COMMAND` for details.",
            version: version,
            subcommands: subcommands ?? commandList
        )
    }

    static let version = "0.1.0"

    /// The subcommands ArgumentParser sees, when the command line needs fewer than all of them.
    nonisolated(unsafe) private static var subcommands: [ParsableCommand.Type]?

    /// Builds only the tree the command line needs: ArgumentParser reflects over every option of
    /// every command it is given before parsing (bench/results-startup-2026-11-28.md). `daybook
    /// ls …` sees only `ls`; anything else (help, a typo, no command) sees them all, so that help
    /// lists every command and a misspelt one gets its "did you mean".
    static func narrow(to args: [String]) {
        if let first = args.first, let command = commandTable.first(where: { $0.name == first }) {
            subcommands = [command.type]
        }
    }

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
        var end = rest.firstIndex(of: "--") ?? rest.count
        // `new -m` takes the next word whatever it is (`-m "- milk"`): a trailing `-m` with no
        // text must not swallow a moved `--diary`, so the globals go before it and it stays
        // without a value (a usage error, as before).
        if end > 0, rest[end - 1] == "-m" || rest[end - 1] == "--message" { end -= 1 }
        rest.insert(contentsOf: globals, at: end)
        return rest
    }

    /// Runs the command line; exit 0 success, 1 nothing found, 2 error (SPEC §3).
    static func runMain() {
        Terminal.ignoreSigpipe()
        Change.notice = Terminal.warning
        let args = movingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        // `--version` alone prints at once, as git's does: ArgumentParser would first look for a
        // completion-script request by reflecting over its own options (most of its work for this).
        if args == ["--version"] {
            print(version)
            Foundation.exit(0)
        }
        narrow(to: args)
        do {
            var command = try parseAsRoot(args)
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
            if code != .success, let unknown = UnknownCommand.message(for: args) {
                Terminal.writeErr("daybook: error: " + unknown)
                Foundation.exit(2)
            }
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
