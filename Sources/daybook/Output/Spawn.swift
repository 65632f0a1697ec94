// Running another program with posix_spawn (never through a shell): the editor, and the system tools of `remind`.
import DaybookCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum Spawn {
    /// How a program ended.
    struct Outcome {
        /// The exit status; nil when a signal killed it.
        var status: Int32?
        /// The signal that killed it, else 0.
        var signal: Int32
        var out = Data()
        var err = Data()
        var succeeded: Bool { status == 0 }
        /// stderr (else stdout) as one line, for a message.
        var complaint: String {
            let text = String(decoding: err.isEmpty ? out : err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let why = status.map { "exit status \($0)" } ?? "killed by signal \(signal)"
            return text.isEmpty ? why : "\(why): \(text.replacingOccurrences(of: "\n", with: " "))"
        }
    }

    /// Starts `argv[0]` (looked up in PATH unless it has a slash) with the signals daybook ignores
    /// back at their defaults and none blocked; stdin, stdout and stderr are daybook's unless
    /// `redirect` gives a file descriptor for 0, 1 or 2. Returns the child's pid; an error names
    /// `what` was started.
    static func start(_ argv: [String], what: String, redirect: [Int32: Int32] = [:]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // What daybook ignores (SIGPIPE always, SIGINT and SIGQUIT around the editor) would stay ignored across exec.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, fd) in redirect { posix_spawn_file_actions_adddup2(&actions, fd, target) }

        var cArgs = argv.map { strdup($0) }
        cArgs.append(nil)
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, environ)
        guard spawned == 0 else { throw DaybookError.io("cannot start \(what): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Waits for `pid`: its exit status, or the signal that killed it.
    static func wait(_ pid: pid_t) throws -> (status: Int32?, signal: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw DaybookError.io("cannot wait for process \(pid): \(String(cString: strerror(errno)))") }
        }
        let signalNumber = status & 0x7f
        return signalNumber != 0 ? (nil, signalNumber) : ((status >> 8) & 0xff, 0)
    }

    /// Runs `argv` to its end with `input` on its stdin (else nothing) and its stdout and stderr
    /// kept. They pass through unlinked temporary files, so no pipe can fill up and stall it.
    static func run(_ argv: [String], input: Data = Data()) throws -> Outcome {
        func scratch() throws -> Int32 {
            var template = Array((NSTemporaryDirectory() + "/daybook-run-XXXXXX").utf8CString)
            let fd = mkstemp(&template)
            guard fd >= 0 else { throw DaybookError.io("cannot make a temporary file: \(String(cString: strerror(errno)))") }
            unlink(String(cString: template))
            return fd
        }
        let (inFD, outFD, errFD) = (try scratch(), try scratch(), try scratch())
        defer { [inFD, outFD, errFD].forEach { close($0) } }
        do { try FileHandle(fileDescriptor: inFD, closeOnDealloc: false).write(contentsOf: input) } catch {
            throw DaybookError.io("cannot write the input of `\(argv[0])`: \(error.localizedDescription)")
        }
        lseek(inFD, 0, SEEK_SET)
        let pid = try start(argv, what: "`\(argv[0])`", redirect: [0: inFD, 1: outFD, 2: errFD])
        let (status, signal) = try wait(pid)
        return Outcome(status: status, signal: signal, out: readAll(outFD), err: readAll(errFD))
    }

    private static func readAll(_ fd: Int32) -> Data {
        lseek(fd, 0, SEEK_SET)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n < 0, errno == EINTR { continue } else { break }
        }
        return data
    }

    /// The full path of `program` in PATH, as posix_spawnp would find it; nil when it is not there.
    static func find(_ program: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let path = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}
