// `daybook code book`: the codebook as a tree with the number of codings and entries per code.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeBook: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "The codebook as a tree, with codings and entries for each code; used but undefined codes apart.",
        discussion: "Counts are over every readable entry and are the code's own (a category's children are counted on their own rows).")

    @Flag(help: "{\"codes\": [{code, description, color, codings, entries, codes}], \"undefined\": [{code, codings, entries}]}.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let book = try Codebook.load(diary)
        var diags: [Diagnostic] = []
        let uses = Dictionary(CodeStatistics.uses(diary.loadEntries(diagnostics: &diags, bodies: false)).map { ($0.code, $0) }) { a, _ in a }
        Terminal.warnings(diags)
        let undefined = uses.values.filter { !book.contains($0.code) }.sorted { $0.code < $1.code }
        func counts(_ name: String) -> (Int, Int) { (uses[name]?.codings ?? 0, uses[name]?.entries ?? 0) }
        if json {
            func node(_ c: Codebook.Code) -> JSONValue {
                let (codings, entries) = counts(c.name)
                return .object([("code", .string(c.name)), ("description", c.description.map(JSONValue.string) ?? .null),
                                ("color", c.color.map(JSONValue.string) ?? .null), ("codings", .int(codings)),
                                ("entries", .int(entries)), ("codes", .array(c.children.map(node)))])
            }
            let undef = undefined.map { JSONValue.object([("code", .string($0.code)), ("codings", .int($0.codings)), ("entries", .int($0.entries))]) }
            Terminal.out(JSONValue.object([("codes", .array(book.codes.map(node))), ("undefined", .array(undef))]).serialized(pretty: true))
            return
        }
        let width = max(20, (book.paths.map { $0.count * 2 + ($0.last?.count ?? 0) } + undefined.map { $0.code.count + 2 }).max() ?? 0)
        func row(_ name: String, depth: Int, note: String?) -> String {
            let (codings, entries) = counts(name)
            let label = String(repeating: "  ", count: depth) + name
            var line = label.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            line += CodeCommand.plural(codings, "coding").padding(toLength: 12, withPad: " ", startingAt: 0)
            line += entries == 1 ? "1 entry  " : "\(entries) entries"
            if let note { line += "  " + Terminal.dim(note) }
            return line
        }
        func walk(_ codes: [Codebook.Code], depth: Int) {
            for c in codes {
                Terminal.out(row(c.name, depth: depth, note: [c.color, c.description].compactMap { $0 }.joined(separator: " ")))
                walk(c.children, depth: depth + 1)
            }
        }
        if book.codes.isEmpty { Terminal.out(Terminal.dim("(the codebook is empty: daybook code define CODE adds a code)")) }
        walk(book.codes, depth: 0)
        if !undefined.isEmpty {
            Terminal.out("")
            Terminal.out("Used but not in the codebook:")
            for u in undefined { Terminal.out(row(u.code, depth: 1, note: nil)) }
        }
    }
}
