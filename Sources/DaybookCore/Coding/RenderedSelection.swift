// From text selected in a rendered entry back to the exact quote of its Markdown body.
import Foundation

/// A reader selects text in the rendered body (the web app); a coding needs the exact text of the
/// Markdown body and which occurrence it is. The rendered text drops inline marks (`*`, `_`, `` ` ``,
/// `~`, a link's brackets and its `(target)`) and folds line breaks into spaces, so the selection
/// is found in the body with those marks allowed between its characters and any run of white space
/// matching any other; the quote is the body's text from the first to the last matched character.
public enum RenderedSelection {
    static let marks: Set<Unicode.Scalar> = ["*", "_", "`", "~", "[", "]", "<", ">"]

    /// The quote and its occurrence for the `index`-th (1-based) appearance of `selected` in the
    /// rendered text; nil when the body does not have it that often.
    public static func quote(selected: String, index: Int, in body: String) -> (quote: String, occurrence: Int)? {
        let needle = Array(selected.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
        let text = Array(body.unicodeScalars)
        guard !needle.isEmpty, index >= 1 else { return nil }
        var seen = 0
        var start = 0
        while start < text.count {
            if text[start] == needle[0], let end = match(needle, in: text, at: start) {
                seen += 1
                if seen == index {
                    var quote = ""
                    quote.unicodeScalars.append(contentsOf: text[start..<end])
                    guard let occurrence = QuoteAnchor.occurrence(of: quote, startingAt: start, in: body) else { return nil }
                    return (quote, occurrence)
                }
                start = end
            } else {
                start += 1
            }
        }
        return nil
    }

    /// Where a match of `needle` starting at `start` ends (exclusive), or nil.
    static func match(_ needle: [Unicode.Scalar], in text: [Unicode.Scalar], at start: Int) -> Int? {
        var i = start
        var j = 0
        var end = start
        while j < needle.count {
            let c = needle[j]
            if c.properties.isWhitespace {
                while j < needle.count && needle[j].properties.isWhitespace { j += 1 }
                var sawSpace = false
                while i < text.count {
                    if text[i].properties.isWhitespace { sawSpace = true; i += 1 }
                    else if let skip = skipMarkup(text, at: i, keeping: j < needle.count ? needle[j] : nil) { i = skip }
                    else { break }
                }
                guard sawSpace else { return nil }
                continue
            }
            while i < text.count, text[i] != c, let skip = skipMarkup(text, at: i, keeping: c) { i = skip }
            guard i < text.count, text[i] == c else { return nil }
            i += 1
            j += 1
            end = i
        }
        return end
    }

    /// The index after the inline mark at `i` (a link's `](target)` whole), unless that character
    /// is the one looked for next; nil when `i` is no mark.
    static func skipMarkup(_ text: [Unicode.Scalar], at i: Int, keeping wanted: Unicode.Scalar?) -> Int? {
        let c = text[i]
        guard c != wanted, marks.contains(c) else { return nil }
        if c == "]", i + 1 < text.count, text[i + 1] == "(" {
            var k = i + 2
            while k < text.count, text[k] != ")", text[k] != "\n" { k += 1 }
            return k < text.count && text[k] == ")" ? k + 1 : i + 1
        }
        return i + 1
    }
}
