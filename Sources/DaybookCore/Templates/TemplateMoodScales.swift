// The mood scale a template declares for its entries, which wins over the diary's scale for them.
import Foundation

/// An entry made from a template with its own `mood` scale (emotion: 1–10) is read on that scale,
/// not the diary's (default 1–5). Templates are read once per name; safe to share between threads.
public final class TemplateMoodScales: @unchecked Sendable {
    let library: TemplateLibrary
    private let lock = NSLock()
    private var known: [String: ClosedRange<Int>?] = [:]

    public init(folder: URL?) {
        library = TemplateLibrary(folder: folder)
    }

    /// The scale of the template's `mood` field; nil when it declares none, or does not exist or
    /// parse (then the diary's scale applies, and `check` reports the broken template).
    public func scale(of template: String) -> ClosedRange<Int>? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = known[template] { return cached }
        var range: ClosedRange<Int>?
        if let t = try? library.template(named: template), let mood = t.field("mood"), let lo = mood.min, let hi = mood.max {
            range = Int(lo)...Int(hi)
        }
        known[template] = range
        return range
    }
}
