// End-to-end sync between diaries on one machine: bare remotes, plain clones, git daemon.
import XCTest

final class SyncTests: CLITestCase {
    var folder: URL { diary.deletingLastPathComponent() }
    var remote: URL { folder.appendingPathComponent("remote.git") }
    var a: URL { diary }
    var b: URL { folder.appendingPathComponent("b") }

    /// daybook on another diary.
    @discardableResult
    func on(_ d: URL, _ args: String..., status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try on(d, args, status: status, file: file, line: line)
    }

    /// The system git, for setting up remotes and asserting (daybook itself never runs it).
    @discardableResult
    func sh(_ args: String..., in dir: URL? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = (dir.map { ["-C", $0.path] } ?? []) + args
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "git \(args.joined(separator: " ")): \(errText)")
        return String(decoding: data, as: UTF8.self)
    }

    /// A diary on `a` that syncs with a new bare remote, and a plain `git clone` of it on `b`.
    func twoMachines() throws {
        try sh("init", "-q", "--bare", "-b", "main", remote.path)
        try initDiary()
        try on(a, "sync", "--set-remote", remote.path)
        try sh("clone", "-q", remote.path, b.path)
    }

    /// An entry made on `a` and synced to `b`.
    func sharedEntry(_ title: String, _ body: String, _ extra: [String] = []) throws -> URL {
        try twoMachines()
        let p = try entry(a, title, body, extra)
        try on(a, "sync")
        try on(b, "sync")
        return p
    }

    /// Edits a shared entry one way on a and another on b, then syncs a, then b; b's sync.
    @discardableResult
    func diverge(_ p: URL, a onA: (String, String), b onB: (String, String)) throws -> RunResult {
        try edit(p, onA.0, onA.1)
        try edit(same(p, on: b), onB.0, onB.1)
        try on(a, "sync")
        return try on(b, "sync")
    }

    func entry(_ d: URL, _ title: String, _ body: String, at date: String = "2026-11-20 08:00", _ extra: [String] = []) throws -> URL {
        let r = try on(d, ["new", title, "-m", body, "--date", date] + extra)
        let printed = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        return printed.hasPrefix("/") ? URL(fileURLWithPath: printed) : folder.appendingPathComponent(printed)
    }

    @discardableResult
    func on(_ d: URL, _ args: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let r = try run(args, env: ["DAYBOOK_DIR": d.path])
        XCTAssertEqual(r.status, status, "daybook \(args.joined(separator: " ")) on \(d.lastPathComponent): \(r.err)", file: file, line: line)
        return r
    }

    func same(_ p: URL, on d: URL) -> URL { d.appendingPathComponent(String(p.path.dropFirst(a.path.count + 1))) }

    func edit(_ url: URL, _ old: String, _ new: String) throws {
        let text = try read(url)
        XCTAssertTrue(text.contains(old), "\(url.lastPathComponent) lacks \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// Nothing pending, nothing mid-merge, and git's strictest check passes.
    func assertClean(_ d: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try sh("status", "--porcelain", in: d), "", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.appendingPathComponent(".git/MERGE_HEAD").path), file: file, line: line)
        try sh("fsck", "--strict", "--no-progress", in: d)
        for f in FileManager.default.enumerator(atPath: d.appendingPathComponent("entries").path)?.allObjects as? [String] ?? [] where f.hasSuffix(".md") {
            let text = try read(d.appendingPathComponent("entries/" + f))
            XCTAssertFalse(text.contains("<<<<<<<") || text.contains(">>>>>>>"), "conflict markers in \(f)", file: file, line: line)
        }
    }

    func titles(_ d: URL) throws -> [String] {
        let r = try on(d, "ls", "--json")
        let items = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }.sorted()
    }

    func testAnEmptyRemoteReceivesTheDiaryAndAPlainCloneSyncs() throws {
        try twoMachines()
        XCTAssertEqual(try sh("rev-parse", "main", in: remote), try git("rev-parse", "HEAD"))
        XCTAssertEqual(try git("config", "branch.main.remote").trimmingCharacters(in: .newlines), "origin")
        let r = try on(b, "sync")
        XCTAssertTrue(r.err.contains("synced with origin: already up to date"), r.err)
    }

    func testBothSidesAddingEntries() throws {
        try twoMachines()
        _ = try entry(a, "From A", "written on a", at: "2026-11-20 08:00")
        let fromB = try entry(b, "From B", "written on b", at: "2026-11-20 09:00")
        try on(a, "sync")
        let r = try on(b, "sync")
        XCTAssertTrue(r.err.contains("received 1 change (merged), sent 2 changes"), r.err)
        try on(a, "sync")
        XCTAssertEqual(try titles(a), ["From A", "From B"])
        XCTAssertEqual(try titles(b), ["From A", "From B"])
        XCTAssertEqual(try sh("log", "-1", "--format=%s%n%P", in: b).split(separator: "\n").first, "sync: merge 1 change from origin")
        XCTAssertEqual(try sh("rev-parse", "HEAD", in: a), try sh("rev-parse", "HEAD", in: b))
        try assertClean(a)
        // Edits made by hand are committed first, and said so.
        try edit(fromB, "written on b", "written on b, then edited by hand")
        XCTAssertTrue(try on(b, "sync").err.contains("committed edits made outside daybook"))
        try assertClean(b)
    }

    func testTagsAndCodingsChangedOnBothSides() throws {
        let p = try sharedEntry("Shared", "the login failed again", ["-t", "start"])
        try diverge(p, a: ("tags: [start]", "tags: [start, from-a]\ncodes:\n  - trust"),
                    b: ("tags: [start]", "tags: [from-b]\ncodes:\n  - code: frustration\n    quote: login failed"))
        try on(a, "sync")
        // b merged last, so its order comes first; a fast-forwarded to the same file.
        let text = try read(same(p, on: b))
        XCTAssertTrue(text.contains("tags: [from-b, from-a]\ncodes:\n  - code: frustration\n    quote: login failed\n  - trust\n---\n"), text)
        XCTAssertEqual(try read(p), text)
        try assertClean(b)
    }

    func testTheSameScalarChangedOnBothKeepsLocalAndReportsTheCopy() throws {
        let p = try sharedEntry("Mood swing", "a day", ["--mood", "3"])
        let r = try diverge(p, a: ("mood: 3", "mood: 4"), b: ("mood: 3", "mood: 1"))
        let copy = p.deletingLastPathComponent().appendingPathComponent(p.deletingPathExtension().lastPathComponent + ".conflict-")
        XCTAssertTrue(r.err.contains("both machines changed `mood` differently"), r.err)
        XCTAssertTrue(try read(same(p, on: b)).contains("mood: 1"))
        let copies = try FileManager.default.contentsOfDirectory(atPath: same(p, on: b).deletingLastPathComponent().path)
            .filter { $0.hasPrefix(copy.lastPathComponent) }
        XCTAssertEqual(copies.count, 1)
        XCTAssertTrue(try read(same(p, on: b).deletingLastPathComponent().appendingPathComponent(copies[0])).contains("mood: 4"))
        let check = try on(b, "check", status: 1)
        XCTAssertTrue(check.out.contains(".conflict-") && check.out.contains("conflict copy"), check.out)
        try assertClean(b)
        // The other machine gets the merge and the copy too, and keeps reporting it until removed.
        try on(a, "sync")
        XCTAssertTrue(try read(p).contains("mood: 1"))
        try on(a, "check", status: 1)
    }

    func testTheSameBodyLinesChangedOnBoth() throws {
        let p = try sharedEntry("Contested", "line one\nline two\n\nline four")
        try edit(same(p, on: b), "line four", "line four, B added")
        try diverge(p, a: ("line two", "line two as A saw it"), b: ("line two", "line two as B saw it"))
        let local = try read(same(p, on: b))
        XCTAssertTrue(local.contains("as B saw it") && local.contains("line four, B added") && !local.contains("as A saw it"))
        let copies = try FileManager.default.contentsOfDirectory(atPath: same(p, on: b).deletingLastPathComponent().path).filter { $0.contains(".conflict-") }
        XCTAssertEqual(copies.count, 1)
        try assertClean(b)
    }

    func testOneSideDeletingWhatTheOtherEditedKeepsTheEdit() throws {
        let p = try sharedEntry("Keep me", "first words")
        try on(a, "rm", p.path)
        try edit(same(p, on: b), "first words", "first words and more")
        try on(a, "sync")
        try on(b, "sync")
        try on(a, "sync")
        for d in [a, b] { XCTAssertTrue(try read(same(p, on: d)).contains("first words and more")) }
        // And the other way round: the editing side syncs first.
        try edit(p, "and more", "and even more")
        try on(b, "rm", same(p, on: b).path)
        try on(a, "sync")
        try on(b, "sync")
        XCTAssertTrue(try read(same(p, on: b)).contains("and even more"))
        try assertClean(b)
    }

    func testTheSameIdAddedOnBothKeepsBoth() throws {
        try twoMachines()
        let p = try entry(a, "Twin", "from a")
        _ = try entry(b, "Twin", "from b")
        try on(a, "sync")
        let r = try on(b, "sync")
        XCTAssertTrue(r.err.contains("the other machine's entry is now"), r.err)
        XCTAssertTrue(try read(same(p, on: b)).contains("from b"))
        let renamed = p.deletingPathExtension().path + "-2.md"
        XCTAssertTrue(try read(same(URL(fileURLWithPath: renamed), on: b)).contains("from a"))
        try assertClean(b)
    }

    func testThreeMachines() throws {
        try twoMachines()
        let c = folder.appendingPathComponent("c")
        try sh("clone", "-q", remote.path, c.path)
        let p = try entry(a, "Shared", "base text\n\nmiddle\n\nend", ["-t", "start"])
        try on(a, "sync")
        try on(b, "sync")
        try on(c, "sync")
        try edit(p, "base text", "base text, A")
        try edit(same(p, on: b), "tags: [start]", "tags: [start, b]")
        try edit(same(p, on: c), "end", "end, C")
        _ = try entry(c, "Only C", "c", at: "2026-11-19 10:00")
        for d in [a, b, c, a, b] { try on(d, "sync") }
        let want = try read(same(p, on: a))
        XCTAssertTrue(want.contains("base text, A") && want.contains("tags: [start, b]") && want.contains("end, C"), want)
        for d in [b, c] { XCTAssertEqual(try read(same(p, on: d)), want) }
        XCTAssertEqual(try titles(b), ["Only C", "Shared"])
        try assertClean(c)
    }

    func testARemoteAheadByManyCommitsFastForwards() throws {
        try twoMachines()
        for i in 0..<40 { _ = try entry(a, "Entry \(i)", "text \(i)", at: String(format: "2026-11-%02d 10:00", i % 28 + 1)) }
        try on(a, "sync")
        let r = try on(b, "sync")
        XCTAssertTrue(r.err.contains("received 40 changes"), r.err)
        XCTAssertEqual(try sh("rev-parse", "HEAD", in: b), try sh("rev-parse", "HEAD", in: a))
        XCTAssertEqual(try titles(b).count, 40)
        try assertClean(b)
    }

    func testNoPushLeavesTheRemoteAlone() throws {
        try twoMachines()
        _ = try entry(a, "Local only", "x")
        let before = try sh("rev-parse", "main", in: remote)
        try on(a, "sync", "--no-push")
        XCTAssertEqual(try sh("rev-parse", "main", in: remote), before)
    }

    func testAnUnreachableRemoteIsOneLineAndExitTwo() throws {
        try initDiary()
        let head = try git("rev-parse", "HEAD")
        let r = try on(a, "sync", "--set-remote", "git://127.0.0.1:1/nowhere.git", status: 2)
        XCTAssertTrue(r.err.hasPrefix("daybook: error: cannot fetch from origin (git://127.0.0.1:1/nowhere.git): "), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertEqual(try git("rev-parse", "HEAD"), head)
        XCTAssertEqual(try git("status", "--porcelain"), "")
    }

    func testNoRemoteIsAnError() throws {
        try initDiary()
        let r = try on(a, "sync", status: 2)
        XCTAssertTrue(r.err.contains("no remote `origin`") && r.err.contains("--set-remote"), r.err)
    }

    /// A git daemon serving `folder` on a free loopback port, with push enabled; nil after 5 tries.
    func startGitDaemon() throws -> (Process, String)? {
        for _ in 0..<5 {
            let port = Int.random(in: 20000..<60000)
            let daemon = Process()
            daemon.executableURL = URL(fileURLWithPath: "/usr/bin/git")
            daemon.arguments = ["daemon", "--export-all", "--base-path=\(folder.path)", "--port=\(port)", "--listen=127.0.0.1",
                                "--enable=receive-pack", "--reuseaddr", folder.path]
            daemon.environment = environment
            daemon.standardError = FileHandle.nullDevice
            try daemon.run()
            let url = "git://127.0.0.1:\(port)/remote.git"
            // Up to 5 s for it to answer; a daemon that exited (port taken) makes way for another port.
            for _ in 0..<50 where daemon.isRunning {
                let probe = Process()
                probe.executableURL = URL(fileURLWithPath: "/usr/bin/git")
                probe.arguments = ["ls-remote", url]
                probe.environment = environment
                probe.standardOutput = FileHandle.nullDevice
                probe.standardError = FileHandle.nullDevice
                try probe.run()
                probe.waitUntilExit()
                if probe.terminationStatus == 0 { return (daemon, url) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
        }
        return nil
    }

    func testSyncOverGitDaemonOnLoopback() throws {
        try sh("init", "-q", "--bare", "-b", "main", remote.path)
        guard let (daemon, url) = try startGitDaemon() else { return XCTFail("git daemon did not start") }
        defer { daemon.terminate(); daemon.waitUntilExit() }
        try initDiary()
        _ = try entry(a, "Over the wire", "sent by git://")
        try on(a, "sync", "--set-remote", url)
        try on(b.deletingLastPathComponent(), "init", b.path)
        try on(b, "sync", "--set-remote", url)
        XCTAssertEqual(try titles(b), ["Over the wire"])
        _ = try entry(b, "Back again", "from b", at: "2026-11-20 09:00")
        try on(b, "sync")
        try on(a, "sync")
        XCTAssertEqual(try titles(a), ["Back again", "Over the wire"])
        try assertClean(a)
    }
}
