// Things a thread uses alone and then hands on (a compiled pattern, a read buffer), kept for the
// next thread that needs one instead of made again for every piece of work.
import Foundation

final class ReusePool<T: AnyObject>: @unchecked Sendable {
    private let lock = NSCondition()
    private var free: [T]
    private let make: () -> T?

    /// `first` is handed out first; `make` makes more while every one is taken (nil: it could not,
    /// and a thread waits for one to be given back).
    init(_ first: T? = nil, make: @escaping () -> T?) {
        free = first.map { [$0] } ?? []
        self.make = make
    }

    /// One that no other thread holds.
    func take() -> T {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let t = free.popLast() { return t }
            lock.unlock()
            let made = make()
            lock.lock()
            if let made { return made }
            lock.wait()
        }
    }

    func give(_ t: T) {
        lock.lock()
        free.append(t)
        lock.signal()
        lock.unlock()
    }

    /// `body` with one taken for it.
    func with<R>(_ body: (T) throws -> R) rethrows -> R {
        let t = take()
        defer { give(t) }
        return try body(t)
    }
}
