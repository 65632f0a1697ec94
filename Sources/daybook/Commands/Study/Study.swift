// `daybook study`: the diary commands across the participants of a diary study (study.yml).
import ArgumentParser
import DaybookCore
import Foundation

struct StudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "A diary study: sync the participants' diaries, and ls, stats, code stats, streak, export across them.",
        discussion: """
        A study is a folder with a study.yml naming each participant's diary (a path or a git URL) and \
        their attributes; `study sync` copies every diary into participants/<id>/ (read-only), the other \
        subcommands read those copies. See `man daybook-study`.
        """,
        subcommands: [StudySync.self, StudyLs.self, StudyStats.self, StudyCode.self, StudyStreak.self, StudyExport.self])
}

/// What every study subcommand takes: which study, which participants.
struct StudyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The study folder, or its study.yml (else the nearest folder with a study.yml at or above this one).", valueName: "path"))
    var study: String?
    @Option(name: .customLong("participant"), help: ArgumentHelp("Only this participant (repeatable).", valueName: "id"))
    var participants: [String] = []
    @Option(name: .customLong("attribute"), help: ArgumentHelp("Only participants whose attribute matches: site=Leeds, age!=18-29, age_group~^3, condition (has it). Repeat: all of them.", valueName: "expr"))
    var attributes: [String] = []

    func validate() throws {
        for a in attributes { _ = try FieldCondition(a) }
    }

    /// The study (from `folder` when the subcommand takes it as an argument).
    func load(_ folder: String? = nil, _ global: GlobalOptions) throws -> Study {
        Terminal.configure(color: global.color)
        // The participants' diaries are the study's: a --diary would be silently ignored.
        if global.diary != nil { throw DaybookError.usage("study commands read the diaries study.yml names: give the study with --study, not --diary") }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard let url = Study.locate(explicit: folder ?? study, workingDirectory: cwd) else {
            throw DaybookError.input("no \(Study.fileName) in \(cwd.path) or above it: name the study folder with --study (see man daybook-study)")
        }
        return try Study.load(url, display: Diary.displayPath(url.appendingPathComponent(Study.fileName), relativeTo: cwd))
    }

    /// The participants chosen by --participant and --attribute.
    func chosen(in study: Study) throws -> [Participant] {
        let chosen = try study.select(ids: participants, conditions: attributes.map(FieldCondition.init))
        if chosen.isEmpty { throw DaybookError.nothing("daybook: no participant has \(attributes.joined(separator: " and "))") }
        return chosen
    }
}

/// How `study stats`, `code stats` and `streak` show their table: per participant or per group, as text, CSV or JSON.
struct StudyTableOptions: ParsableArguments {
    @Option(name: .customLong("group"), help: ArgumentHelp("One row (code stats: column) per value of this participant attribute instead of per participant.", valueName: "attribute"))
    var group: String?
    @Flag(help: "JSON (its shape: man daybook-study).") var json = false
    @Flag(help: "CSV with a header line.") var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    /// The table as CSV or aligned columns.
    func print(header: [String], _ rows: [[String]]) { StudyDiaries.print(header: header, rows, csv: csv) }
}

/// The chosen participants' diaries, opened; one that cannot be read is an error on stderr and
/// the others go on, and the command ends with exit status 2 (see `finish`).
struct StudyDiaries {
    let study: Study
    var open: [(participant: Participant, diary: Diary)] = []
    var failed: [String] = []

    init(_ options: StudyOptions, _ global: GlobalOptions) throws {
        study = try options.load(nil, global)
        for p in try options.chosen(in: study) {
            do { open.append((p, try study.diary(of: p, environment: global.environment, workingDirectory: global.workingDirectory))) }
            catch let e as DaybookError { Terminal.error(e); failed.append(p.id) }
        }
    }

    /// Each open diary's result, or its error reported (the participant then counts as failed).
    /// The diaries are read on every core, one participant at a time each; what each writes to
    /// stderr (warnings, errors) is shown afterwards in study.yml's order, so the output is the
    /// same as one at a time.
    mutating func map<T>(_ body: (Participant, Diary) throws -> T) -> [(participant: Participant, diary: Diary, value: T)] {
        let open = self.open
        var outcomes = [(result: Result<T, Error>, messages: [String])?](repeating: nil, count: open.count)
        let bar = ProgressBar("reading participants"), lock = NSLock()
        var done = 0
        outcomes.withUnsafeMutableBufferPointer { slots in
            let slots = slots
            DispatchQueue.concurrentPerform(iterations: open.count) { k in
                slots[k] = Terminal.holdingMessages { try body(open[k].participant, open[k].diary) }
                lock.lock()
                done += 1
                if open.count > 1 { bar.update(done, of: open.count) }
                lock.unlock()
            }
        }
        bar.finish()
        var out: [(Participant, Diary, T)] = []
        for ((p, d), outcome) in zip(open, outcomes) {
            guard let outcome else { continue }
            outcome.messages.forEach(Terminal.writeErr)
            switch outcome.result {
            case let .success(value): out.append((p, d, value))
            case let .failure(e as DaybookError):
                Terminal.error(DaybookError(e.kind, "participant \(p.id): " + e.message, at: e.location))
                failed.append(p.id)
            case let .failure(e):
                Terminal.error(DaybookError(.io, "participant \(p.id): \(e)"))
                failed.append(p.id)
            }
        }
        return out
    }

    /// Exit status 2 when a participant could not be read, after the others were shown.
    func finish() throws {
        if !failed.isEmpty {
            Terminal.writeErr("daybook: error: \(failed.count) participant\(failed.count == 1 ? "" : "s") left out: \(failed.joined(separator: ", "))")
            throw ExitCode(2)
        }
    }

    /// Results per participant gathered per value of an attribute (`--group`), in Study.groups' order.
    static func grouped<T>(_ results: [(participant: Participant, diary: Diary, value: T)], by key: String)
        -> [(value: String, members: [(participant: Participant, diary: Diary, value: T)])] {
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.participant.id, $0) })
        return Study.groups(results.map(\.participant), by: key).map { g in (g.value, g.members.compactMap { byID[$0.id] }) }
    }

    /// A table: CSV with a header line, else aligned columns.
    static func print(header: [String], _ rows: [[String]], csv: Bool) {
        if csv {
            Terminal.out(header.map(CSV.field).joined(separator: ","))
            for r in rows { Terminal.out(r.map(CSV.field).joined(separator: ",")) }
        } else {
            ColumnTable(header: header, rows: rows).print()
        }
    }

    /// Participants with their attributes, for JSON.
    static func json(_ p: Participant) -> [(String, JSONValue)] {
        [("participant", .string(p.id)), ("attributes", .object(p.attributes.map { ($0.key, $0.value) }))]
    }
}
