// `daybook code ls`: the coded segments, grouped by entry.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "The coded segments, grouped by entry: entry, date, code, quote, memo, coder.",
        discussion: """
        CODE may be a category: its descendants in the codebook are listed too. JSON rows also carry \
        the entry's path, the occurrence, `orphaned`, `start`/`end` (Unicode scalar offsets in \
        the body, end exclusive) and, for a highlighter stroke, `stroke` (its index). Exit 1 when no coding matches.
        """)

    @Argument(help: "Only this code (a category includes its descendants).", completion: Completions.codes) var code: String?
    @OptionGroup var filters: FilterOptions
    @Option(help: ArgumentHelp("Only this coder's codings.", valueName: "name")) var coder: String?
    @Flag(help: "A JSON array of {entry, date, title, code, quote, memo, coder}.") var json = false
    @Flag(help: "CSV with a header row: entry, date, title, code, quote, memo, coder.") var csv = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if json && csv { throw ValidationError("give --json or --csv, not both") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let wanted = try code.map { try CodeCommand.matcher(CodeCommand.name($0), book: Codebook.load(diary)) }
        // Metadata from the cache, where the codings' places in the body are kept too; a body is
        // read only when they are not known, and not kept, so memory stays bounded.
        var groups: [(Entry, [(coding: Coding, anchor: QuoteAnchor?)])] = []
        // --coder finds a coding without coder: as the default coder's, as every report counts it.
        let defaultCoder = coder == nil ? nil : diary.coderOfUnnamedCodings
        for e in try filters.entries(of: diary, bodies: false, parts: [.title, .codings], coded: true) {
            let hits = e.codings.indices.filter { k in
                let c = e.codings[k]
                return wanted?(c.code) ?? true && (coder == nil || c.madeBy(defaultCoder: defaultCoder) == coder)
            }
            guard !hits.isEmpty else { continue }
            let anchors = e.anchors.flatMap { $0.count == e.codings.count ? $0 : nil }
                ?? { let body = diary.readBody(e.path) ?? ""; return e.codings.map { QuoteAnchor.locate($0, in: body) } }()
            groups.append((e, hits.map { (e.codings[$0], anchors[$0]) }))
        }
        let headers = ["entry", "date", "title", "code", "quote", "memo", "coder"]
        func cells(_ e: Entry, _ c: Coding) -> [String?] { [e.id, e.date.description, e.title, c.code, c.quote, c.memo, c.coder] }
        if json {
            let rows: [JSONValue] = groups.flatMap { e, codings in codings.map { c, anchor in
                var o = zip(headers, cells(e, c)).map { ($0, $1.map(JSONValue.string) ?? .null) }
                o += [("path", .string(e.path)), ("occurrence", .int(c.occurrence ?? 1)), ("orphaned", .bool(anchor == nil)),
                      ("start", anchor.map { .int($0.start) } ?? .null), ("end", anchor.map { .int($0.end) } ?? .null)]
                if case let .ink(stroke) = c.source { o.append(("stroke", .int(stroke))) }
                return JSONValue.object(o)
            } }
            Terminal.out(JSONValue.array(rows).serialized(pretty: true))
        } else if csv {
            Terminal.out(CodeLs.csvRow(headers), terminator: "\r\n")
            for (e, codings) in groups { for (c, _) in codings { Terminal.out(CodeLs.csvRow(cells(e, c).map { $0 ?? "" }), terminator: "\r\n") } }
        } else {
            // Each entry's lines are made on every core and written in order.
            InOrder.forEach(groups.count, chunk: 4096, { n -> String in
                let (e, codings) = groups[n]
                var text = n > 0 ? "\n" : ""
                text += "\(Terminal.dim(e.date.day.description)) \(Terminal.bold(TerminalText.shown(e.title)))  \(Terminal.dim(diary.displayPath(e.path)))\n"
                for (c, anchor) in codings {
                    text += "  " + Terminal.accent(c.code) + "  "
                    if let q = c.quote {
                        text += "\"\(CodeApplication.short(q))\""
                        if anchor == nil { text += " (orphaned: not in the body)" }
                    } else {
                        text += c.unquotedPlace
                    }
                    if let m = c.memo { text += "  — " + m }
                    if let who = c.coder { text += "  " + Terminal.dim("[\(who)]") }
                    text += "\n"
                }
                return text
            }, consume: { _, text in Terminal.out(text, terminator: "") })
        }
        if groups.isEmpty { throw DaybookError.nothing("") }
    }

    /// One CSV record (RFC 4180): a field with a comma, quote or line break is quoted.
    static func csvRow(_ fields: [String]) -> String {
        fields.map(CSVExport.field).joined(separator: ",")
    }
}
