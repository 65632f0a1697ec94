// An entry's body for the terminal, each link to an entry followed by where it leads.
import DaybookCore
import Foundation

enum LinkedBody {
    /// The body with `[[ID|label]]` shown as its label (else the target's title) and, dimmed, the
    /// target's title and id: `the login (→ Login trouble, 2026-11-02-2230-login-trouble)`. A
    /// Markdown link stays as written, followed by the same; a link to nothing says so.
    static func text(_ body: String, links: [EntryLink], title: (String) -> String) -> String {
        var bytes = Array(body.utf8)
        for link in links.reversed() {
            let r = link.bodyOffsets
            guard r.lowerBound >= 0, r.upperBound <= bytes.count else { continue }
            let written = String(decoding: bytes[r], as: UTF8.self)
            var shown = written
            let note: String
            switch link.target {
            case let .entry(path, fragment):
                let id = Entry.id(ofPath: path) + fragment, name = title(path)
                if link.form == .wiki {
                    shown = link.label.isEmpty ? (name.isEmpty ? id : name) : link.label
                    note = link.label.isEmpty || name.isEmpty ? "→ \(id)" : "→ \(name), \(id)"
                } else {
                    note = name.isEmpty ? "→ \(id)" : "→ \(name), \(id)"
                }
            case .attachment:
                continue
            case .noEntry, .noAttachment:
                note = "→ nothing"
            case let .ambiguous(paths):
                note = "→ \(paths.count) entries"
            case .outside:
                note = "→ outside the entries, not followed"
            }
            let replacement = TerminalText.shown(shown) + " " + Terminal.dim("(" + TerminalText.shown(note) + ")")
            bytes.replaceSubrange(r, with: Array(replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
