// Where a position of an open entry falls: the front matter (under which key) or the body, and the word being typed.
import DaybookCore
import Foundation

struct EntryPlace {
    /// The text of the line up to the position.
    var before: Substring
    /// Where the word being typed starts (tag characters back from the position).
    var wordStart: String.Index
    var cursor: String.Index
    /// In the front matter: the top-level key whose value the position is in (nil on a line that
    /// starts a key); nil in the body too.
    var key: String?
    var inFrontMatter: Bool
    /// On a line that starts at the left margin, before any `:`: a key is being typed.
    var typingKey: Bool

    init?(_ a: Document.Analysis, _ p: Position) {
        let lines = a.lines
        guard p.line > 0, p.line < lines.count else { return nil }
        cursor = lines.index(of: p)
        before = lines.text[lines.starts[p.line]..<cursor]
        var start = cursor
        while start > before.startIndex {
            let prev = lines.text.unicodeScalars.index(before: start)
            guard Tag.isTagCharacter(lines.text.unicodeScalars[prev]) else { break }
            start = prev
        }
        wordStart = start
        // An entry whose front matter is not closed yet is all front matter.
        let closing = a.entryText?.closing ?? lines.count
        inFrontMatter = p.line < closing
        typingKey = false
        guard inFrontMatter else { return }
        if let f = before.first, f != " ", f != "\t", f != "-", f != "#", !before.contains(":") {
            typingKey = true
            return
        }
        for n in stride(from: p.line, through: 1, by: -1) {
            let l = lines.line(n)
            guard let f = l.first, f != " ", f != "\t", f != "-", f != "#", let colon = l.firstIndex(of: ":") else { continue }
            key = l[..<colon].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            break
        }
    }

    /// The word being typed as a range of the document.
    func wordRange(_ lines: TextLines) -> LSPRange { lines.range(wordStart..<cursor) }

    /// The character before the word, if any (`#` for an inline tag).
    func charBeforeWord(_ lines: TextLines) -> Character? {
        wordStart > before.startIndex ? lines.text[lines.text.index(before: wordStart)] : nil
    }
}

extension Document.Analysis {
    /// The value written for a top-level key of the front matter (a scalar on the key's line).
    func value(of key: String) -> String? {
        if let entry = check.usable, key == "template" { return entry.template }
        guard let line = entryText?.currentLines(of: key).first, let colon = line.firstIndex(of: ":") else { return nil }
        let v = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        return v.isEmpty ? nil : v
    }
}
