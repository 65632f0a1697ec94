// Running the user's editor the way git does: $VISUAL, else $EDITOR, else vi, in the terminal's foreground.
import DaybookCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum Editor {
    static var command: String {
        let env = ProcessInfo.processInfo.environment
        if let v = env["VISUAL"], !v.isEmpty { return v }
        if let e = env["EDITOR"], !e.isEmpty { return e }
        return "vi"
    }

    /// The characters that make git hand an editor value to `sh -c` (run-command.c's
    /// prepare_shell_cmd); a plain program name is run directly, like git.
    private static let shellCharacters = Set("|&;<>()$`\\\"' \t\n*?[#~=%")

    /// The program and its arguments: `vi FILE`, or `sh -c 'VALUE "$@"' VALUE FILE`, so the file
    /// name is its own argument and never pasted into the command string. Unlike git, the shell
    /// first traps SIGINT and SIGQUIT with a no-op: dash (Debian's sh) would otherwise die of a ^C
    /// that the editor handles, leaving the editor running without daybook. A trapped signal is
    /// back at its default in the editor, and the shell runs the trap only once the editor is done.
    static func arguments(for command: String, file: String) -> [String] {
        if runsThroughShell(command) {
            return ["/bin/sh", "-c", "trap : INT QUIT; " + command + " \"$@\"", command, file]
        }
        return [command, file]
    }

    static func runsThroughShell(_ command: String) -> Bool {
        command.contains(where: { shellCharacters.contains($0) })
    }

    /// Opens the editor on `file` and waits for it.
    ///
    /// The editor stays in daybook's process group, which is the terminal's foreground group when
    /// daybook was started from a shell, so it may read the terminal and change its modes (a child
    /// in a group of its own is stopped by SIGTTIN/SIGTTOU before it draws). ^Z stops daybook and
    /// the editor together and `fg` resumes both. While the editor runs, daybook ignores SIGINT and
    /// SIGQUIT, as git does: a ^C is the editor's to handle; the editor gets them at their defaults.
    static func open(_ file: URL) throws {
        let command = self.command
        let argv = arguments(for: command, file: file.path)
        Terminal.flush()

        let oldInt = signal(SIGINT, SIG_IGN)
        let oldQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, oldInt)
            signal(SIGQUIT, oldQuit)
        }

        // stdin, stdout and stderr are inherited: the editor works on the same terminal.
        let pid = try Spawn.start(argv, what: "the editor `\(command)`")
        let (status, signalNumber) = try Spawn.wait(pid)
        if signalNumber != 0 {
            throw DaybookError.io("the editor `\(command)` was killed by signal \(signalNumber) (\(name(ofSignal: signalNumber))); nothing was saved from it")
        }
        let exitStatus = status ?? 0
        // The shell reports an editor killed by a signal as 128 + the signal's number.
        if runsThroughShell(command), exitStatus > 128, exitStatus < 128 + 32 {
            throw DaybookError.io("the editor `\(command)` was killed by signal \(exitStatus - 128) (\(name(ofSignal: exitStatus - 128))); nothing was saved from it")
        }
        guard exitStatus == 0 else {
            let why = exitStatus == 127 ? ": not found" : ""
            throw DaybookError.io("the editor `\(command)` failed (exit status \(exitStatus))\(why); nothing was saved from it")
        }
    }

    private static func name(ofSignal s: Int32) -> String {
        let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGABRT: "SIGABRT",
                                      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM"]
        return names[s] ?? String(cString: strsignal(s))
    }

    /// Edits `text` in a scratch file under .daybook/ and returns what the editor left.
    static func edit(text: String, diary: Diary) throws -> String {
        try AtomicFile.makeDirectory(diary.stateFolder)
        let file = diary.stateFolder.appendingPathComponent("new-\(getpid()).md")
        try AtomicFile.write(text, to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try open(file)
        guard let data = FileManager.default.contents(atPath: file.path) else { return "" }
        guard let s = String(validatingUTF8Data: data) else { throw DaybookError.input("the editor wrote text that is not UTF-8") }
        // Keep a copy until the entry is saved, so no word is lost if saving fails.
        try? AtomicFile.write(data, to: diary.stateFolder.appendingPathComponent("last-draft.md"))
        return s
    }
}
