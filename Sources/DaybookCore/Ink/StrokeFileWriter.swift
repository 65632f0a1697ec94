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
        // Points are written as bytes: a million of them through String concatenation is slow.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.points.values.count * 9)
        let pts = s.points, stride = pts.stride
        for p in 0..<pts.count {
            if p > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            // A point stops at its last known value; an unknown value before that is null.
            var last = stride - 1
            while last >= 0 && pts[p, last].isNaN { last -= 1 }
            bytes.append(UInt8(ascii: "["))
            if last >= 0 {
                for c in 0...last {
                    if c > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
                    append(pts[p, c], to: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "]"))
        }
        return out + String(decoding: bytes, as: UTF8.self) + "]}"
    }

    static func append(_ d: Double, to bytes: inout [UInt8]) {
        guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { bytes.append(contentsOf: number(d).utf8); return }
        var n = Int(d)
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        var p = 1
        while p * 10 <= n { p *= 10 }
        while p > 0 { bytes.append(UInt8(48 + n / p)); n %= p; p /= 10 }
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
