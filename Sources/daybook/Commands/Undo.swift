// `daybook undo`: revert the most recent change with a new commit.
import ArgumentParser
import DaybookCore
import Foundation

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revert the most recent change with a new commit.",
        discussion: "Edits not yet committed are committed first (as `edit outside daybook`), so undo then reverts those. Undo twice to redo.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let change = try Change(diary)
        // Undoing a commit of many files (a tag rename) writes them all back, or none.
        try change.allOrNothing("undo")
        let (commit, _) = try History.undo(in: change)
        let subject = commit.message.split(separator: "\n").first.map(String.init) ?? commit.shortID
        guard try change.commit("undo: \(subject)\n\nThis reverts commit \(commit.id).") != nil else {
            throw DaybookError.nothing("daybook: nothing to undo")
        }
        global.confirm("daybook: undid \(subject)")
    }
}
