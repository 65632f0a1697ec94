// An average with its minimum and maximum, built one value at a time.
import Foundation

/// Built one value at a time, so a pass over many entries keeps only four numbers.
public struct Mean: Sendable {
    public private(set) var count = 0
    public private(set) var sum = 0.0
    public private(set) var min: Double?
    public private(set) var max: Double?

    public init() {}

    public mutating func add(_ v: Double) {
        count += 1
        sum += v
        min = Swift.min(min ?? v, v)
        max = Swift.max(max ?? v, v)
    }

    public var value: Double? { count == 0 ? nil : sum / Double(count) }
}
