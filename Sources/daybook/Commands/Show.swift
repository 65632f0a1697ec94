// `daybook show`: entries for a person, as raw bytes, as JSON or as HTML (one entry).
import ArgumentParser
import DaybookCore
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print entries whole: those named, or those FILTERS choose (show --last 5, show --from yesterday).",
        discussion: "Several entries are printed oldest first (as named, for ENTRY arguments), a blank line between them. Exit 1 when FILTERS match nothing.")

    @Argument(help: "Entries: paths, ids or their prefixes, last, today, yesterday or a date.", completion: Completions.entries)
    var entries: [String] = []
    @OptionGroup var filters: FilterOptions
    @Flag(help: "The file's bytes.") var raw = false
    @Flag(help: "A JSON object (with the body).") var json = false
    @Flag(help: "HTML rendered with cmark-gfm (GitHub Flavored Markdown).") var html = false
    @Flag(name: .customLong("unsafe-html"), help: "With --html: pass raw HTML of the entry through instead of escaping it.")
    var unsafeHTML = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if [raw, json, html].filter({ $0 }).count > 1 { throw ValidationError("choose one of --raw, --json, --html") }
        let filtered = !filters.filter.passesEverything
        if entries.isEmpty && !filtered { throw ValidationError("name an entry (last, today, an id, …) or give FILTERS (--last 5, --from yesterday)") }
        if !entries.isEmpty && filtered { throw ValidationError("name entries or give FILTERS, not both") }
        if html && (filtered || entries.count > 1) { throw ValidationError("--html makes a page of one entry: `daybook export html` makes a site of many") }
    }

    /// One ENTRY as before: a JSON object, a page. Several, or FILTERS: a JSON array.
    var many: Bool { entries.count != 1 }

    func run() throws {
        let diary = try global.openDiary()
        var shown: [Entry] = []
        var left: [DaybookError] = []
        if entries.isEmpty {
            // As `ls`: an unreadable entry is warned about, naming its file and line.
            shown = try filters.entries(of: diary)
            if shown.isEmpty { throw DaybookError.nothing("") }
        } else {
            let reference = EntryReference(diary)
            let rels = try entries.map { try reference.resolve($0) }
            if raw {
                for rel in rels {
                    let data = FileManager.default.contents(atPath: diary.url(rel).path) ?? Data()
                    Terminal.out(String(decoding: data, as: UTF8.self), terminator: "")
                }
                return
            }
            for rel in rels {
                let outcome = diary.readEntry(rel)
                if let e = outcome.entry { shown.append(e) } else {
                    let problem = outcome.problems.first ?? DaybookError.input("cannot read the entry", at: SourceLocation(path: diary.displayPath(rel)))
                    guard many else { throw problem }
                    left.append(problem)
                }
            }
        }
        if raw {
            for e in shown { Terminal.out(String(decoding: FileManager.default.contents(atPath: diary.url(e.path).path) ?? Data(), as: UTF8.self), terminator: "") }
        } else if json {
            let values = shown.map { $0.json(includeBody: true) }
            Terminal.out((many ? JSONValue.array(values) : values[0]).serialized(pretty: true))
        } else if html {
            Terminal.out(HTMLEntryView(diary: diary, unsafeHTML: unsafeHTML).standalonePage(shown[0]))
        } else {
            for (i, e) in shown.enumerated() {
                if i > 0 { Terminal.out("") }
                person(e, diary: diary)
            }
        }
        // What could not be shown is named, and the command fails (the others are printed).
        guard left.isEmpty else {
            for problem in left { Terminal.warning(Diagnostic(problem)) }
            throw DaybookError.input("\(left.count) of \(left.count + shown.count) entries could not be read and are not shown")
        }
    }

    /// An entry for a person: title, date, tags, mood, fields and codings, then the body.
    func person(_ e: Entry, diary: Diary) {
        Terminal.out(Terminal.bold(e.title.isEmpty ? e.id : TerminalText.shown(e.title)))
        var meta = [e.date.description]
        if !e.tags.isEmpty { meta.append(e.tags.map { "#" + $0 }.joined(separator: " ")) }
        // On the entry's own scale: an emotion entry's 8 is 8/10, not 8/5.
        if let m = diary.moodScales.label(of: e) { meta.append(m) }
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
