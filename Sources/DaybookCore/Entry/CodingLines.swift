// Adding, changing and removing front-matter codings by editing only each coding's own lines.
import Foundation
import Yams

/// The `codes:` value of an entry text. In block style (SPEC §1.1) every coding is a chunk of
/// lines: adding one appends its lines, removing or changing one touches only its chunk. Any
/// other form (a flow list) is rewritten as a block list on the first edit.
public struct CodingLines {
    public private(set) var text: EntryText

    public init(_ text: EntryText) {
        self.text = text
    }

    struct Chunk {
        /// Lines within `current`.
        var lines: Range<Int>
        var coding: Coding
    }

    /// The front-matter codings as written.
    public var codings: [Coding] { parsed.chunks.map(\.coding) }

    /// The front-matter codings with the file line (1-based) each starts on, and the line of its
    /// `quote:` (where an orphaned quote is shown; nil for a flow list or no quote).
    public var located: [(coding: Coding, line: Int, quoteLine: Int?)] {
        let keyLine = (text.span(of: "codes")?.lowerBound ?? 0) + 1
        let (lines, _, chunks, isBlock) = parsed
        return chunks.map { chunk in
            guard isBlock else { return (chunk.coding, keyLine, nil) }
            let quote = chunk.lines.first { i in
                let t = lines[i].drop { $0 == " " || $0 == "-" }
                return t.hasPrefix("quote:")
            }
            return (chunk.coding, keyLine + chunk.lines.lowerBound, quote.map { keyLine + $0 })
        }
    }

    /// Appends a coding.
    public mutating func append(_ coding: Coding) {
        var (lines, indent, chunks, isBlock) = parsed
        if lines.isEmpty { lines = ["codes:"] }
        if isBlock {
            let end = chunks.last?.lines.upperBound ?? lines.count
            text.set(key: "codes", lines: Array(lines[..<end]) + CodingLines.render(coding, indent: indent) + Array(lines[end...]))
        } else {
            rewrite(chunks.map(\.coding) + [coding])
        }
    }

    /// Applies `change` to every front-matter coding: nil removes it, a different value rewrites
    /// its lines. A coding that a change makes equal to an earlier one is removed (merging codes
    /// must not leave the same coding twice); codings not changed stay as they are. Returns how many changed.
    @discardableResult
    public mutating func update(_ change: (Coding) -> Coding?) -> Int {
        let (lines, indent, chunks, isBlock) = parsed
        var kept: [Coding] = []
        var out = lines
        var changed = 0
        var edits: [(Range<Int>, [String])] = []
        for chunk in chunks {
            let new = change(chunk.coding)
            if let new, new == chunk.coding || !kept.contains(where: { $0.untimed == new.untimed }) {
                kept.append(new)
                if new != chunk.coding {
                    changed += 1
                    edits.append((chunk.lines, CodingLines.render(new, indent: indent)))
                }
            } else {
                changed += 1
                edits.append((chunk.lines, []))
            }
        }
        guard changed > 0 else { return 0 }
        if !isBlock { rewrite(kept); return changed }
        for (range, replacement) in edits.reversed() { out.replaceSubrange(range, with: replacement) }
        if kept.isEmpty { text.remove(key: "codes") } else { text.set(key: "codes", lines: out) }
        return changed
    }

    mutating func rewrite(_ codings: [Coding]) {
        if codings.isEmpty { text.remove(key: "codes"); return }
        text.set(key: "codes", lines: ["codes:"] + codings.flatMap { CodingLines.render($0, indent: "  ") })
    }

    /// A coding in block style: `- code` for a whole-entry coding with nothing else, else a mapping.
    public static func render(_ c: Coding, indent: String) -> [String] {
        if c.quote == nil, c.occurrence == nil, c.memo == nil, c.coder == nil, c.coded == nil { return [indent + "- " + YAMLWriter.scalar(c.code)] }
        var out = [indent + "- code: " + YAMLWriter.scalar(c.code)]
        let more = indent + "  "
        if let q = c.quote { out.append(more + "quote: " + YAMLWriter.doubleQuoted(q)) }
        if let n = c.occurrence { out.append(more + "occurrence: \(n)") }
        if let m = c.memo { out.append(more + "memo: " + YAMLWriter.scalar(m)) }
        if let who = c.coder { out.append(more + "coder: " + YAMLWriter.scalar(who)) }
        // Written as `date:` is: ISO 8601 with the offset, unquoted.
        if let t = c.coded { out.append(more + "coded: " + t.description) }
        return out
    }

    // MARK: Reading the lines

    /// The key's lines (without endings), the item indentation, the chunks, and whether the
    /// value is a block list daybook can edit chunk by chunk.
    var parsed: (lines: [String], indent: String, chunks: [Chunk], isBlock: Bool) {
        let lines = text.currentLines(of: "codes").map(EntryText.withoutEnding)
        guard let first = lines.first, let colon = first.firstIndex(of: ":") else { return ([], "  ", [], true) }
        let value = first[first.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        var starts: [Int] = []
        var indent: String?
        if value.isEmpty || value.hasPrefix("#") {
            for (i, line) in lines.enumerated().dropFirst() {
                let rest = line.drop { $0 == " " }
                let lead = String(line.prefix(line.count - rest.count))
                guard rest.hasPrefix("- ") || rest == "-" else { continue }
                if indent == nil { indent = lead }
                if lead == indent { starts.append(i) }
            }
        }
        guard let indent else { return (lines, "  ", CodingLines.chunks(lines), value.isEmpty) }
        var chunks: [Chunk] = []
        for (n, s) in starts.enumerated() {
            var end = n + 1 < starts.count ? starts[n + 1] : lines.count
            // Trailing comments and blank lines stay where they are, outside the chunk.
            while end > s + 1, lines[end - 1].trimmingCharacters(in: .whitespaces).isEmpty || lines[end - 1].trimmingCharacters(in: .whitespaces).hasPrefix("#") { end -= 1 }
            guard let coding = CodingLines.chunks(["codes:"] + lines[s..<end]).first?.coding else {
                return (lines, indent, CodingLines.chunks(lines), false)
            }
            chunks.append(Chunk(lines: s..<end, coding: coding))
        }
        return (lines, indent, chunks, true)
    }

    /// The codings of `codes:` lines read through YAML (line ranges are not known).
    static func chunks(_ lines: [String]) -> [Chunk] {
        guard let node = try? Yams.compose(yaml: lines.joined(separator: "\n")), case let .mapping(m) = node,
              let value = m.first?.value else { return [] }
        let codings = EntryParser(config: DiaryConfig()).parseCodings(value) { _, _ in }
        return codings.map { Chunk(lines: 0..<0, coding: $0) }
    }
}
