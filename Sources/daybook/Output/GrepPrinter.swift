// How grep's results look: path:line:column:text lines, paths, counts or JSON Lines.
import DaybookCore
import Foundation

final class GrepPrinter {
    enum Mode { case lines, paths, counts }
    let mode: Mode
    let json: Bool
    /// With context lines, groups of lines that are not adjacent are separated by `--`, as grep does.
    let showsContext: Bool
    /// Whether a group was printed already: the next entry's first group gets a `--` before it.
    private var printedGroup = false

    init(mode: Mode, json: Bool, showsContext: Bool) {
        self.mode = mode
        self.json = json
        self.showsContext = showsContext
    }

    /// Prints one entry's result; `path` is the path as the user sees it.
    func print(_ result: GrepResult, path: String) {
        switch (mode, json) {
        case (.paths, false): Terminal.out(Terminal.paint(path, "35"))
        case (.paths, true): Terminal.out(JSONValue.object([("id", .string(result.id)), ("path", .string(path))]).serialized())
        case (.counts, false): Terminal.out(Terminal.paint(path, "35") + ":" + String(result.matchingLines))
        case (.counts, true):
            Terminal.out(JSONValue.object([("id", .string(result.id)), ("path", .string(path)),
                                           ("count", .int(result.matchingLines))]).serialized())
        case (.lines, true):
            for line in result.lines { Terminal.out(line.json(id: result.id, path: path).serialized()) }
        case (.lines, false):
            printLines(result.lines, path: path)
        }
    }

    private func printLines(_ lines: [GrepLine], path: String) {
        let shownPath = Terminal.paint(path, "35")
        var previous: Int?
        for line in lines {
            if showsContext, previous.map({ line.number != $0 + 1 }) ?? printedGroup { Terminal.out(Terminal.dim("--")) }
            previous = line.number
            printedGroup = true
            let number = Terminal.paint(String(line.number), "32")
            if let column = line.column {
                Terminal.out("\(shownPath):\(number):\(column):\(GrepPrinter.highlight(line.text, line.matches))")
            } else {
                Terminal.out("\(shownPath)-\(number)-\(line.text)")
            }
        }
    }

    /// The text with each match painted; unchanged without colour.
    static func highlight(_ text: String, _ ranges: [Range<Int>]) -> String {
        guard Terminal.useColor else { return text }
        let bytes = Array(text.utf8)
        var out = ""
        var at = 0
        for r in ranges where r.lowerBound >= at && r.upperBound <= bytes.count && !r.isEmpty {
            out += String(decoding: bytes[at..<r.lowerBound], as: UTF8.self)
            out += Terminal.match(String(decoding: bytes[r], as: UTF8.self))
            at = r.upperBound
        }
        return out + String(decoding: bytes[at...], as: UTF8.self)
    }
}
