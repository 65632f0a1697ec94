// Seeing codes while writing: inlay hints after coded segments, their highlights, their codebook colours.
import DaybookCore
import Foundation

enum CodedSegments {
    /// The entry's quoted codings with where their segment is in the document.
    static func segments(_ doc: Document) -> [(coding: Coding, range: Range<String.Index>)] {
        guard let a = doc.analysis, let entry = a.check.usable, let entryText = a.entryText,
              entryText.closing + 1 < a.lines.starts.count else { return [] }
        let bodyStart = a.lines.starts[entryText.closing + 1]
        let scalars = a.lines.text.unicodeScalars
        var out: [(Coding, Range<String.Index>)] = []
        for (k, c) in entry.codings.enumerated() where c.quote != nil {
            guard let anchor = entry.anchor(k),
                  let lo = scalars.index(bodyStart, offsetBy: anchor.start, limitedBy: scalars.endIndex),
                  let hi = scalars.index(lo, offsetBy: anchor.end - anchor.start, limitedBy: scalars.endIndex) else { continue }
            out.append((c, lo..<hi))
        }
        return out
    }

    /// `◂ code` at the end of each coded segment (several codes ending together share one hint).
    static func inlayHints(_ doc: Document, in range: LSPRange) -> [InlayHint] {
        guard let lines = doc.analysis?.lines else { return [] }
        var byEnd: [(String.Index, [String])] = []
        for (c, r) in segments(doc) {
            if let i = byEnd.firstIndex(where: { $0.0 == r.upperBound }) {
                if !byEnd[i].1.contains(c.code) { byEnd[i].1.append(c.code) }
            } else { byEnd.append((r.upperBound, [c.code])) }
        }
        return byEnd.compactMap { end, codes in
            let p = lines.position(of: end)
            guard p >= range.start, p <= range.end else { return nil }
            return InlayHint(position: p, label: "◂ " + codes.joined(separator: ", "), tooltip: "coded: " + codes.joined(separator: ", "))
        }
    }

    /// The segments coded at the position.
    static func highlights(_ doc: Document, at p: Position) -> [DocumentHighlight] {
        guard let lines = doc.analysis?.lines else { return [] }
        let i = lines.index(of: p)
        let here = segments(doc).filter { $0.range.contains(i) || $0.range.upperBound == i }
        var seen: [Range<String.Index>] = []
        return here.compactMap { s in
            guard !seen.contains(s.range) else { return nil }
            seen.append(s.range)
            return DocumentHighlight(range: lines.range(s.range))
        }
    }

    /// Each coded segment in its code's colour (else its category's).
    static func colors(_ doc: Document) -> [ColorInformation] {
        guard let lines = doc.analysis?.lines, let (context, _) = doc.place else { return [] }
        let book = context.codebook
        return segments(doc).compactMap { c, r in
            guard let hex = book.color(of: c.code), let color = color(hex) else { return nil }
            return ColorInformation(range: lines.range(r), color: color)
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA` as LSP's colour (components 0…1).
    static func color(_ hex: String) -> Color? {
        guard Codebook.isColor(hex) else { return nil }
        let digits = Array(hex.dropFirst())
        func part(_ k: Int) -> Double? { UInt8(String(digits[(2 * k)..<(2 * k + 2)]), radix: 16).map { Double($0) / 255 } }
        guard let r = part(0), let g = part(1), let b = part(2) else { return nil }
        return Color(red: r, green: g, blue: b, alpha: digits.count == 8 ? part(3) ?? 1 : 1)
    }

    static func hex(_ c: Color) -> String {
        func two(_ v: Double) -> String { String(format: "%02x", Int((min(1, max(0, v)) * 255).rounded())) }
        return "#" + two(c.red) + two(c.green) + two(c.blue) + (c.alpha < 1 ? two(c.alpha) : "")
    }
}
