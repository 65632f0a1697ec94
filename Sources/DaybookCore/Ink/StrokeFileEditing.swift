// Adding and removing an entry's strokes inside a Change: `ink add`, the web app's pen and its eraser.
import Foundation

extension StrokeFile {
    /// Adds `incoming`'s strokes to the entry's stroke file (made when missing). The file is
    /// written in daybook's layout, one stroke a line, so each added stroke is one added line.
    /// Refuses to overwrite a stroke file that changed since it was read.
    public static func add(_ incoming: StrokeFile, toEntry rel: String, in change: Change) throws {
        let inkRel = path(ofEntry: rel)
        if let (existing, before) = try load(entry: rel, in: change.diary) {
            var merged = existing
            merged.append(incoming)
            try change.rewrite(inkRel, expected: Data(before.dropLast()), with: Data(StrokeFileWriter.text(merged).utf8))
        } else {
            try change.write(StrokeFileWriter.text(incoming), to: inkRel)
        }
    }

    /// Removes the strokes at `indexes` (0-based, as the file lists them) from the entry's stroke
    /// file; the file goes when no stroke is left. Returns how many were removed; an index the file
    /// does not have is an error and nothing is written.
    @discardableResult
    public static func remove(strokes indexes: Set<Int>, ofEntry rel: String, in change: Change) throws -> Int {
        let inkRel = path(ofEntry: rel)
        guard let (existing, before) = try load(entry: rel, in: change.diary) else {
            throw DaybookError.input("the entry has no strokes", at: SourceLocation(path: change.diary.displayPath(rel)))
        }
        if let bad = indexes.first(where: { !existing.strokes.indices.contains($0) }) {
            throw DaybookError.input("there is no stroke \(bad + 1) (the file has \(existing.strokes.count))",
                                     at: SourceLocation(path: change.diary.displayPath(inkRel)))
        }
        var kept = existing
        kept.strokes = existing.strokes.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
        if kept.strokes.isEmpty { try change.remove(inkRel) }
        else { try change.rewrite(inkRel, expected: Data(before.dropLast()), with: Data(StrokeFileWriter.text(kept).utf8)) }
        return indexes.count
    }

    /// `ink: -2 strokes on TITLE`, the commit message of a removal (`ink rm`, the web app's eraser).
    public static func removalMessage(_ n: Int, title: String) -> String {
        "ink: -\(n) stroke\(n == 1 ? "" : "s") on \(title)"
    }

    /// `ink: +2 strokes on TITLE`, the commit message of an addition.
    public static func additionMessage(_ n: Int, title: String) -> String {
        "ink: +\(n) stroke\(n == 1 ? "" : "s") on \(title)"
    }
}
