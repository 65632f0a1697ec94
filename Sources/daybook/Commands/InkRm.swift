// `daybook ink rm`: the eraser — whole strokes out of an entry's stroke file, one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct InkRm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove strokes from the entry's stroke file, by number as `ink ls ENTRY` shows them (N or N-M), or --all.",
        discussion: "One commit (`ink: -2 strokes on TITLE`); git keeps the strokes, `daybook undo` brings them back. The stroke file goes when no stroke is left. A number the file does not have is an error and nothing is removed.")

    @Argument(help: "The entry.", completion: Completions.entries) var entry: String
    @Argument(help: ArgumentHelp("Stroke numbers from 1 (3, 5-7).", valueName: "stroke")) var strokes: [String] = []
    @Flag(help: "Every stroke: the stroke file goes.") var all = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if all == !strokes.isEmpty { throw ValidationError("name the strokes to remove (numbers from `daybook ink ls ENTRY`) or give --all, not both") }
        _ = try InkRm.numbers(strokes)
    }

    /// `3`, `5-7` → 0-based indexes.
    static func numbers(_ args: [String]) throws -> Set<Int> {
        var out = Set<Int>()
        for a in args {
            let ends = a.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
            guard let lo = ends.first ?? nil, lo >= 1, (ends.count == 1 || (ends[1] ?? 0) >= lo) else {
                throw ValidationError("`\(a)` is not a stroke number: use N or N-M, counted from 1")
            }
            let hi = ends.count == 2 ? ends[1]! : lo
            guard hi - lo < 1_000_000 else { throw ValidationError("`\(a)`: too many strokes at once") }
            for n in lo...hi { out.insert(n - 1) }
        }
        return out
    }

    func run() throws {
        let diary = try global.openDiary()
        let change = try Change(diary)
        // Found within the change, from the walk it made for the outside edits (issue 19).
        let rel = try EntryReference(change).resolve(entry)
        let file = try Ink.strokes(of: rel, in: diary)
        let indexes = all ? Set(file.strokes.indices) : try InkRm.numbers(strokes)
        let n = try StrokeFile.remove(strokes: indexes, ofEntry: rel, in: change)
        let title = diary.readEntry(rel).entry?.title ?? (rel as NSString).lastPathComponent
        try change.commit(StrokeFile.removalMessage(n, title: title))
        let left = file.strokes.count - n
        global.confirm("daybook: removed \(n) stroke\(n == 1 ? "" : "s") from \(diary.displayPath(StrokeFile.path(ofEntry: rel)))"
                       + (left == 0 ? " (none left; the file is gone)" : " (\(left) left)"))
    }
}
