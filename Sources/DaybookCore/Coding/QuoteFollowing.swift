// Keeping a coding's quote on its text when daybook itself edits the body (tag rename).
import Foundation

extension Coding {
    /// The coding after `oldBody` became `newBody` by replacing each of `edits` (scalar ranges of
    /// the old body, in order, not overlapping) with `length` scalars. A quote that covered the
    /// edited text takes the new text, so daybook's own edits never orphan a coding; a quote that
    /// an edit cuts through, or that was orphaned already, stays as it is.
    public func following(_ edits: [(range: Range<Int>, length: Int)], from oldBody: String, to newBody: String) -> Coding {
        guard let quote, let a = QuoteAnchor.locate(quote, occurrence: occurrence ?? 1, in: oldBody) else { return self }
        var start = a.start, end = a.end, touched = false
        for e in edits {
            let delta = e.length - e.range.count
            if e.range.upperBound <= a.start {
                start += delta; end += delta
            } else if e.range.lowerBound >= a.start && e.range.upperBound <= a.end {
                end += delta; touched = true
            } else if e.range.lowerBound < a.end {
                return self
            }
        }
        guard touched else { return self }
        let scalars = Array(newBody.unicodeScalars)
        guard start >= 0, start <= end, end <= scalars.count else { return self }
        var moved = self
        let text = String(String.UnicodeScalarView(scalars[start..<end]))
        moved.quote = text
        let n = QuoteAnchor.occurrence(of: text, startingAt: start, in: newBody) ?? 1
        moved.occurrence = n > 1 ? n : nil
        return moved
    }
}
