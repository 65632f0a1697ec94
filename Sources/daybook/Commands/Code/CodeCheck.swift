// `daybook code check`: orphaned quotes, undefined codes in strict mode, duplicate codings.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report orphaned quotes, codes missing from a strict codebook, duplicate codings; exit 1 when any.",
        discussion: "`daybook check` runs the same checks with all the others. Nothing is changed: an orphaned coding stays until you fix its quote or remove it.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        var diags: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &diags, bodies: false)
        Terminal.warnings(diags)
        let problems = try CodingCheck().problems(in: diary, entries: entries)
        for p in problems { Terminal.out((p.location.map { "\($0): " } ?? "") + "\(p.severity.rawValue): \(p.message)") }
        if !problems.isEmpty { throw DaybookError.nothing("daybook: \(CodeCommand.plural(problems.count, "problem")) with codings") }
        global.confirm("daybook: the codings are sound (\(CodeCommand.plural(entries.reduce(0) { $0 + $1.codings.count }, "coding")))")
    }
}
