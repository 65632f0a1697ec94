// Other programs the export and import tests call to check or prepare files (never daybook's own work).
import Foundation

extension CLITestCase {
    /// Runs `path` with `args` in `cwd`; returns the exit status and prints stderr when it fails.
    @discardableResult
    func tool(_ path: String, _ args: [String], cwd: URL? = nil) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        if let cwd { p.currentDirectoryURL = cwd }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let msg = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus != 0 { print(String(decoding: msg, as: UTF8.self)) }
        return p.terminationStatus
    }
}
