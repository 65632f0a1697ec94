// The smallest whole-line edit that turns a document's text into the library's edited text.
import Foundation

enum TextDiff {
    /// One edit replacing the lines that differ (the library changes the lines of one key, so
    /// this is that key's lines); nil when the texts are equal.
    static func edit(from old: TextLines, to new: String) -> TextEdit? {
        guard old.text != new else { return nil }
        let a = old.starts.indices.map { old.text[old.starts[$0]..<(($0 + 1 < old.starts.count) ? old.starts[$0 + 1] : old.text.endIndex)] }
        let newLines = TextLines(new)
        let b = newLines.starts.indices.map { new[newLines.starts[$0]..<(($0 + 1 < newLines.starts.count) ? newLines.starts[$0 + 1] : new.endIndex)] }
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let start = prefix < old.starts.count ? old.starts[prefix] : old.text.endIndex
        let endLine = a.count - suffix
        let end = endLine < old.starts.count ? old.starts[endLine] : old.text.endIndex
        return TextEdit(range: old.range(start..<end), newText: b[prefix..<(b.count - suffix)].joined())
    }
}
