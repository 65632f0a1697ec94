// `daybook purge`: erase entries, their strokes and attachments from every commit of history.
import ArgumentParser
import DaybookCore
import Foundation

struct Purge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Erase entries, their strokes and attachments from every commit of history.",
        discussion: """
        For a participant who withdraws: unlike `rm`, nothing is left for `restore`. Says what it will \
        rewrite and asks (without a terminal, --yes is required). The next `daybook sync` replaces the \
        remote's history, and other machines apply the purge at their next sync. See `man daybook-purge` \
        for what is erased and what is not.
        """)

    @Argument(help: "Entries: paths, ids, id prefixes, last, a date; an id for an entry already deleted; `-` reads them from stdin.",
              completion: Completions.entries)
    var entries: [String]

    @Flag(help: "Do not ask.") var yes = false
    @Flag(help: "Erase nothing: look for the words given (instead of entries) in every object, loose or packed, reachable or not, in the repository's other files and in the caches; list where each is found (exit 1), or say none is (exit 0).")
    var verify = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        if verify {
            let result = try PurgeVerify.scan(entries, in: diary)
            for f in result.findings { print("\(f.word)\t\(f.place)") }
            let searched = "\(plural(result.objects, "object", "objects")) and \(plural(result.files, "file", "files"))"
            guard result.findings.isEmpty else {
                throw DaybookError.nothing("found \(plural(Set(result.findings.map(\.word)).count, "word", "words")) of \(entries.count) in \(plural(result.findings.count, "place", "places")) (listed on stdout) among \(searched)")
            }
            global.confirm("daybook: none of the \(plural(entries.count, "word", "words")) is in \(searched) (every object, loose or packed, the repository's other files and .daybook/)")
            return
        }
        let rels = try HistoryPurge.resolve(entries, in: diary) { String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        guard !rels.isEmpty else { throw DaybookError.usage("no entries named") }
        let preview = try HistoryPurge.plan(rels, in: diary.repository())
        if !(yes && global.quiet) { Terminal.writeErr(summary(preview, diary)) }
        if !yes {
            guard Terminal.stdinIsTerminal, !entries.contains("-") else {
                throw DaybookError.usage("purge rewrites the whole history and cannot be undone: run it in a terminal to confirm, or add --yes")
            }
            Terminal.writeErr("Erase them from every commit? This cannot be undone. [y/N] ")
            guard readLine()?.lowercased().hasPrefix("y") == true else { throw DaybookError.nothing("daybook: nothing purged") }
        }
        let change = try Change(diary)
        // Again under the lock: edits made meanwhile were just committed, and go too.
        let plan = try HistoryPurge.plan(rels, in: change.repository)
        let outcome = try HistoryPurge.run(plan, in: change, date: diary.clock.nowLocal)
        var note = "daybook: erased \(plural(rels.count, "entry", "entries")) from \(plural(plan.commits, "commit", "commits"))"
            + " (\(outcome.rewritten) rewritten, \(outcome.dropped) dropped); a remote's history is replaced at the next `daybook sync`"
        if outcome.packedObjects > 0 {
            note += "\ndaybook: \(plural(outcome.packedObjects, "old object stays", "old objects stay")) in git's packs, unreachable: `git gc --prune=now` deletes them"
        }
        global.confirm(note)
    }

    func summary(_ plan: HistoryPurge.Plan, _ diary: Diary) -> String {
        var lines = ["daybook: purge will erase \(plural(plan.entries.count, "entry", "entries")):"]
        lines += plan.entries.map { "  " + diary.displayPath($0) }
        lines.append("and \(plural(plan.files.count, "file or folder", "files and folders")) of history:")
        lines += plan.files.map { "  " + diary.displayPath($0) + ($0.hasSuffix("/") ? "/" : "") }
        lines.append("rewriting \(plural(plan.commits, "commit", "commits")) (same authors, dates and messages; the purged entries' titles leave the messages)")
        return lines.joined(separator: "\n")
    }

    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
}
