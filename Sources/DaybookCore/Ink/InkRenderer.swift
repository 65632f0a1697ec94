// Renders strokes as SVG: one filled outline per stroke, its width following force and tilt.
import Foundation

public enum InkRenderer {
    /// Points closer than this (canvas units) to the last one kept add nothing visible; skipping
    /// them keeps the SVG of a dense tablet recording small.
    static let minimumStep = 0.4
    /// Opacity of a highlighter whose colour has no alpha of its own.
    static let highlighterOpacity = 0.45

    /// The SVG document: viewBox from the canvas (else from the strokes' extent), strokes in file
    /// order. The same file always gives the same bytes.
    public static func svg(_ file: StrokeFile) -> String {
        String(decoding: svgBytes(file), as: UTF8.self)
    }

    /// The SVG as UTF-8 bytes, for output that should not be copied into a String first.
    public static func svgBytes(_ file: StrokeFile) -> [UInt8] {
        var out = SVGText()
        // About 52 bytes a point; reserving more costs nothing until written, and growing by
        // copying would briefly hold the SVG twice.
        out.bytes.reserveCapacity(64 * file.pointCount + 4096)
        let box = viewBox(file)
        out.text("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"")
        out.number(box.x); out.text(" "); out.number(box.y); out.text(" "); out.number(box.width); out.text(" "); out.number(box.height)
        out.text("\"")
        if let c = file.canvas {
            let unit = ["pt", "px", "mm", "cm", "in", "pc"].contains(c.unit ?? "") ? c.unit ?? "" : ""
            out.text(" width=\""); out.number(c.width); out.text(unit + "\" height=\""); out.number(c.height); out.text(unit + "\"")
        }
        out.text(">\n")
        for (i, s) in file.strokes.enumerated() {
            let color = s.color.flatMap(InkColor.init) ?? InkColor.ink
            var opacity = color.alpha
            var style = ""
            switch s.tool {
            case .highlighter:
                if color.alpha == 1 { opacity = highlighterOpacity }
                style = " style=\"mix-blend-mode:multiply\""
            case .pencil: opacity *= 0.85
            case .pen, .marker: break
            }
            out.text("<path class=\"ink-\(s.tool.rawValue)\" data-stroke=\"\(i)\" fill=\"\(color.rgb)\"")
            if opacity < 1 { out.text(" fill-opacity=\""); out.number(opacity); out.text("\"") }
            out.text(style + " d=\"")
            StrokeOutline(s).write(to: &out)
            out.text("\"")
            if let code = s.code { out.text("><title>code: \(InkMLWriter.escape(code))</title></path>\n") } else { out.text("/>\n") }
        }
        out.text("</svg>\n")
        return out.bytes
    }

    static func viewBox(_ file: StrokeFile) -> (x: Double, y: Double, width: Double, height: Double) {
        if let c = file.canvas { return (0, 0, c.width, c.height) }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var margin = 1.0
        for s in file.strokes {
            guard let x = s.points.channelIndex("x"), let y = s.points.channelIndex("y") else { continue }
            margin = max(margin, (s.width ?? StrokeOutline.defaultWidth) * 1.2)
            for p in 0..<s.points.count {
                minX = min(minX, s.points[p, x]); maxX = max(maxX, s.points[p, x])
                minY = min(minY, s.points[p, y]); maxY = max(maxY, s.points[p, y])
            }
        }
        guard minX.isFinite, minY.isFinite else { return (0, 0, 1, 1) }
        return (minX - margin, minY - margin, maxX - minX + 2 * margin, maxY - minY + 2 * margin)
    }
}

/// SVG text built as bytes, with numbers rounded to hundredths and written without a
/// formatter: a million-point stroke writes millions of numbers.
struct SVGText {
    var bytes: [UInt8] = []

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

    mutating func byte(_ c: Unicode.Scalar) { bytes.append(UInt8(ascii: c)) }

    mutating func number(_ d: Double) {
        guard d.isFinite else { bytes.append(0x30); return }
        // Clamped so the conversion to Int cannot trap on a huge coordinate in a stroke file.
        var n = Int((min(1e12, max(-1e12, d)) * 100).rounded())
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        let whole = n / 100, frac = n % 100
        var p = 1
        while p * 10 <= whole { p *= 10 }
        var w = whole
        while p > 0 { bytes.append(UInt8(48 + w / p)); w %= p; p /= 10 }
        if frac != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(48 + frac / 10))
            if frac % 10 != 0 { bytes.append(UInt8(48 + frac % 10)) }
        }
    }
}
