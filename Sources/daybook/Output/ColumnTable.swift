// Aligned columns with a header line: text left, numbers right, as wide as a terminal shows them.
import Foundation

struct ColumnTable {
    var header: [String]
    var rows: [[String]]

    func print() {
        let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(ColumnTable.width).max() ?? 0 }
        // A column whose every value is a number lines up on the right.
        let numeric = header.indices.map { i in
            rows.contains { !$0[i].isEmpty } && rows.allSatisfy { $0[i].isEmpty || Double($0[i]) != nil }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - ColumnTable.width(cell))
                if i > 0 { out += "  " }
                out += numeric[i] ? pad + cell : (i == cells.count - 1 ? cell : cell + pad)
            }
            while out.last == " " { out.removeLast() }
            return out
        }
        Terminal.out(Terminal.bold(line(header)))
        for r in rows { Terminal.out(line(r)) }
    }

    /// Columns a terminal gives the text: East Asian wide characters and emoji take two.
    static func width(_ s: String) -> Int {
        s.reduce(0) { n, c in
            guard let v = c.unicodeScalars.first?.value else { return n }
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
                || (0x20000...0x3FFFD).contains(v)
            return n + (wide ? 2 : 1)
        }
    }
}
