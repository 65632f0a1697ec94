// Writes strokes as W3C InkML that InkMLReader (and other InkML readers) read back.
import Foundation

public enum InkMLWriter {
    /// daybook channel → InkML channel attributes. Angles are written in radians and force in
    /// 0…1 with `max="1"`, so reading back gives the same numbers.
    static let channels: [String: String] = [
        "x": #"name="X" type="decimal""#, "y": #"name="Y" type="decimal""#, "t": #"name="T" type="decimal" units="ms""#,
        "force": #"name="F" type="decimal" min="0" max="1""#, "azimuth": #"name="OA" type="decimal" units="rad""#,
        "altitude": #"name="OE" type="decimal" units="rad""#,
    ]

    /// The InkML text. Each stroke's tool, colour, width and code become a brush; its start a
    /// timestamp in a context of its own. Channels InkML has no name for, and unknown keys, are left out.
    public static func text(_ file: StrokeFile) -> String {
        let kept = file.channels.filter { channels[$0] != nil }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ink xmlns=\"http://www.w3.org/2003/InkML\">\n <definitions>\n"
        out += "  <context xml:id=\"ctx\">\n   <inkSource xml:id=\"src\">\n    <traceFormat>\n"
        for c in kept { out += "     <channel \(channels[c] ?? "")/>\n" }
        out += "    </traceFormat>\n   </inkSource>\n  </context>\n"
        var brushes: [String] = []
        var brushOf: [Int] = []
        for s in file.strokes {
            var props = "<brushProperty name=\"tool\" value=\"\(s.tool.rawValue)\"/>"
            if let c = s.color { props += "<brushProperty name=\"color\" value=\"\(escape(c))\"/>" }
            if let w = s.width { props += "<brushProperty name=\"width\" value=\"\(StrokeFileWriter.number(w))\"/>" }
            if let c = s.code { props += "<brushProperty name=\"code\" value=\"\(escape(c))\"/>" }
            if let i = brushes.firstIndex(of: props) { brushOf.append(i) } else { brushOf.append(brushes.count); brushes.append(props) }
        }
        for (i, b) in brushes.enumerated() { out += "  <brush xml:id=\"b\(i)\">\(b)</brush>\n" }
        for (i, s) in file.strokes.enumerated() {
            guard let start = s.start else { continue }
            out += "  <context xml:id=\"ctx\(i)\" contextRef=\"#ctx\"><timestamp xml:id=\"ts\(i)\" timeString=\"\(escape(start))\"/></context>\n"
        }
        out += " </definitions>\n"
        for (i, s) in file.strokes.enumerated() {
            let pts = s.points.mapped(to: kept)
            out += " <trace contextRef=\"#ctx\(s.start == nil ? "" : String(i))\" brushRef=\"#b\(brushOf[i])\">"
            for p in 0..<pts.count {
                if p > 0 { out += ", " }
                out += (0..<pts.stride).map { c -> String in
                    let v = pts[p, c]
                    return v.isNaN ? "?" : StrokeFileWriter.number(v)
                }.joined(separator: " ")
            }
            out += "</trace>\n"
        }
        return out + "</ink>\n"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
