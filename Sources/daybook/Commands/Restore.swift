// `daybook restore`: bring back an earlier version, or a deleted entry, as a new commit.
import ArgumentParser
import DaybookCore
import Foundation

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring back an earlier version of an entry, or a deleted entry, as a new commit.",
        discussion: """
        Without --at: a deleted entry comes back as it was last committed; an existing entry goes back \
        to the version before its most recent change. --at takes a revision (a commit hash, HEAD~3) or a \
        date (the entry as it was at the end of that day). The stroke file and attachments come back too.
        """)

    @Argument(help: "The entry: its id (or a unique prefix) for a deleted one.") var entry: String
    @Option(help: ArgumentHelp("A revision or a date.", valueName: "rev|when")) var at: String?
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let change = try Change(diary)
        let repo = change.repository
        var rel: String
        var source: String?
        if let found = try? EntryReference(diary).resolve(entry) {
            rel = found
        } else {
            let prefix = ((entry as NSString).lastPathComponent as NSString).deletingPathExtension
            guard let known = try History.lastKnown(idPrefix: prefix, in: repo) else {
                throw DaybookError.input("no entry `\(entry)` in the diary or its history")
            }
            rel = known.path
            source = known.commit
        }
        if let at {
            if let c = try? repo.resolve(at) { source = c.id }
            else {
                let range = try DateExpression.range(at, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday)
                guard let c = try History.commit(atOrBefore: range.upper, in: repo) else {
                    throw DaybookError.input("the diary's history starts after \(at)")
                }
                source = c.id
            }
        } else if source == nil {
            // The version before the entry's most recent change.
            let id = ((rel as NSString).lastPathComponent as NSString).deletingPathExtension
            guard let last = try History.log(repo, entryID: id, limit: 1).first, let parent = last.commit.parentIDs.first else {
                throw DaybookError.nothing("daybook: \(diary.displayPath(rel)) has no earlier version")
            }
            source = parent
        }
        guard let source, try History.restore(entryPath: rel, from: source, in: change) else {
            throw DaybookError.input("`\(entry)` did not exist at \(at ?? "that point")")
        }
        let title = diary.readEntry(rel).entry?.title ?? rel
        guard try change.commit("restore: \(title) (from \(source.prefix(7)))") != nil else {
            throw DaybookError.nothing("daybook: \(diary.displayPath(rel)) is already as it was then")
        }
        Terminal.out(diary.displayPath(rel))
        global.confirm("daybook: restored \(diary.displayPath(rel)) from \(source.prefix(7))")
    }
}
