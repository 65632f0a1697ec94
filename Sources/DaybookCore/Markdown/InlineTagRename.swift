// Renaming inline #tags where they are prose, and finding where they sit, through the cmark tree.
import Foundation

extension Prose {
    /// Replaces the inline tag `old` (and `old/…`) by `new` where it is prose, leaving code,
    /// link destinations, URLs and HTML alone. Returns the new text and the scalar ranges of the
    /// old text that were replaced (each by `#new`).
    public static func renamingInlineTag(_ old: String, to new: String, in text: String) -> (text: String, replaced: [Range<Int>]) {
        let hits = inlineTagRanges(old, in: text)
        guard !hits.isEmpty else { return (text, []) }
        var scalars = Array(text.unicodeScalars)
        for r in hits.reversed() { scalars.replaceSubrange(r, with: ("#" + new).unicodeScalars) }
        return (String(String.UnicodeScalarView(scalars)), hits)
    }

    /// Scalar ranges of `#old` (the `#` and the tag `old`, without a nested `/…` part) that are
    /// inline tags of the prose. Each textual candidate is swapped for a unique marker tag and the
    /// text parsed once: a candidate is prose exactly when its marker comes back as an inline tag,
    /// so this agrees with `inlineTags` by construction.
    public static func inlineTagRanges(_ old: String, in text: String) -> [Range<Int>] {
        let tag = Array(old.lowercased().unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        var candidates: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            defer { i += 1 }
            guard scalars[i] == "#" else { continue }
            if i > 0, Tag.isTagCharacter(scalars[i - 1]) || scalars[i - 1] == "#" || scalars[i - 1] == "&" { continue }
            var j = i + 1
            while j < scalars.count, Tag.isTagCharacter(scalars[j]) { j += 1 }
            while j > i + 1, scalars[j - 1] == "/" || scalars[j - 1] == "-" { j -= 1 }
            let run = String(String.UnicodeScalarView(scalars[(i + 1)..<j])).lowercased()
            if Tag.matches(run, query: old.lowercased()), i + 1 + tag.count <= j { candidates.append(i..<(i + 1 + tag.count)) }
        }
        guard !candidates.isEmpty else { return [] }
        // Markers are letters only (digits spelled a…j), so they are tags wherever `#old` was one.
        let marker = { (n: Int) in "zqdaybook" + String(String(n).map { Array("abcdefghij")[$0.wholeNumberValue ?? 0] }) + "zq" }
        var marked = scalars
        for (n, r) in candidates.enumerated().reversed() { marked.replaceSubrange(r, with: ("#" + marker(n)).unicodeScalars) }
        let found = Prose(markdown: String(String.UnicodeScalarView(marked))).inlineTags
        return candidates.indices.filter { n in found.contains { Tag.matches($0, query: marker(n)) } }.map { candidates[$0] }
    }
}
