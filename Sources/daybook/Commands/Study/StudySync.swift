// `daybook study sync`: clone or fast-forward every participant's diary into the study folder.
import ArgumentParser
import DaybookCore
import Foundation

struct StudySync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Clone each participant's diary into participants/<id>/, or bring the copy up to date (read-only).",
        discussion: """
        Nothing is ever committed in or pushed to a participant's diary; a copy only moves forward to \
        what its remote holds. A participant that fails is reported and the others go on. Exit status: \
        0 all synced, 2 one or more failed.
        """)

    @Argument(help: ArgumentHelp("The study folder or its study.yml (else --study, else the nearest folder with a study.yml).", valueName: "study"))
    var folder: String?
    @OptionGroup var options: StudyOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let study = try options.load(folder, global)
        let showProgress = Terminal.stderrIsTerminal && !global.quiet
        var failed: [String] = []
        for p in try options.chosen(in: study) {
            do {
                let outcome = try study.sync(p, progress: showProgress ? Sync.progress : nil)
                let what: String
                switch outcome {
                case .cloned: what = "cloned"
                case let .updated(n): what = "received \(n) change\(n == 1 ? "" : "s")"
                case .upToDate: what = "already up to date"
                }
                Terminal.out("\(p.id)\t\(what)\t\(study.source(of: p))")
            } catch let e as DaybookError {
                Terminal.error(DaybookError(e.kind, "participant \(p.id) (\(study.source(of: p))): " + e.message, at: e.location))
                Terminal.out("\(p.id)\tfailed\t\(study.source(of: p))")
                failed.append(p.id)
            }
        }
        if !failed.isEmpty {
            Terminal.writeErr("daybook: error: \(failed.count) participant\(failed.count == 1 ? "" : "s") not synced: \(failed.joined(separator: ", "))")
            throw ExitCode(2)
        }
    }
}
