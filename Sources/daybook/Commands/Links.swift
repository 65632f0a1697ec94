// `daybook links`: the links of one entry, or the entries that link to it.
import ArgumentParser
import DaybookCore
import Foundation

struct Links: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List an entry's links ([[ID]], [[ID|label]], relative links to entries and attachments), or with --backlinks the entries that link to it.",
        discussion: """
        Each link: LINE:COLUMN, the entry's id (or ID/NAME for an attachment) and the title. A link \
        that leads to nothing, to several entries or out of the entries is a warning on stderr \
        (path:line:column, as check says it), and the exit status is 1. --backlinks reads every \
        entry once and prints ID:LINE:COLUMN of each link to the entry and the linking entry's title.
        """)

    @Argument(help: "The entry: a path, an id or its prefix, last, today, yesterday or a date.", completion: Completions.entries)
    var entry: String
    @Flag(help: "The entries that link to this one.") var backlinks = false
    @Flag(help: "A JSON array, one object a link.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let rel = try EntryReference(diary).resolve(entry)
        let rule = EntryLinks(diary)
        var titles: [String: String] = [:]
        func title(_ path: String) -> String {
            if let t = titles[path] { return t }
            let t = diary.readEntry(path).entry?.title ?? ""
            titles[path] = t
            return t
        }
        if backlinks {
            let snapshot = diary.scanEntries()
            let entries = snapshot.entries(0..<snapshot.count, parts: .title)
            for e in entries { titles[e.path] = e.title }
            let found = LinkIndex(entries, links: rule).backlinks[rel] ?? []
            if json {
                Terminal.out(JSONValue.array(found.map { b in
                    .object([("from", Links.entryJSON(b.from, title: title(b.from)))] + Links.placeJSON(b.link))
                }).serialized(pretty: true))
            } else {
                for b in found {
                    Terminal.out("\(Entry.id(ofPath: b.from)):\(b.link.range.line ?? 0):\(b.link.range.column ?? 0)  \(TerminalText.shown(title(b.from)))")
                }
            }
            return
        }
        let outcome = diary.readEntry(rel)
        guard let e = outcome.entry else { throw outcome.problems.first ?? DaybookError.input("cannot read the entry") }
        let links = rule.links(of: e)
        if json {
            Terminal.out(JSONValue.array(links.map { link in
                .object(Links.placeJSON(link) + [("target", Links.targetJSON(link.target, title: title))] + link.problem.map { [("problem", .string($0))] }.orEmpty)
            }).serialized(pretty: true))
        } else {
            for link in links {
                let at = "\(link.range.line ?? 0):\(link.range.column ?? 0)"
                switch link.target {
                case let .entry(path, fragment):
                    Terminal.out("\(at)  \(Entry.id(ofPath: path))\(fragment)  \(TerminalText.shown(title(path)))")
                case let .attachment(path):
                    Terminal.out("\(at)  \(path.split(separator: "/").suffix(2).joined(separator: "/"))  \(Terminal.dim("(attachment)"))")
                default:
                    break
                }
            }
        }
        let broken = links.compactMap { link in link.problem.map { Diagnostic(.warning, $0, at: link.range) } }
        Terminal.warnings(broken)
        if !broken.isEmpty { throw DaybookError.nothing("") }
    }

    /// Where a link is and how it is written.
    static func placeJSON(_ link: EntryLink) -> [(String, JSONValue)] {
        [("line", .int(link.range.line ?? 0)), ("column", .int(link.range.column ?? 0)),
         ("end_line", .int(link.range.endLine ?? 0)), ("end_column", .int(link.range.endColumn ?? 0)),
         ("form", .string(link.form.rawValue)), ("written", .string(link.written)), ("label", .string(link.label))]
    }

    static func entryJSON(_ path: String, title: String) -> JSONValue {
        .object([("id", .string(Entry.id(ofPath: path))), ("path", .string(path)), ("title", .string(title))])
    }

    /// `{"kind": "entry", "id", "path", "title", "fragment"}`, `{"kind": "attachment", "path"}`, or
    /// `{"kind": "nothing" | "ambiguous" | "outside", …}` for a link that leads nowhere.
    static func targetJSON(_ target: LinkTarget, title: (String) -> String) -> JSONValue {
        switch target {
        case let .entry(path, fragment):
            return .object([("kind", .string("entry")), ("id", .string(Entry.id(ofPath: path))), ("path", .string(path)),
                            ("title", .string(title(path))), ("fragment", .string(fragment))])
        case let .attachment(path):
            return .object([("kind", .string("attachment")), ("path", .string(path))])
        case let .noEntry(path):
            return .object([("kind", .string("nothing")), ("path", path.map(JSONValue.string) ?? .null)])
        case let .noAttachment(path):
            return .object([("kind", .string("nothing")), ("path", .string(path))])
        case let .ambiguous(paths):
            return .object([("kind", .string("ambiguous")), ("candidates", .array(paths.map { .string(Entry.id(ofPath: $0)) }))])
        case let .outside(path):
            return .object([("kind", .string("outside")), ("path", path.map(JSONValue.string) ?? .null)])
        }
    }
}

private extension Optional where Wrapped == [(String, JSONValue)] {
    var orEmpty: [(String, JSONValue)] { self ?? [] }
}
