// `daybook code stats`: frequencies, co-occurrence and inter-coder agreement per code.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Per code: codings, entries, coders; or co-occurrence, or agreement of two coders.",
        discussion: """
        --cooccurrence: a code × code matrix of entries coded with both (the diagonal: entries with \
        the code). --overlap: instead, pairs of codings whose segments overlap (positions in Unicode \
        scalars; a whole-entry coding overlaps every segment; the diagonal: the code's anchored codings). \
        --agreement A B: per code, over the filtered entries, percent agreement p_o = (both + neither) / n \
        and Cohen's kappa = (p_o − p_e) / (1 − p_e), p_e = (a/n)(b/n) + (1 − a/n)(1 − b/n); Krippendorff's \
        alpha (nominal) = 1 − (2n − 1)·d / (n₀·n₁); both are shown as undefined (null) when neither coder \
        varies; and the share of the characters either coder coded that both coded. --disagreements lists \
        the text only one coder coded. Exit 1 when no coding matches.
        """)

    @OptionGroup var filters: FilterOptions
    @Flag(help: "A code × code matrix of entries coded with both.") var cooccurrence = false
    @Flag(help: "Count overlapping segments instead of shared entries (implies --cooccurrence).") var overlap = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Agreement of two coders.", valueName: "coder")) var agreement: [String] = []
    @Flag(help: "With --agreement: each stretch of text only one of the two coders coded, by entry and code.") var disagreements = false
    @Flag(help: "JSON output (see man daybook-code).") var json = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if !agreement.isEmpty && agreement.count != 2 { throw ValidationError("--agreement takes two coders: --agreement ANN BOB") }
        if !agreement.isEmpty && (cooccurrence || overlap) { throw ValidationError("give --agreement or --cooccurrence, not both") }
        if disagreements && agreement.isEmpty { throw ValidationError("--disagreements goes with --agreement A B") }
    }

    func run() throws {
        let diary = try global.openDiary()
        let entries = try filters.entries(of: diary, bodies: disagreements)
        let uses = CodeStatistics.uses(entries)
        if disagreements {
            try showDisagreements(Agreement.disagreements(entries, coderA: agreement[0], coderB: agreement[1]))
        } else if agreement.count == 2 {
            try showAgreement(Agreement.compute(entries, coderA: agreement[0], coderB: agreement[1]), units: entries.count)
        } else if cooccurrence || overlap {
            let codes = uses.map(\.code)
            let matrix = overlap ? CodeStatistics.overlap(entries, codes: codes) : CodeStatistics.cooccurrence(entries, codes: codes)
            showMatrix(codes, matrix)
        } else if json {
            let rows = uses.map { u in JSONValue.object([("code", .string(u.code)), ("codings", .int(u.codings)), ("entries", .int(u.entries)),
                                                         ("coders", .int(u.coders.count)), ("coder_names", .array(u.coders.map(JSONValue.string)))]) }
            Terminal.out(JSONValue.object([("codes", .array(rows))]).serialized(pretty: true))
        } else {
            let w = max(4, uses.map(\.code.count).max() ?? 0)
            Terminal.out(Terminal.bold("code".padding(toLength: w, withPad: " ", startingAt: 0) + "  codings  entries  coders"))
            for u in uses {
                Terminal.out(u.code.padding(toLength: w, withPad: " ", startingAt: 0) + "  " + CodeStats.right(u.codings, 7) + "  "
                             + CodeStats.right(u.entries, 7) + "  " + CodeStats.right(u.coders.count, 6) + "  " + Terminal.dim(u.coders.joined(separator: ", ")))
            }
        }
        if uses.isEmpty { throw DaybookError.nothing("") }
    }

    func showMatrix(_ codes: [String], _ matrix: [[Int]]) {
        if json {
            Terminal.out(JSONValue.object([("codes", .array(codes.map(JSONValue.string))), ("by", .string(overlap ? "segment" : "entry")),
                                           ("matrix", .array(matrix.map { .array($0.map(JSONValue.int)) }))]).serialized(pretty: true))
            return
        }
        let w = max(4, codes.map(\.count).max() ?? 0)
        let cell = max(3, String(matrix.flatMap { $0 }.max() ?? 0).count)
        // Columns are numbered so a wide matrix stays readable; the legend is the row labels.
        Terminal.out(String(repeating: " ", count: w + 6) + codes.indices.map { CodeStats.right($0 + 1, cell) }.joined(separator: " "))
        for (i, code) in codes.enumerated() {
            Terminal.out(CodeStats.right(i + 1, 3) + "  " + code.padding(toLength: w, withPad: " ", startingAt: 0) + " "
                         + matrix[i].map { CodeStats.right($0, cell) }.joined(separator: " "))
        }
    }

    func showAgreement(_ rows: [Agreement], units: Int) throws {
        func number(_ d: Double?) -> JSONValue { d.map(JSONValue.double) ?? .null }
        if json {
            let codes = rows.map { r in JSONValue.object([("code", .string(r.code)), ("agreement", number(r.observed)), ("kappa", number(r.kappa)),
                                                          ("alpha", number(r.alpha)),
                                                          ("a", .int(r.a)), ("b", .int(r.b)), ("both", .int(r.both)), ("neither", .int(r.neither)),
                                                          ("chars_a", .int(r.charsA)), ("chars_b", .int(r.charsB)), ("chars_both", .int(r.charsBoth)),
                                                          ("overlap", number(r.overlap))]) }
            Terminal.out(JSONValue.object([("coders", .array(agreement.map(JSONValue.string))), ("entries", .int(units)),
                                           ("codes", .array(codes))]).serialized(pretty: true))
        } else {
            let w = max(4, rows.map(\.code.count).max() ?? 0)
            Terminal.out(Terminal.bold("code".padding(toLength: w, withPad: " ", startingAt: 0) + "  agreement   kappa   alpha  text both  \(agreement[0])  \(agreement[1])  both  (\(CodeCommand.plural(units, "entry")))"))
            for r in rows {
                let pct = r.observed.map { String(format: "%8.1f %%", $0 * 100) } ?? "       —  "
                let kappa = r.kappa.map { String(format: "%7.3f", $0) } ?? "  undef"
                let alpha = r.alpha.map { String(format: "%7.3f", $0) } ?? "  undef"
                let text = r.overlap.map { String(format: "%7.1f %%", $0 * 100) } ?? "      —  "
                Terminal.out(r.code.padding(toLength: w, withPad: " ", startingAt: 0) + "  " + pct + " " + kappa + " " + alpha + " " + text + "  "
                             + CodeStats.right(r.a, agreement[0].count) + "  " + CodeStats.right(r.b, agreement[1].count) + "  " + CodeStats.right(r.both, 4))
            }
        }
        if rows.isEmpty { throw DaybookError.nothing("daybook: neither \(agreement[0]) nor \(agreement[1]) coded these entries") }
    }

    func showDisagreements(_ list: [Agreement.Disagreement]) throws {
        func text(_ d: Agreement.Disagreement) -> String {
            let s = d.entry.body.unicodeScalars
            let lo = s.index(s.startIndex, offsetBy: min(d.segment.start, s.count)), hi = s.index(s.startIndex, offsetBy: min(d.segment.end, s.count))
            return String(s[lo..<hi])
        }
        if json {
            Terminal.out(JSONValue.object([("coders", .array(agreement.map(JSONValue.string))), ("disagreements", .array(list.map { d in
                .object([("id", .string(d.entry.id)), ("code", .string(d.code)), ("coder", .string(d.coder)),
                         ("start", .int(d.segment.start)), ("end", .int(d.segment.end)), ("text", .string(text(d)))])
            }))]).serialized(pretty: true))
        } else {
            for d in list {
                var t = text(d).replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                if t.count > 70 { t = String(t.prefix(67)) + "..." }
                Terminal.out("\(Terminal.dim(d.entry.id))  \(d.code)  only \(d.coder)  \(Terminal.dim("[\(d.segment.start)–\(d.segment.end)]"))  \"\(TerminalText.shown(t))\"")
            }
        }
        if list.isEmpty { throw DaybookError.nothing("daybook: \(agreement[0]) and \(agreement[1]) coded the same text in these entries") }
    }

    static func right(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
