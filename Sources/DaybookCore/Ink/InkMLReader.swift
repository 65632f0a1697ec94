// Reads W3C InkML: contexts, trace formats, brushes and timestamps become daybook strokes.
import Foundation

public struct InkMLReader {
    public let path: String

    public init(path: String) { self.path = path }

    /// A traceFormat channel and how it maps to a daybook channel.
    struct Channel {
        var name: String
        var units: String?
        var min: Double?
        var max: Double?
    }

    /// What a trace is drawn with: InkML's context, reduced to what daybook keeps.
    struct Context {
        var channels: [Channel] = [Channel(name: "X"), Channel(name: "Y")]
        /// How many intermittent channels the trace format declares: values a point may have past its regular ones.
        var intermittent = 0
        /// Whether a <traceFormat> gave the channels (else the default X Y, which tolerates plain extra values).
        var declared = false
        var brush: [String: String] = [:]
        /// The timestamp's own text when it has one, its instant in milliseconds, and the UTC
        /// offset (seconds) a computed start is written in.
        var timeString: String?
        var time: Double?
        var utcOffset = 0
    }

    public func read(_ data: Data) throws -> (file: StrokeFile, warnings: [Diagnostic]) {
        let root = try InkMLDocument.parse(data, path: path)
        var run = Run(reader: self)
        run.index(root)
        try run.walk(root, context: Context())
        var file = StrokeFile(channels: StrokeFile.defaultChannels.filter { run.used.contains($0) })
        file.strokes = run.strokes.map { var s = $0; s.points = s.points.mapped(to: file.channels); return s }
        guard !file.strokes.isEmpty else { throw DaybookError.input("the InkML file has no <trace> with points", at: SourceLocation(path: path)) }
        return (file, run.warnings)
    }

    private struct Run {
        let reader: InkMLReader
        var byID: [String: InkMLElement] = [:]
        var strokes: [Stroke] = []
        var used: Set<String> = []
        var warnings: [Diagnostic] = []
        var warned: Set<String> = []

        init(reader: InkMLReader) { self.reader = reader }

        mutating func index(_ e: InkMLElement) {
            if let id = e.id { byID[id] = e }
            e.children.forEach { index($0) }
        }

        func lookup(_ ref: String?, _ e: InkMLElement) throws -> InkMLElement? {
            guard let ref else { return nil }
            let id = ref.hasPrefix("#") ? String(ref.dropFirst()) : ref
            guard let target = byID[id] else { throw DaybookError.input("<\(e.name)> refers to `\(ref)`, which the file does not define", at: loc(e)) }
            return target
        }

        func loc(_ e: InkMLElement) -> SourceLocation { SourceLocation(path: reader.path, line: e.line) }

        mutating func warn(_ key: String, _ message: String, _ e: InkMLElement) {
            if warned.insert(key).inserted { warnings.append(Diagnostic(.warning, message, at: loc(e))) }
        }

        /// Walks the ink stream in order: contexts change the current context, traceGroups lend
        /// theirs to their traces.
        mutating func walk(_ e: InkMLElement, context: Context) throws {
            var current = context
            for child in e.children {
                switch child.name {
                case "context": current = try resolveContext(child, base: current, depth: 0)
                case "traceGroup":
                    var group = try resolveContext(child, base: current, depth: 0, attributesOnly: true)
                    if let b = try lookup(child.attributes["brushRef"], child) { group.brush = try brush(b, depth: 0) }
                    try walk(child, context: group)
                case "trace": try trace(child, context: current)
                // Drafts before the Recommendation put these straight into <ink>.
                case "traceFormat": (current.channels, current.intermittent) = try traceFormat(child); current.declared = true
                case "brush": current.brush = try brush(child, depth: 0)
                default: break // definitions are looked up by id; annotations and traceViews carry no strokes
                }
            }
        }

        mutating func resolveContext(_ e: InkMLElement, base: Context, depth: Int, attributesOnly: Bool = false) throws -> Context {
            guard depth < 32 else { throw DaybookError.input("contexts refer to each other in a loop", at: loc(e)) }
            var c = base
            if let ref = try lookup(e.attributes["contextRef"], e) { c = try resolveContext(ref, base: Context(), depth: depth + 1) }
            if let f = try lookup(e.attributes["traceFormatRef"], e) { (c.channels, c.intermittent) = try traceFormat(f); c.declared = true }
            if let s = try lookup(e.attributes["inkSourceRef"], e), let f = s.child("traceFormat") { (c.channels, c.intermittent) = try traceFormat(f); c.declared = true }
            if let b = try lookup(e.attributes["brushRef"], e), !attributesOnly { c.brush = try brush(b, depth: 0) }
            if let t = try lookup(e.attributes["timestampRef"], e) { try timestamp(t, into: &c, depth: 0) }
            if attributesOnly { return c }
            for child in e.children {
                switch child.name {
                case "traceFormat": (c.channels, c.intermittent) = try traceFormat(child); c.declared = true
                case "inkSource": if let f = child.child("traceFormat") { (c.channels, c.intermittent) = try traceFormat(f); c.declared = true }
                case "brush": c.brush = try brush(child, depth: 0)
                case "timestamp": try timestamp(child, into: &c, depth: 0)
                default: break
                }
            }
            return c
        }

        /// The regular channels, and how many intermittent ones follow them.
        mutating func traceFormat(_ e: InkMLElement) throws -> ([Channel], Int) {
            if let ref = try lookup(e.attributes["href"], e), ref !== e { return try traceFormat(ref) }
            var out: [Channel] = []
            var intermittent = 0
            for c in e.children {
                if c.name == "intermittentChannels" {
                    warn("intermittent", "intermittent channels are not kept", c)
                    intermittent += c.children("channel").count
                    continue
                }
                guard c.name == "channel" else { continue }
                guard let name = c.attributes["name"] else { throw DaybookError.input("a <channel> needs a name", at: loc(c)) }
                out.append(Channel(name: name, units: c.attributes["units"], min: c.attributes["min"].flatMap(Double.init),
                                   max: c.attributes["max"].flatMap(Double.init)))
            }
            for c in out where InkMLReader.mapping[c.name] == nil {
                warn("channel " + c.name, "channel `\(c.name)` is ignored (daybook keeps X, Y, T, F, OA, OE, TX and TY)", e)
            }
            guard out.contains(where: { $0.name == "X" }), out.contains(where: { $0.name == "Y" }) else {
                throw DaybookError.input("a <traceFormat> needs channels X and Y", at: loc(e))
            }
            return (out, intermittent)
        }

        mutating func brush(_ e: InkMLElement, depth: Int) throws -> [String: String] {
            guard depth < 32 else { throw DaybookError.input("brushes refer to each other in a loop", at: loc(e)) }
            var props: [String: String] = [:]
            if let ref = try lookup(e.attributes["brushRef"], e) { props = try brush(ref, depth: depth + 1) }
            for p in e.children("brushProperty") {
                guard let name = p.attributes["name"], let value = p.attributes["value"] else { continue }
                props[name.lowercased()] = value
            }
            return props
        }

        mutating func timestamp(_ e: InkMLElement, into c: inout Context, depth: Int) throws {
            guard depth < 32 else { throw DaybookError.input("timestamps refer to each other in a loop", at: loc(e)) }
            c.timeString = nil
            c.time = nil
            if let ref = try lookup(e.attributes["timestampRef"], e) { try timestamp(ref, into: &c, depth: depth + 1) }
            if let s = e.attributes["timeString"] {
                guard let d = InkMLReader.instant(s) else { throw DaybookError.input("timeString `\(s)` is not an ISO 8601 date-time", at: loc(e)) }
                c.timeString = s
                c.time = d
                c.utcOffset = InkMLReader.utcOffset(s)
            }
            if let t = e.attributes["time"] {
                guard let v = Double(t) else { throw DaybookError.input("time `\(t)` is not milliseconds", at: loc(e)) }
                c.time = v
                c.timeString = nil
            }
            if let off = e.attributes["timeOffset"].flatMap(Double.init), off != 0, let base = c.time {
                c.time = base + off
                c.timeString = nil
            }
        }

        mutating func trace(_ e: InkMLElement, context: Context) throws {
            var context = context
            if let ref = try lookup(e.attributes["contextRef"], e) { context = try resolveContext(ref, base: Context(), depth: 0) }
            if let b = try lookup(e.attributes["brushRef"], e) { context.brush = try brush(b, depth: 0) }
            let rows: [[Double]]
            var undeclared = 0
            do {
                rows = try InkMLTrace.decode(e.text, regular: context.channels.count, intermittent: context.intermittent,
                                             declared: context.declared, undeclared: &undeclared)
            } catch let p as InkMLTrace.Problem {
                throw DaybookError.input("<trace> point \(p.point + 1)\(p.offset.map { ", character \($0 + 1) of its text" } ?? ""): \(p.message)", at: loc(e))
            }
            if undeclared > 0 { warn("undeclared", "values past X and Y with no <traceFormat> declaring their channels are left out", e) }
            var (stroke, dropped) = InkMLReader.stroke(rows, channels: context.channels)
            if dropped > 0 { warn("dropped \(e.line)", "\(dropped) point\(dropped == 1 ? "" : "s") without a known X and Y left out", e) }
            guard stroke.points.count > 0 else { warn("empty \(e.line)", "a <trace> without points is skipped", e); return }
            try apply(context.brush, to: &stroke, e)
            if let offset = e.attributes["timeOffset"].flatMap(Double.init), offset != 0, let base = context.time {
                stroke.start = InkMLReader.isoString(base + offset, utcOffset: context.utcOffset)
            } else {
                stroke.start = context.timeString ?? context.time.map { InkMLReader.isoString($0, utcOffset: context.utcOffset) }
            }
            used.formUnion(stroke.points.channels)
            strokes.append(stroke)
        }

        mutating func apply(_ brush: [String: String], to s: inout Stroke, _ e: InkMLElement) throws {
            if let t = brush["tool"] {
                if let tool = Stroke.Tool(rawValue: t) { s.tool = tool } else { warn("tool " + t, "brush tool `\(t)` is not one daybook knows; drawn as a pen", e) }
            } else if ["maskpen", "mergepen"].contains(brush["rasterop"]?.lowercased() ?? "") {
                s.tool = .highlighter
            }
            if let c = brush["color"] {
                var color = c.hasPrefix("#") ? c : "#" + c
                if let t = brush["transparency"].flatMap(Int.init), (0...255).contains(t), color.count == 7 {
                    color += String(format: "%02x", 255 - t)
                }
                if InkColor(color) != nil { s.color = color } else { warn("color " + c, "brush colour `\(c)` is not #RRGGBB; the default ink colour is used", e) }
            }
            if let w = brush["width"] {
                if let d = Double(w), d > 0, d.isFinite { s.width = d } else { warn("width " + w, "brush width `\(w)` is not a positive number; ignored", e) }
            }
            if let code = brush["code"] {
                let c = Tag.normalize(code)
                if Tag.isValid(c) { s.code = c } else { throw DaybookError.input("brush code `\(code)` is not a code name", at: loc(e)) }
            }
        }
    }
}
