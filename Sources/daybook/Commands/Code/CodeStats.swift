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
        --agreement A B: per code and over all codes, percent agreement, Cohen's kappa and \
        Krippendorff's alpha of the two coders, by --unit entry (did each coder apply the code in the \
        entry), character (each character of the entries both coded) or segment (a coding agrees when \
        the other coded --min-overlap of it, default 0.9); more coders: alpha only. --coded-by coding counts only \
        the entries both coders made a coding in. A coding without coder: is the default coder's, as \
        export qdpx counts it. --disagreements lists, per unit, what only one coder coded. See man \
        daybook-code. Exit 1 when no coding matches.
        """)

    @OptionGroup var filters: FilterOptions
    @Flag(help: "A code × code matrix of entries coded with both.") var cooccurrence = false
    @Flag(help: "Count overlapping segments instead of shared entries (implies --cooccurrence).") var overlap = false
    @Option(parsing: .upToNextOption, help: ArgumentHelp("Agreement of two coders (or more: alpha only).", valueName: "coder")) var agreement: [String] = []
    @Option(help: ArgumentHelp("With --agreement: the unit the table (or --disagreements) counts in: entry, character or segment (default: entry; character for --disagreements).", valueName: "unit"))
    var unit: AgreementUnit?
    @Option(name: .customLong("min-overlap"), help: ArgumentHelp("With --unit segment: the share of a segment the other coder must have coded with the code for it to agree (default 0.9).", valueName: "share"))
    var minOverlap: Double?
    @Option(name: .customLong("coded-by"), help: ArgumentHelp("With --agreement: which entries count as coded by a coder: every (default) or coding (those holding one of their codings).", valueName: "rule"))
    var codedBy: CodedByChoice = .every
    @Flag(help: "With --agreement: each stretch of text (or, --unit entry, each entry) only one of the two coders coded, by entry and code.") var disagreements = false
    @Flag(help: "JSON output (see man daybook-code).") var json = false
    @Flag(help: "With --agreement: CSV of every figure, by unit, per code and overall (see man daybook-code).") var csv = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if agreement.count == 1 { throw ValidationError("--agreement takes two coders or more: --agreement ANN BOB") }
        if disagreements && agreement.count > 2 { throw ValidationError("--disagreements compares two coders: --agreement ANN BOB") }
        if !agreement.isEmpty && (cooccurrence || overlap) { throw ValidationError("give --agreement or --cooccurrence, not both") }
        if disagreements && agreement.isEmpty { throw ValidationError("--disagreements goes with --agreement A B") }
        if agreement.isEmpty && (unit != nil || codedBy != .every || csv) { throw ValidationError("--unit, --coded-by and --csv go with --agreement A B") }
        if json && csv { throw ValidationError("give --json or --csv, not both") }
        if let m = minOverlap, !(m > 0 && m <= 1) { throw ValidationError("--min-overlap is a share above 0 and at most 1, such as 0.9") }
        if minOverlap != nil && unit != .segment && !json && !csv { throw ValidationError("--min-overlap goes with --unit segment (or --json, --csv)") }
        if unit == .segment && agreement.count > 2 { throw ValidationError("--unit segment compares two coders") }
    }

    func run() throws {
        let diary = try global.openDiary()
        // Bodies for the agreement: the per-character figures count every character of an entry.
        let entries = try filters.entries(of: diary, bodies: !agreement.isEmpty)
        let uses = CodeStatistics.uses(entries, defaultCoder: diary.coderOfUnnamedCodings)
        if agreement.count >= 2 {
            let options = AgreementOptions(codedBy: codedBy.rule, defaultCoder: diary.coderOfUnnamedCodings, minOverlap: minOverlap ?? 0.9)
            for w in try AgreementReport.checkCoders(agreement, in: entries, diary: diary, defaultCoder: options.defaultCoder) {
                Terminal.message("daybook: warning: \(w)")
            }
            if disagreements {
                try showDisagreements(Agreement.disagreements(entries, coders: (agreement[0], agreement[1]), options: options, unit: unit ?? .character),
                                      unit: unit ?? .character)
            } else if agreement.count == 2 {
                try showAgreement(AgreementReport.compute(entries, coders: agreement, options: options))
            } else {
                try showAlpha(AgreementReport.compute(entries, coders: agreement, options: options))
            }
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

    func showAgreement(_ report: AgreementReport) throws {
        func number(_ d: Double?) -> JSONValue { d.map(JSONValue.double) ?? .null }
        func table(_ t: AgreementTable, alpha: Double?) -> JSONValue {
            .object([("units", .int(t.units)), ("a", .int(t.a)), ("b", .int(t.b)), ("both", .int(t.both)), ("neither", .int(t.neither)),
                     ("agreement", number(t.observed)), ("expected", number(t.expected)), ("kappa", number(t.kappa)), ("alpha", number(alpha))])
        }
        func segments(_ t: SegmentAgreement) -> JSONValue {
            .object([("units", .int(t.units)), ("a", .int(t.a)), ("b", .int(t.b)), ("a_agreed", .int(t.aAgreed)), ("b_agreed", .int(t.bAgreed)),
                     ("agreement", number(t.observed))] + (t.categories > 0 ? [("codes", .int(t.categories)), ("kappa", number(t.kappa))] : []))
        }
        let rows = report.codes
        if json {
            let codes = rows.map { r in JSONValue.object([("code", .string(r.code)), ("agreement", number(r.entries.observed)), ("kappa", number(r.entries.kappa)),
                                                          ("alpha", number(r.alpha)),
                                                          ("a", .int(r.entries.a)), ("b", .int(r.entries.b)), ("both", .int(r.entries.both)), ("neither", .int(r.entries.neither)),
                                                          ("chars_a", .int(r.characters.a)), ("chars_b", .int(r.characters.b)), ("chars_both", .int(r.characters.both)),
                                                          ("overlap", number(r.characters.overlap)),
                                                          ("by_entry", table(r.entries, alpha: r.alpha)), ("by_character", table(r.characters, alpha: r.characterAlpha)),
                                                          ("by_segment", segments(r.segments))]) }
            Terminal.out(JSONValue.object([("coders", .array(agreement.map(JSONValue.string))), ("coded_by", .string(codedBy.rawValue)),
                                           ("entries", .int(report.entries)), ("coded_by_both", .int(report.codedByBoth)), ("codes", .array(codes)),
                                           ("overall", .object([("by_entry", table(report.overall.entries, alpha: report.overall.alpha)),
                                                                ("by_character", table(report.overall.characters, alpha: report.overall.characterAlpha)),
                                                                ("by_segment", segments(report.overall.segments))])),
                                           ("min_overlap", .double(minOverlap ?? 0.9))])
                .serialized(pretty: true))
        } else if csv {
            Terminal.out(CodeLs.csvRow(["scope", "code", "unit", "units", "a", "b", "both", "neither", "agreement", "expected", "kappa", "alpha"]), terminator: "\r\n")
            func f(_ d: Double?) -> String { d.map { String($0) } ?? "" }
            for (scope, r) in rows.map({ ("code", $0) }) + [("overall", report.overall)] {
                for (u, t, alpha) in [(AgreementUnit.entry, r.entries, r.alpha), (.character, r.characters, r.characterAlpha)] {
                    Terminal.out(CodeLs.csvRow([scope, scope == "code" ? r.code : "", u.rawValue, String(t.units), String(t.a), String(t.b), String(t.both), String(t.neither),
                                                f(t.observed), f(t.expected), f(t.kappa), f(alpha)]), terminator: "\r\n")
                }
                // By segment: a and b are each coder's segments, both those that agree; there is no "neither".
                let g = r.segments
                Terminal.out(CodeLs.csvRow([scope, scope == "code" ? r.code : "", AgreementUnit.segment.rawValue, String(g.units), String(g.a), String(g.b),
                                            String(g.agreed), "", f(g.observed), g.categories >= 2 ? f(1 / Double(g.categories)) : "", f(g.kappa), ""]), terminator: "\r\n")
            }
        } else if unit == .segment {
            let (a, b) = (agreement[0], agreement[1])
            Terminal.out(Terminal.bold("Agreement of \(a) and \(b) by segment: a coding agrees when the other coded the code over at least "
                + String(format: "%g", (minOverlap ?? 0.9) * 100) + " % of it; \(CodeCommand.plural(report.codedByBoth, "entry")) both coded"
                + (report.codedByBoth < report.entries ? " of \(report.entries)" : "")))
            let w = max("(all codes)".count, rows.map(\.code.count).max() ?? 0)
            let (wa, wb) = (max(a.count, 9), max(b.count, 9))
            Terminal.out(Terminal.bold("code".padding(toLength: w, withPad: " ", startingAt: 0) + "  agreement   kappa  " + CodeStats.left(a, wa) + "  " + CodeStats.left(b, wb)))
            for (r, name) in rows.map({ ($0, $0.code) }) + [(report.overall, "(all codes)")] {
                let g = r.segments
                let pct = g.observed.map { String(format: "%8.1f %%", $0 * 100) } ?? "       —  "
                // κ is of the whole table (chance 1/k for k codes): on the overall row only.
                let kappa = name == "(all codes)" ? (g.kappa.map { String(format: "%7.3f", $0) } ?? "  undef") : "       "
                Terminal.out(name.padding(toLength: w, withPad: " ", startingAt: 0) + "  " + pct + " " + kappa + "  "
                             + CodeStats.left("\(g.aAgreed)/\(g.a)", wa) + "  " + CodeStats.left("\(g.bAgreed)/\(g.b)", wb))
            }
        } else {
            let byCharacter = unit == .character
            let (a, b) = (agreement[0], agreement[1])
            Terminal.out(Terminal.bold("Agreement of \(a) and \(b) " + (byCharacter
                ? "per character: each character of the \(CodeCommand.plural(report.codedByBoth, "entry")) both coded"
                : "by entry: did each apply the code in the entry; \(CodeCommand.plural(report.codedByBoth, "entry")) both coded")
                + (report.codedByBoth < report.entries ? " of \(report.entries)" : "")))
            let overallName = "(all codes)"
            let w = max(overallName.count, rows.map(\.code.count).max() ?? 0)
            let (wa, wb) = (max(a.count, byCharacter ? 7 : 4), max(b.count, byCharacter ? 7 : 4))
            Terminal.out(Terminal.bold("code".padding(toLength: w, withPad: " ", startingAt: 0) + "  agreement   kappa   alpha" + (byCharacter ? "" : "  text both")
                                       + "  " + CodeStats.left(a, wa) + "  " + CodeStats.left(b, wb) + "  " + (byCharacter ? "   both" : "both")))
            for (r, name) in rows.map({ ($0, $0.code) }) + [(report.overall, overallName)] {
                let t = byCharacter ? r.characters : r.entries
                let pct = t.observed.map { String(format: "%8.1f %%", $0 * 100) } ?? "       —  "
                let kappa = t.kappa.map { String(format: "%7.3f", $0) } ?? "  undef"
                let alpha = (byCharacter ? r.characterAlpha : r.alpha).map { String(format: "%7.3f", $0) } ?? "  undef"
                let text = byCharacter ? "" : " " + (r.characters.overlap.map { String(format: "%7.1f %%", $0 * 100) } ?? "      —  ")
                Terminal.out(name.padding(toLength: w, withPad: " ", startingAt: 0) + "  " + pct + " " + kappa + " " + alpha + text + "  "
                             + CodeStats.right(t.a, wa) + "  " + CodeStats.right(t.b, wb) + "  " + CodeStats.right(t.both, byCharacter ? 7 : 4))
            }
        }
        if rows.isEmpty { throw DaybookError.nothing("daybook: neither \(agreement[0]) nor \(agreement[1]) coded these entries") }
    }

    /// More than two coders: Krippendorff's alpha with missing values by entry and per character
    /// (Cohen's kappa and percent agreement are measures of two coders).
    func showAlpha(_ report: AgreementReport) throws {
        func number(_ d: Double?) -> JSONValue { d.map(JSONValue.double) ?? .null }
        let rows = report.codes
        let all = rows.map { ($0, $0.code) } + [(report.overall, "")]
        if json {
            func unit(_ units: Int, _ counts: [Int]?, _ alpha: Double?) -> JSONValue {
                .object([("units", .int(units))] + (counts.map { [("coded", .array($0.map(JSONValue.int)))] } ?? []) + [("alpha", number(alpha))])
            }
            let codes = rows.map { r in JSONValue.object([("code", .string(r.code)), ("alpha", number(r.alpha)),
                                                          ("by_entry", unit(r.pairableEntries, r.appliedIn, r.alpha)),
                                                          ("by_character", unit(r.pairableCharacters, r.charactersCoded, r.characterAlpha))]) }
            Terminal.out(JSONValue.object([("coders", .array(agreement.map(JSONValue.string))), ("coded_by", .string(codedBy.rawValue)),
                                           ("entries", .int(report.entries)), ("coded_by_all", .int(report.codedByBoth)),
                                           ("coded_by_two", .int(report.codedByTwo)), ("codes", .array(codes)),
                                           ("overall", .object([("by_entry", unit(report.overall.pairableEntries, nil, report.overall.alpha)),
                                                                ("by_character", unit(report.overall.pairableCharacters, nil, report.overall.characterAlpha))]))])
                .serialized(pretty: true))
        } else if csv {
            Terminal.out(CodeLs.csvRow(["scope", "code", "unit", "units", "a", "b", "both", "neither", "agreement", "expected", "kappa", "alpha"]), terminator: "\r\n")
            for (r, name) in all {
                for (u, units, alpha) in [(AgreementUnit.entry, r.pairableEntries, r.alpha), (.character, r.pairableCharacters, r.characterAlpha)] {
                    Terminal.out(CodeLs.csvRow([name.isEmpty ? "overall" : "code", name, u.rawValue, String(units), "", "", "", "", "", "", "",
                                                alpha.map { String($0) } ?? ""]), terminator: "\r\n")
                }
            }
        } else {
            let byCharacter = unit == .character
            let names = agreement.dropLast().joined(separator: ", ") + " and " + (agreement.last ?? "")
            Terminal.out(Terminal.bold("Agreement of \(names) " + (byCharacter ? "per character, each character of" : "by entry, did each apply the code in")
                + " the \(CodeCommand.plural(report.codedByTwo, "entry")) two or more coded (\(report.codedByBoth) by all" + (report.codedByTwo < report.entries ? ", of \(report.entries))" : ")")
                + ": Krippendorff's alpha with missing values"))
            let w = max("(all codes)".count, rows.map(\.code.count).max() ?? 0)
            let widths = agreement.map { max($0.count, byCharacter ? 7 : 4) }
            Terminal.out(Terminal.bold("code".padding(toLength: w, withPad: " ", startingAt: 0) + "    alpha  "
                                       + zip(agreement, widths).map { CodeStats.left($0, $1) }.joined(separator: "  ")))
            for (r, name) in all {
                let alpha = (byCharacter ? r.characterAlpha : r.alpha).map { String(format: "%7.3f", $0) } ?? "  undef"
                let counts = name.isEmpty ? "" : zip(byCharacter ? r.charactersCoded : r.appliedIn, widths).map { CodeStats.right($0, $1) }.joined(separator: "  ")
                Terminal.out((name.isEmpty ? "(all codes)" : name).padding(toLength: w, withPad: " ", startingAt: 0) + "  " + alpha + (counts.isEmpty ? "" : "  " + counts))
            }
        }
        if rows.isEmpty { throw DaybookError.nothing("daybook: none of \(agreement.joined(separator: ", ")) coded these entries") }
    }

    func showDisagreements(_ list: [Agreement.Disagreement], unit: AgreementUnit) throws {
        func text(_ d: Agreement.Disagreement) -> String {
            let s = d.entry.body.unicodeScalars
            let lo = s.index(s.startIndex, offsetBy: min(d.segment.start, s.count)), hi = s.index(s.startIndex, offsetBy: min(d.segment.end, s.count))
            return String(s[lo..<hi])
        }
        if json {
            Terminal.out(JSONValue.object([("coders", .array(agreement.map(JSONValue.string))), ("unit", .string(unit.rawValue)), ("disagreements", .array(list.map { d in
                .object([("id", .string(d.entry.id)), ("code", .string(d.code)), ("coder", .string(d.coder)),
                         ("start", .int(d.segment.start)), ("end", .int(d.segment.end))] + (unit != .entry ? [("text", .string(text(d)))] : []))
            }))]).serialized(pretty: true))
        } else if csv {
            Terminal.out(CodeLs.csvRow(["id", "code", "coder", "start", "end"] + (unit != .entry ? ["text"] : [])), terminator: "\r\n")
            for d in list {
                Terminal.out(CodeLs.csvRow([d.entry.id, d.code, d.coder, String(d.segment.start), String(d.segment.end)] + (unit != .entry ? [text(d)] : [])), terminator: "\r\n")
            }
        } else {
            for d in list {
                if unit == .entry {
                    Terminal.out("\(Terminal.dim(d.entry.id))  \(d.code)  only \(d.coder)  \(Terminal.dim("(the entry)"))")
                    continue
                }
                var t = text(d).replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                if t.count > 70 { t = String(t.prefix(67)) + "..." }
                // By segment the other coder may have coded part of it, too little: "unmatched", not "only".
                Terminal.out("\(Terminal.dim(d.entry.id))  \(d.code)  \(unit == .segment ? "unmatched" : "only") \(d.coder)  \(Terminal.dim("[\(d.segment.start)–\(d.segment.end)]"))  \"\(TerminalText.shown(t))\"")
            }
        }
        if list.isEmpty { throw DaybookError.nothing("daybook: \(agreement[0]) and \(agreement[1]) coded the same " + (unit == .entry ? "entries" : "text") + " in these entries") }
    }

    static func left(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }

    static func right(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }
}

extension AgreementUnit: ExpressibleByArgument {}

/// `--coded-by`: which entries count as coded by a coder (`AgreementOptions.CodedBy`).
enum CodedByChoice: String, ExpressibleByArgument, CaseIterable {
    case every, coding

    var rule: AgreementOptions.CodedBy { self == .every ? .every : .anyCoding }
}
