// Runs the built daybook binary on temporary diaries, as a user's shell would.
import Foundation
import XCTest

struct RunResult {
    var status: Int32
    var out: String
    var err: String
}

class CLITestCase: XCTestCase {
    var home: URL!
    var diary: URL!
    let now = "2026-11-21T12:00:00+01:00"

    /// The daybook binary next to the test bundle (swift build puts both in .build/<config>/).
    static var binary: URL {
        if let env = ProcessInfo.processInfo.environment["DAYBOOK_BIN"], !env.isEmpty { return URL(fileURLWithPath: env) }
        var dir = Bundle(for: CLITestCase.self).bundleURL
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("daybook")
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/daybook")
    }

    override func setUpWithError() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-cli-\(UUID().uuidString)")
        home = tmp.appendingPathComponent("home")
        diary = tmp.appendingPathComponent("diary")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try "[user]\n\tname = Test Writer\n\temail = writer@example.org\n[init]\n\tdefaultBranch = main\n"
            .write(to: home.appendingPathComponent(".gitconfig"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home.deletingLastPathComponent())
    }

    var environment: [String: String] {
        ["HOME": home.path, "PATH": "/usr/bin:/bin", "DAYBOOK_DIR": diary.path, "DAYBOOK_NOW": now,
         "NO_COLOR": "1", "TERM": "dumb", "EDITOR": "false", "VISUAL": "", "GIT_CONFIG_NOSYSTEM": "1",
         "LANG": "C.UTF-8", "TZ": "Europe/Vienna"]
    }

    @discardableResult
    func run(_ args: [String], input: String = "", env extra: [String: String] = [:], cwd: URL? = nil) throws -> RunResult {
        let p = Process()
        p.executableURL = CLITestCase.binary
        p.arguments = args
        p.environment = environment.merging(extra) { $1 }
        p.currentDirectoryURL = cwd ?? diary.deletingLastPathComponent()
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        try p.run()
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
        // Drain stdout on another thread so a full pipe never blocks the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outBox.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let outData = outBox.data
        p.waitUntilExit()
        return RunResult(status: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    /// Runs and fails the test unless the exit status is 0.
    @discardableResult
    func ok(_ args: String..., input: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let r = try run(args, input: input)
        XCTAssertEqual(r.status, 0, "daybook \(args.joined(separator: " ")): \(r.err)", file: file, line: line)
        return r
    }

    func initDiary() throws { try ok("init", diary.path) }

    /// The absolute path of what `new` printed.
    func newEntry(_ args: String..., input: String = "") throws -> URL {
        let r = try run(["new"] + args, input: input)
        XCTAssertEqual(r.status, 0, r.err)
        let printed = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        return printed.hasPrefix("/") ? URL(fileURLWithPath: printed) : diary.deletingLastPathComponent().appendingPathComponent(printed)
    }

    func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    func write(_ rel: String, _ text: String) throws -> URL {
        let url = diary.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Runs the system git for assertions only (daybook itself never runs git).
    func git(_ args: String...) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["-C", diary.path] + args
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func commitCount() throws -> Int { Int(try git("rev-list", "--count", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
}
