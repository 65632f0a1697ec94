// `daybook tag rename`: rename a tag in every entry, front matter and inline #tags, in one commit.
import ArgumentParser
import DaybookCore
import Foundation

struct TagRename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a tag everywhere: front matter and inline #tags, in one commit.",
        discussion: """
        Nested tags follow (renaming `a` to `b` turns `a/x` into `b/x`). Inline tags change only in \
        prose, never in code, links, URLs or HTML. --dry-run lists what would change. Exit 1 when no \
        entry has the tag.
        """)

    @Argument(help: "The tag to rename.", completion: Completions.tags) var old: String
    @Argument(help: "Its new name.") var new: String
    @Flag(name: .customLong("dry-run"), help: "List what would change; change nothing.") var dryRun = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let names = try TagCommand.tags(from: [old, new])
        let (old, new) = (names[0], names[1])
        guard old != new else { throw DaybookError.usage("the old and the new name are the same") }
        let diary = try global.openDiary()
        var diags: [Diagnostic] = []
        let entries = diary.loadEntries(diagnostics: &diags, bodies: false).filter { $0.tags.contains { Tag.matches($0, query: old) } }
        Terminal.warnings(diags)
        guard !entries.isEmpty else { throw DaybookError.nothing("daybook: no entry has the tag #\(old)") }
        let change = dryRun ? nil : try Change(diary)
        try change?.allOrNothing("tag rename #\(old) #\(new)")
        var changed: [String] = []
        for e in entries {
            var report = ""
            let edit = { (text: inout EntryText) in
                var lines = TagLines(text)
                if lines.rename(old, to: new) { report += " front matter" }
                text = lines.text
                let before = text.body
                let (body, replaced) = Prose.renamingInlineTag(old, to: new, in: before)
                guard !replaced.isEmpty else { return }
                text.setBody(body)
                report += " \(replaced.count) inline"
                // Quotes that hold a renamed #tag follow it instead of becoming orphans.
                var codings = CodingLines(text)
                let edits = replaced.map { (range: $0, length: new.unicodeScalars.count + 1) }
                if codings.update({ $0.following(edits, from: before, to: body) }) > 0 { report += ", quotes"; text = codings.text }
            }
            if let change {
                try change.editEntry(e.path) { text, _ in edit(&text) }
            } else {
                guard let source = String(data: FileManager.default.contents(atPath: diary.url(e.path).path) ?? Data(), encoding: .utf8) else { continue }
                var text = try EntryText(source, path: diary.displayPath(e.path))
                edit(&text)
                Terminal.out("\(diary.displayPath(e.path)):\(report)")
            }
            if !report.isEmpty { changed.append(e.title) }
        }
        guard let change else { return }
        let summary = "#\(old) → #\(new) (\(changed.count) entr\(changed.count == 1 ? "y" : "ies"))"
        try change.commit("tag rename: \(summary)\n\n" + changed.joined(separator: "\n"))
        global.confirm("daybook: renamed \(summary)")
    }
}
