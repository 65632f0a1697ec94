// An average with its minimum and maximum, built one value at a time.
import Foundation

/// Built one value at a time, so a pass over many entries keeps only four numbers.
public struct Mean: Sendable, Equatable {
    public private(set) var count = 0
    public private(set) var sum = 0.0
    public private(set) var min: Double?
    public private(set) var max: Double?

    public init() {}

    /// A mean as it was stored (`FolderTallies`).
    init(count: Int, sum: Double, min: Double?, max: Double?) {
        self.count = count
        self.sum = sum
        self.min = min
        self.max = max
    }

    public mutating func add(_ v: Double) {
        count += 1
        sum += v
        min = Swift.min(min ?? v, v)
        max = Swift.max(max ?? v, v)
    }

    public var value: Double? { count == 0 ? nil : sum / Double(count) }

    /// The values of both.
    public mutating func add(_ other: Mean) {
        count += other.count
        sum += other.sum
        if let m = other.min { min = Swift.min(min ?? m, m) }
        if let m = other.max { max = Swift.max(max ?? m, m) }
    }

    /// The values put through `f`, which must be `a·v + b` with `a` > 0 (a change of scale).
    public func mapped(_ f: (Double) -> Double) -> Mean {
        guard count > 0 else { return self }
        let b = f(0), a = f(1) - b
        var out = self
        out.sum = a * sum + b * Double(count)
        out.min = min.map(f)
        out.max = max.map(f)
        return out
    }
}
