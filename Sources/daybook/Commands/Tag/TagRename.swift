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
        let entries = TagRenaming.entries(with: old, in: diary, diagnostics: &diags)
        Terminal.warnings(diags)
        guard !entries.isEmpty else { throw DaybookError.nothing("daybook: no entry has the tag #\(old)") }
        guard !dryRun else {
            for e in entries {
                guard let source = String(data: FileManager.default.contents(atPath: diary.url(e.path).path) ?? Data(), encoding: .utf8) else { continue }
                var text = try EntryText(source, path: diary.displayPath(e.path))
                Terminal.out("\(diary.displayPath(e.path)):\(TagRenaming.edit(&text, old, to: new))")
            }
            return
        }
        let summary = try TagRenaming.rename(old, to: new, entries: entries, in: diary)
        global.confirm("daybook: renamed \(summary)")
    }
}
