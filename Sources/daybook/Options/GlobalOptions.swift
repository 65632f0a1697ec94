// Options every command takes: which diary, how quiet, when to colour.
import ArgumentParser
import DaybookCore
import Foundation

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The diary folder (else $DAYBOOK_DIR, the nearest folder with a daybook.yml, ~/daybook).", valueName: "path"))
    var diary: String?

    @Flag(name: .shortAndLong, help: "No confirmation on stderr.")
    var quiet = false

    @Option(name: .long, help: "Colour: auto (a terminal, NO_COLOR unset, TERM not dumb), always or never.")
    var color: ColorChoice = .auto

    var environment: [String: String] { ProcessInfo.processInfo.environment }
    var workingDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }

    /// The diary the command works on; fails naming the place looked at when there is none.
    func openDiary(needsSchedule: Bool = false, showReminders: Bool = true) throws -> Diary {
        Terminal.configure(color: color)
        let (url, _) = Diary.locate(explicit: diary, environment: environment, workingDirectory: workingDirectory)
        guard Diary.exists(at: url) else {
            throw DaybookError.input("no diary at \(url.path): create one with `daybook init \(url.path)`, or name one with --diary or DAYBOOK_DIR")
        }
        let opened = try Diary.open(url, environment: environment, workingDirectory: workingDirectory)
        // A command that needs the schedule fails with this (`requireSchedule`); the others go on.
        if let problem = opened.config.scheduleProblem, !needsSchedule {
            Terminal.warning(Diagnostic(.warning, "\(problem.message); the schedule is left out until it is fixed", at: problem.location))
        }
        // What a reminder that tells by log found since the last command (see daybook-remind(1)).
        if showReminders { for line in ReminderLog.take(opened) { Terminal.message("daybook: " + line) } }
        return opened
    }

    /// A confirmation line on stderr, unless -q.
    func confirm(_ text: String) {
        if !quiet { Terminal.message(text) }
    }
}
