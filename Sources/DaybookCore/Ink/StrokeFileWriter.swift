// Writes a stroke file the way SPEC §1.4 shows it: header lines, then one stroke per line.
import Foundation

public enum StrokeFileWriter {
    /// The file's text. The same strokes always give the same bytes, so appending a stroke to a
    /// file daybook wrote changes only the last stroke line (its comma) and adds one line.
    public static func text(_ file: StrokeFile) -> String {
        var out = "{\n"
        out += "  \"format\": \"\(StrokeFile.format)\",\n"
        out += "  \"version\": \(StrokeFile.version),\n"
        if let c = file.canvas {
            out += "  \"canvas\": {\"width\": \(number(c.width)), \"height\": \(number(c.height))"
            if let u = c.unit { out += ", \"unit\": " + quoted(u) }
            out += "},\n"
        }
        out += "  \"channels\": [" + file.channels.map(quoted).joined(separator: ", ") + "],\n"
        for (k, v) in file.extra { out += "  " + quoted(k) + ": " + v.serialized() + ",\n" }
        if file.strokes.isEmpty { return out + "  \"strokes\": []\n}\n" }
        out += "  \"strokes\": [\n"
        for (i, s) in file.strokes.enumerated() {
            out += line(s)
            out += i == file.strokes.count - 1 ? "\n" : ",\n"
        }
        return out + "  ]\n}\n"
    }

    /// One stroke as one line of JSON (without the comma between strokes).
    public static func line(_ s: Stroke) -> String {
        var out = "{\"tool\": " + quoted(s.tool.rawValue)
        if let c = s.color { out += ", \"color\": " + quoted(c) }
        if let w = s.width { out += ", \"width\": " + number(w) }
        if let t = s.start { out += ", \"start\": " + quoted(t) }
        if let c = s.code { out += ", \"code\": " + quoted(c) }
        for (k, v) in s.extra { out += ", " + quoted(k) + ": " + v.serialized() }
        out += ", \"points\": ["
        let pts = s.points, stride = pts.stride
        var row: [String] = []
        row.reserveCapacity(stride)
        for p in 0..<pts.count {
            if p > 0 { out += ", " }
            // A point stops at its last known value; an unknown value before that is null.
            var last = stride - 1
            while last >= 0 && pts[p, last].isNaN { last -= 1 }
            row.removeAll(keepingCapacity: true)
            if last >= 0 { for c in 0...last { row.append(number(pts[p, c])) } }
            out += "[" + row.joined(separator: ", ") + "]"
        }
        return out + "]}"
    }

    /// Compact and deterministic: whole numbers without a fraction, others in the shortest form
    /// that reads back to the same double; unknown (or not finite) as null.
    public static func number(_ d: Double) -> String {
        if !d.isFinite { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    static func quoted(_ s: String) -> String {
        var out = ""
        JSONValue.quote(s, into: &out)
        return out
    }
}
