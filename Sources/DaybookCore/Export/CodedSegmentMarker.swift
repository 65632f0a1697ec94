// Highlights coded segments in rendered HTML: markers go into the Markdown, cmark renders, marks replace them.
import Foundation

/// A coded segment of an entry's body, and how to show it.
struct CodedSegment {
    var range: Range<String.Index>
    var code: String
    var color: String
    /// Which of the entry's codings it is (its place in `codes:`), for the web app to reach it
    /// from the highlight; nil where no page needs it.
    var coding: Int? = nil
}

/// Puts private-use markers around each segment before cmark renders the body, then turns every
/// run of text between markers into `<mark>` elements. Marking each text run on its own keeps the
/// HTML well nested even when a quote crosses emphasis or links; the code's name follows the
/// segment, so the colour is never the only sign of the code.
enum CodedSegmentMarker {
    // Plane 15 private use: never in a diary's text, passed through by cmark untouched.
    static let startBase: UInt32 = 0xF0000
    static let endBase: UInt32 = 0xF8000

    static func render(_ body: String, segments: [CodedSegment], unsafe: Bool, target: Markdown.LinkTarget? = nil,
                       wiki: Markdown.WikiTarget? = nil) -> String {
        let segments = Array(segments.prefix(0x8000))
        guard !segments.isEmpty else { return Markdown.html(body, unsafe: unsafe, target: target, wiki: wiki) }
        return replaceMarkers(Markdown.html(marked(body, segments: segments), unsafe: unsafe, target: target, wiki: wiki), segments: segments)
    }

    /// The body with a start marker before each segment and an end marker after it (at most
    /// 0x8000 segments; the rest are not marked).
    static func marked(_ body: String, segments: [CodedSegment]) -> String {
        let segments = Array(segments.prefix(0x8000))
        // Ends before starts at the same place, so adjacent segments do not nest.
        var events: [(offset: Int, isStart: Bool, index: Int)] = []
        for (i, s) in segments.enumerated() {
            events.append((body.utf8.distance(from: body.startIndex, to: s.range.lowerBound), true, i))
            events.append((body.utf8.distance(from: body.startIndex, to: s.range.upperBound), false, i))
        }
        events.sort { $0.offset != $1.offset ? $0.offset < $1.offset : (!$0.isStart && $1.isStart) }
        var marked = ""
        var utf8 = body.utf8.startIndex
        for ev in events {
            let target = body.utf8.index(body.startIndex, offsetBy: ev.offset)
            marked += body[utf8..<target]
            utf8 = target
            let base = ev.isStart ? startBase : endBase
            if let u = Unicode.Scalar(base + UInt32(ev.index)) { marked.unicodeScalars.append(u) }
        }
        marked += body[utf8...]
        return marked
    }

    static func replaceMarkers(_ html: String, segments: [CodedSegment]) -> String {
        var out = ""
        var open: [Int] = []
        var wrapped = false
        var inTag = false
        func close() {
            if wrapped { out += String(repeating: "</mark>", count: open.count); wrapped = false }
        }
        for u in html.unicodeScalars {
            if u.value >= startBase && u.value < startBase + 0x10000 {
                guard !inTag else { continue } // a marker inside an attribute is dropped
                let isStart = u.value < endBase
                let i = Int(u.value - (isStart ? startBase : endBase))
                guard i < segments.count else { continue }
                close()
                if isStart { open.append(i) } else {
                    open.removeAll { $0 == i }
                    out += "<sup class=\"code-label\">" + HTMLText.escape(segments[i].code) + "</sup>"
                }
                continue
            }
            if u == "<" { close(); inTag = true }
            else if !inTag && !wrapped && !open.isEmpty && u != "\n" {
                for i in open {
                    let s = segments[i]
                    // A colour too pale to see against white is underlined in a darker shade of itself.
                    let line = CodeColorContrast.underline(s.color)
                    let style = "--code: \(s.color)" + (line == s.color ? "" : "; --code-line: \(line)")
                    let place = s.coding.map { " data-coding=\"\($0)\"" } ?? ""
                    out += "<mark class=\"coded\" style=\"\(style)\"\(place) title=\"\(HTMLText.escape(s.code))\">"
                }
                wrapped = true
            }
            out.unicodeScalars.append(u)
            if u == ">" { inTag = false }
        }
        close()
        return out
    }
}
