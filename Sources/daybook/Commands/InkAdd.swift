// `daybook ink add`: add strokes from a stroke file or InkML to an entry's stroke file.
import ArgumentParser
import DaybookCore
import Foundation

struct InkAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add strokes from a daybook stroke file or W3C InkML (.inkml) to the entry's stroke file.",
        discussion: """
        One commit (`ink: +2 strokes on TITLE`). A broken input is an error that names the file, line, \
        column and JSON path, and nothing is written. InkML channels daybook does not keep are ignored with a warning.
        """)

    @Argument(help: "The entry.", completion: Completions.entries) var entry: String
    @Argument(help: ArgumentHelp("A stroke file (.json) or InkML (.inkml).", valueName: "file")) var file: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let incoming = try Ink.importing(file, global: global)
        let change = try Change(diary)
        // Found within the change, from the walk it made for the outside edits (issue 19).
        let rel = try EntryReference(change).resolve(entry)
        let inkRel = StrokeFile.path(ofEntry: rel)
        let n = incoming.strokes.count
        try StrokeFile.add(incoming, toEntry: rel, in: change)
        let title = diary.readEntry(rel).entry?.title ?? (rel as NSString).lastPathComponent
        try change.commit(StrokeFile.additionMessage(n, title: title))
        global.confirm("daybook: added \(n) stroke\(n == 1 ? "" : "s") to \(diary.displayPath(inkRel))")
    }
}
