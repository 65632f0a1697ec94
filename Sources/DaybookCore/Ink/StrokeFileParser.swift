// Reads and validates a stroke file: every problem names the file, line, column and JSON path.
import Foundation

public struct StrokeFileParser {
    /// The file as messages name it.
    public let path: String
    /// After this many problems the rest of the file is only checked for syntax.
    public var maxProblems = 20
    /// Points are skipped unread (so their problems go unnoticed): for readers that need only
    /// the strokes' codes, such as every command that reads entries.
    public var skipPoints = false

    public init(path: String, skipPoints: Bool = false) {
        self.path = path
        self.skipPoints = skipPoints
    }

    public struct Outcome {
        /// The file, when it has no problems.
        public var file: StrokeFile?
        public var problems: [DaybookError]
    }

    public func parse(_ data: Data) -> Outcome {
        var bytes = [UInt8]()
        bytes.reserveCapacity(data.count + 1)
        bytes.append(contentsOf: data)
        bytes.append(0)
        return parse(bytes: bytes)
    }

    /// Parses bytes that end in a 0 byte (as `StrokeFile.read` gives them) without copying them.
    public func parse(bytes: [UInt8]) -> Outcome {
        var run = Run(parser: self, scanner: JSONScanner(bytes))
        do {
            let file = try run.root()
            return Outcome(file: run.problems.isEmpty ? file : nil, problems: run.problems)
        } catch let e as JSONScanner.SyntaxError {
            return Outcome(file: nil, problems: run.problems + [.input(e.message, at: SourceLocation(path: path, line: e.line, column: e.column))])
        } catch {
            return Outcome(file: nil, problems: run.problems + [.input("\(error)", at: SourceLocation(path: path))])
        }
    }

    /// One reading of one file.
    private struct Run {
        let parser: StrokeFileParser
        var scanner: JSONScanner
        var problems: [DaybookError] = []

        init(parser: StrokeFileParser, scanner: JSONScanner) {
            self.parser = parser
            self.scanner = scanner
        }

        mutating func problem(_ jsonPath: String, _ message: String, at pos: (line: Int, column: Int)) {
            guard problems.count < parser.maxProblems else { return }
            let prefix = jsonPath.isEmpty ? "" : "`\(jsonPath)`: "
            problems.append(.input(prefix + message, at: SourceLocation(path: parser.path, line: pos.line, column: pos.column)))
        }

        mutating func root() throws -> StrokeFile {
            var file = StrokeFile()
            let start = scanner.position
            guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error("a stroke file is a JSON object (`{\"format\": \"daybook-strokes\", …}`)") }
            try scanner.expect("{")
            var seen = Set<String>()
            var channelsSeen = false
            var strokesAt: JSONScanner.Mark?
            if !scanner.take("}") {
                repeat {
                    let keyPos = scanner.position
                    let key = try scanner.string()
                    try scanner.expect(":")
                    if !seen.insert(key).inserted { problem(key, "the key appears twice", at: keyPos) }
                    let pos = scanner.position
                    switch key {
                    case "format":
                        let v = try scanner.value()
                        if v != .string(StrokeFile.format) { problem(key, "must be \"\(StrokeFile.format)\" (got \(v.serialized()))", at: pos) }
                    case "version":
                        let v = try scanner.value()
                        if v != .int(StrokeFile.version) {
                            problem(key, "version \(v.serialized()) is not one this daybook reads (it reads version \(StrokeFile.version))", at: pos)
                        }
                    case "canvas": file.canvas = try canvas()
                    case "channels":
                        file.channels = try channels()
                        channelsSeen = true
                    case "strokes":
                        // Points need the channels; a file that names them later is read again from here.
                        if channelsSeen { file.strokes = try strokes(channels: file.channels) } else {
                            strokesAt = scanner.mark
                            try scanner.skip()
                        }
                    default: file.extra.append((key, try scanner.value()))
                    }
                } while try scanner.more(close: "}")
            }
            guard scanner.atEnd || scanner.peek() == 0 else { throw scanner.error("something follows the end of the stroke file's object") }
            for required in ["format", "version"] where !seen.contains(required) {
                problem("", "the stroke file has no `\(required)` (it starts with `{\"format\": \"daybook-strokes\", \"version\": 1`)", at: start)
            }
            if let strokesAt {
                scanner.reset(to: strokesAt)
                file.strokes = try strokes(channels: file.channels)
            } else if !seen.contains("strokes") {
                problem("", "the stroke file has no `strokes` list", at: start)
            }
            return file
        }

        static func number(_ v: JSONValue) -> Double? {
            switch v {
            case let .int(i): return Double(i)
            case let .double(d): return d
            default: return nil
            }
        }

        mutating func canvas() throws -> StrokeFile.Canvas? {
            let pos = scanner.position
            guard case let .object(pairs) = try scanner.value() else { problem("canvas", "must be an object with width and height", at: pos); return nil }
            var c = StrokeFile.Canvas(width: 0, height: 0)
            for (k, v) in pairs {
                switch k {
                case "width", "height":
                    guard let d = Run.number(v), d > 0 else {
                        problem("canvas.\(k)", "must be a number above 0 (got \(v.serialized()))", at: pos); continue
                    }
                    if k == "width" { c.width = d } else { c.height = d }
                case "unit":
                    guard case let .string(u) = v else { problem("canvas.unit", "must be text such as \"pt\"", at: pos); continue }
                    c.unit = u
                default: problem("canvas.\(k)", "unknown key (known: width, height, unit)", at: pos)
                }
            }
            if c.width == 0 || c.height == 0 { problem("canvas", "needs width and height", at: pos) }
            return c
        }

        mutating func channels() throws -> [String] {
            let pos = scanner.position
            guard case let .array(items) = try scanner.value() else { problem("channels", "must be a list of channel names", at: pos); return StrokeFile.defaultChannels }
            var names: [String] = []
            for (i, item) in items.enumerated() {
                guard case let .string(n) = item, !n.isEmpty else { problem("channels[\(i)]", "a channel name must be text", at: pos); continue }
                if names.contains(n) { problem("channels[\(i)]", "`\(n)` is named twice", at: pos) }
                names.append(n)
            }
            for required in ["x", "y"] where !names.contains(required) {
                problem("channels", "has no `\(required)` (every point needs x and y)", at: pos)
            }
            return names
        }

        mutating func strokes(channels: [String]) throws -> [Stroke] {
            let pos = scanner.position
            guard scanner.take("[") else {
                problem("strokes", "must be a list of strokes", at: pos)
                _ = try scanner.value()
                return []
            }
            var out: [Stroke] = []
            if scanner.take("]") { return out }
            repeat {
                if let s = try stroke(out.count, channels: channels) { out.append(s) }
                else { out.append(Stroke(points: PointList(channels: channels))) }
            } while try scanner.more(close: "]")
            return out
        }

        mutating func stroke(_ n: Int, channels: [String]) throws -> Stroke? {
            let here = "strokes[\(n)]"
            let pos = scanner.position
            guard scanner.take("{") else { problem(here, "a stroke must be an object with `tool` and `points`", at: pos); _ = try scanner.value(); return nil }
            var s = Stroke(points: PointList(channels: channels))
            var seen = Set<String>()
            if !scanner.take("}") {
                repeat {
                    let keyPos = scanner.position
                    let key = try scanner.string()
                    try scanner.expect(":")
                    if !seen.insert(key).inserted { problem("\(here).\(key)", "the key appears twice", at: keyPos) }
                    let vpos = scanner.position
                    if key == "points" {
                        if parser.skipPoints { try scanner.skip() } else { s.points = try points(here, channels: channels) }
                        continue
                    }
                    let v = try scanner.value()
                    switch key {
                    case "tool":
                        guard case let .string(t) = v, let tool = Stroke.Tool(rawValue: t) else {
                            problem("\(here).tool", "unknown tool \(v.serialized()) (known: pen, pencil, marker, highlighter)", at: vpos); continue
                        }
                        s.tool = tool
                    case "color":
                        guard case let .string(c) = v, InkColor(c) != nil else {
                            problem("\(here).color", "\(v.serialized()) is not a colour: write #RRGGBB or #RRGGBBAA", at: vpos); continue
                        }
                        s.color = c
                    case "width":
                        guard let d = Run.number(v), d > 0 else {
                            problem("\(here).width", "must be a number above 0 (got \(v.serialized()))", at: vpos); continue
                        }
                        s.width = d
                    case "start":
                        guard case let .string(t) = v, InkMLReader.instant(t) != nil else {
                            problem("\(here).start", "must be an ISO 8601 date-time with offset, such as 2026-11-21T22:41:07.250+01:00 (got \(v.serialized()))", at: vpos); continue
                        }
                        s.start = t
                    case "code":
                        guard case let .string(c) = v, Tag.isValid(Tag.normalize(c)) else {
                            problem("\(here).code", "\(v.serialized()) is not a code name: use letters, digits, _, - and /", at: vpos); continue
                        }
                        s.code = Tag.normalize(c)
                    default: s.extra.append((key, v))
                    }
                } while try scanner.more(close: "}")
            }
            if !seen.contains("tool") { problem(here, "has no `tool` (pen, pencil, marker or highlighter)", at: pos) }
            if !seen.contains("points") { problem(here, "has no `points`", at: pos) }
            return s
        }

        /// The points, straight into a flat list of doubles.
        mutating func points(_ here: String, channels: [String]) throws -> PointList {
            var list = PointList(channels: channels)
            let stride = channels.count
            let pos = scanner.position
            guard scanner.take("[") else { problem("\(here).points", "must be a list of points such as [[12.5, 40], [13, 41.5]]", at: pos); _ = try scanner.value(); return list }
            if scanner.take("]") { problem("\(here).points", "a stroke needs at least one point", at: pos); return list }
            // Angles written with three decimals may round past 2π or π/2 (1.571): allow that much.
            let limits: [(String, ClosedRange<Double>, String)] = [
                ("force", 0.0...1.0, "0…1"), ("azimuth", -0.001...(2 * Double.pi + 0.001), "0…2π"),
                ("altitude", -0.001...(Double.pi / 2 + 0.001), "0…π/2"),
            ]
            var ranges: [(Int, ClosedRange<Double>, String)] = []
            for (name, r, text) in limits {
                if let i = channels.firstIndex(of: name) { ranges.append((i, r, "\(name) must be within \(text)")) }
            }
            let xy = [channels.firstIndex(of: "x"), channels.firstIndex(of: "y")].compactMap { $0 }
            var p = 0
            repeat {
                let ppos = scanner.position
                // The path is only spelled out when there is a problem: a million strings cost.
                var at: String { "\(here).points[\(p)]" }
                let problemsBefore = problems.count
                guard scanner.take("[") else { problem(at, "a point must be a list of numbers, one per channel", at: ppos); _ = try scanner.value(); p += 1; continue }
                var k = 0
                if !scanner.take("]") {
                    repeat {
                        let vpos = scanner.position
                        var v = Double.nan
                        if scanner.peek() == UInt8(ascii: "n") { try scanner.word("null") } else {
                            guard scanner.atNumber() else {
                                problem(at, "a point holds only numbers (or null for unknown)", at: vpos)
                                _ = try scanner.value()
                                if k < stride { list.values.append(.nan) }
                                k += 1
                                continue
                            }
                            do { v = try scanner.number() } catch let e as JSONScanner.SyntaxError where e.message.contains("JSON can hold") || e.message.contains("too large") {
                                problem(at, e.message.replacingOccurrences(of: "the number", with: "the value"), at: vpos)
                                if k < stride { list.values.append(.nan) }
                                k += 1
                                continue
                            }
                        }
                        if k < stride {
                            if !v.isNaN, let r = ranges.first(where: { $0.0 == k }), !r.1.contains(v) {
                                problem(at, "\(r.2) (got \(JSONValue.format(v)))", at: vpos)
                            }
                            list.values.append(v)
                        }
                        k += 1
                    } while try scanner.more(close: "]")
                }
                if k > stride {
                    problem(at, "has \(k) values but the file has \(stride) channels (\(channels.joined(separator: ", ")))", at: ppos)
                } else {
                    if k < stride { list.values.append(contentsOf: repeatElement(.nan, count: stride - k)) }
                    let row = list.values.count - stride
                    if problems.count == problemsBefore, let missing = xy.first(where: { list.values[row + $0].isNaN }) {
                        problem(at, "a point needs x and y (\(channels[missing]) is missing)", at: ppos)
                    }
                }
                p += 1
            } while try scanner.more(close: "]")
            return list
        }
    }
}
