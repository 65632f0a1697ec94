// One pen stroke: its tool, colour, width, start time, optional code, and its points.
import Foundation

public struct Stroke: Equatable, Sendable {
    public enum Tool: String, CaseIterable, Sendable {
        case pen, pencil, marker, highlighter
    }

    public var tool: Tool
    /// `#RRGGBB` or `#RRGGBBAA`, as written; nil when the file gives none.
    public var color: String?
    /// Nominal width in canvas units; nil when the file gives none.
    public var width: Double?
    /// ISO 8601 date-time the point times count from, as written.
    public var start: String?
    /// A code makes the stroke a coding of the entry.
    public var code: String?
    /// Keys daybook does not know, kept so a rewrite does not lose them.
    public var extra: [(String, JSONValue)]
    public var points: PointList

    public init(tool: Tool = .pen, color: String? = nil, width: Double? = nil, start: String? = nil, code: String? = nil,
                extra: [(String, JSONValue)] = [], points: PointList) {
        self.tool = tool
        self.color = color
        self.width = width
        self.start = start
        self.code = code
        self.extra = extra
        self.points = points
    }

    public static func == (a: Stroke, b: Stroke) -> Bool {
        a.tool == b.tool && a.color == b.color && a.width == b.width && a.start == b.start && a.code == b.code
            && JSONValue.object(a.extra) == JSONValue.object(b.extra) && a.points == b.points
    }

    /// Milliseconds from the first to the last known `t`, 0 without times.
    public var duration: Double {
        guard let t = points.channelIndex("t") else { return 0 }
        var first: Double?, last: Double?
        for i in 0..<points.count {
            let v = points[i, t]
            if v.isNaN { continue }
            if first == nil { first = v }
            last = v
        }
        guard let first, let last else { return 0 }
        return max(0, last - first)
    }
}

/// Points stored flat, one row of `channels.count` values per point, so a million points cost
/// one array instead of a million. NaN marks an unknown value (a point that stopped early, or
/// `null`); stroke files cannot hold NaN themselves, so the two never mix.
public struct PointList: Equatable, Sendable {
    public var channels: [String]
    public var values: [Double]

    public init(channels: [String], values: [Double] = []) {
        self.channels = channels
        self.values = values
    }

    public var stride: Int { channels.count }
    public var count: Int { stride == 0 ? 0 : values.count / stride }

    public subscript(point: Int, channel: Int) -> Double { values[point * stride + channel] }

    public func channelIndex(_ name: String) -> Int? { channels.firstIndex(of: name) }

    /// Appends a point; missing trailing values are unknown.
    public mutating func append(_ row: [Double]) {
        values.append(contentsOf: row.prefix(stride))
        if row.count < stride { values.append(contentsOf: repeatElement(Double.nan, count: stride - row.count)) }
    }

    /// The same points with columns for `target` channels (unknown where this list has none).
    public func mapped(to target: [String]) -> PointList {
        if target == channels { return self }
        let sources = target.map { channelIndex($0) }
        var out = PointList(channels: target)
        out.values.reserveCapacity(count * target.count)
        for p in 0..<count {
            for s in sources { out.values.append(s.map { self[p, $0] } ?? .nan) }
        }
        return out
    }

    /// NaN equals NaN here: an unknown value is the same unknown on both sides.
    public static func == (a: PointList, b: PointList) -> Bool {
        guard a.channels == b.channels, a.values.count == b.values.count else { return false }
        for i in a.values.indices where a.values[i] != b.values[i] && !(a.values[i].isNaN && b.values[i].isNaN) { return false }
        return true
    }
}
