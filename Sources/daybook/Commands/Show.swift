// `daybook show`: one entry for a person, as raw bytes, as JSON or as HTML.
import ArgumentParser
import DaybookCore
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print one entry.")

    @Argument(help: "The entry: a path, an id or its prefix, last, today, yesterday or a date.", completion: Completions.entries)
    var entry: String
    @Flag(help: "The file's bytes.") var raw = false
    @Flag(help: "A JSON object (with the body).") var json = false
    @Flag(help: "HTML rendered with cmark-gfm (GitHub Flavored Markdown).") var html = false
    @Flag(name: .customLong("unsafe-html"), help: "With --html: pass raw HTML of the entry through instead of escaping it.")
    var unsafeHTML = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if [raw, json, html].filter({ $0 }).count > 1 { throw ValidationError("choose one of --raw, --json, --html") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        if raw {
            let data = FileManager.default.contents(atPath: diary.url(rel).path) ?? Data()
            Terminal.out(String(decoding: data, as: UTF8.self), terminator: "")
            return
        }
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry") }
        if json {
            Terminal.out(e.json(includeBody: true).serialized(pretty: true))
        } else if html {
            Terminal.out(HTMLEntryView(diary: diary, unsafeHTML: unsafeHTML).standalonePage(e))
        } else {
            Terminal.out(Terminal.bold(e.title.isEmpty ? e.id : TerminalText.shown(e.title)))
            var meta = [e.date.description]
            if !e.tags.isEmpty { meta.append(e.tags.map { "#" + $0 }.joined(separator: " ")) }
            // On the entry's own scale: an emotion entry's 8 is 8/10, not 8/5.
            if let m = e.mood { meta.append("mood \(m)/\(diary.moodScales.scale(of: e).upperBound)") }
            if let t = e.template { meta.append("template \(t)") }
            Terminal.out(Terminal.dim(meta.joined(separator: "  ")))
            for (k, v) in e.fields { Terminal.out(Terminal.dim("\(k): \(YAMLWriter.value(v))")) }
            if !e.codings.isEmpty {
                Terminal.out(Terminal.dim("codes: " + e.codings.map { c in c.quote.map { "\(c.code) “\($0)”" } ?? c.code }.joined(separator: ", ")))
            }
            Terminal.out("")
            let body = LinkedBody.text(e.body, links: EntryLinks(diary).links(of: e)) { diary.readEntry($0).entry?.title ?? "" }
            Terminal.out(body, terminator: body.hasSuffix("\n") ? "" : "\n")
        }
    }
}
