// Running the user's editor the way git does: $VISUAL, else $EDITOR, else vi, through sh -c.
import DaybookCore
import Foundation

enum Editor {
    static var command: String {
        let env = ProcessInfo.processInfo.environment
        if let v = env["VISUAL"], !v.isEmpty { return v }
        if let e = env["EDITOR"], !e.isEmpty { return e }
        return "vi"
    }

    /// Opens the editor on `file`; the file name is passed as its own argument, never pasted
    /// into the command string.
    static func open(_ file: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command + " \"$@\"", command, file.path]
        do { try p.run() } catch {
            throw DaybookError.io("cannot start the editor `\(command)`: \(error.localizedDescription)")
        }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw DaybookError.io("the editor `\(command)` failed (exit status \(p.terminationStatus)); nothing was saved from it")
        }
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
