// What the prose of a body holds: its words, its first heading, its inline #tags.
import Foundation

public struct Prose: Sendable {
    public var words: Int
    public var firstHeading: String?
    /// Inline tags in order of first appearance, lowercase.
    public var inlineTags: [String]

    public init(markdown text: String) {
        self.init(document: Markdown.parse(text))
    }

    public init(document: MarkdownNode) {
        var words = 0
        var heading: String?
        var tags: [String] = []
        var seen = Set<String>()
        func visit(_ node: MarkdownNode) {
            switch node.kind {
            case .codeBlock, .htmlBlock, .htmlInline, .image:
                return
            case .heading:
                if heading == nil { heading = node.plainText.trimmingCharacters(in: .whitespaces) }
            case .link:
                // An autolinked URL is not prose, and no tag hides in a link; a link's own text is prose.
                if node.plainText == node.url || "mailto:" + node.plainText == node.url { return }
                words += Prose.countWords(node.plainText)
                return
            case .code:
                words += Prose.countWords(node.literal)
                return
            default:
                break
            }
            // Adjacent text siblings form one run (cmark splits text at `[`, `!`, …).
            var run = ""
            func flush() {
                words += Prose.countWords(run)
                Prose.scanTags(run, into: &tags, seen: &seen)
                run = ""
            }
            for child in node.children {
                if child.kind == .text { run += child.literal; continue }
                if child.kind == .softBreak || child.kind == .lineBreak { run += " "; continue }
                flush()
                visit(child)
            }
            flush()
        }
        visit(document)
        self.words = words
        self.firstHeading = heading
        self.inlineTags = tags
    }

    /// Words: runs of non-space characters that hold at least one letter or digit.
    public static func countWords(_ s: String) -> Int {
        var n = 0
        var inWord = false, hasAlnum = false
        for u in s.unicodeScalars {
            if u.properties.isWhitespace {
                if inWord && hasAlnum { n += 1 }
                inWord = false; hasAlnum = false
            } else {
                inWord = true
                if u.properties.isAlphabetic || u.properties.numericType != nil { hasAlnum = true }
            }
        }
        if inWord && hasAlnum { n += 1 }
        return n
    }

    /// Finds `#tag` in prose: `#` at the start or after a character that is not a letter, digit,
    /// `/`, `#` or `&`; then tag characters; at least one of them not a digit (`#1` is no tag).
    public static func scanTags(_ s: String, into tags: inout [String], seen: inout Set<String>) {
        guard s.contains("#") else { return }
        let scalars = Array(s.unicodeScalars)
        var i = 0
        while i < scalars.count {
            if scalars[i] == "#" {
                let prev: Unicode.Scalar? = i > 0 ? scalars[i - 1] : nil
                let prevOK = prev.map { !(Tag.isTagCharacter($0) || $0 == "#" || $0 == "&") } ?? true
                var j = i + 1
                while j < scalars.count, Tag.isTagCharacter(scalars[j]) { j += 1 }
                // A tag does not end in `/` or `-` (punctuation after it is not part of it).
                while j > i + 1, scalars[j - 1] == "/" || scalars[j - 1] == "-" { j -= 1 }
                if prevOK, j > i + 1 {
                    let name = String(String.UnicodeScalarView(scalars[(i + 1)..<j])).lowercased()
                    if name.unicodeScalars.contains(where: { !CharacterSet.decimalDigits.contains($0) }),
                       Tag.isValid(name), seen.insert(name).inserted {
                        tags.append(name)
                    }
                }
                i = max(j, i + 1)
            } else {
                i += 1
            }
        }
    }
}
