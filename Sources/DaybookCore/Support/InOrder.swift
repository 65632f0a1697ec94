// Work on every core, results in order: what `check` and the streamed exports do for each entry.
import Foundation

public enum InOrder {
    /// Runs `work` for 0..<count on every core, a chunk at a time, and hands each result to
    /// `consume` on the calling thread in index order. Memory holds one chunk's results, so a
    /// stream of 100,000 entries never holds them all.
    public static func forEach<T>(_ count: Int, chunk: Int = 256, _ work: (Int) -> T, consume: (Int, T) throws -> Void) rethrows {
        for first in stride(from: 0, to: count, by: chunk) {
            let n = min(chunk, count - first)
            let results = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
                let base = buffer.baseAddress!
                if sequential || n == 1 {
                    for j in 0..<n { (base + j).initialize(to: work(first + j)) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: n) { j in (base + j).initialize(to: work(first + j)) }
                }
                initialized = n
            }
            for j in 0..<n { try consume(first + j, results[j]) }
        }
    }

    /// One core only: tests compare the two.
    nonisolated(unsafe) static var sequential = false
}
