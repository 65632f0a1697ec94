// Giving freed memory back to the system after a change, so a server's memory stays flat over hours of saves.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum Heap {
    /// glibc's malloc_trim, looked up at run time: Swift's Glibc module does not declare it, and
    /// another C library may not have it (then nothing is trimmed).
    private static let trimFunction: (@convention(c) (Int) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// A commit over an index of 100,000 entries frees megabytes that glibc keeps in its heaps:
    /// 20 stroke saves grew the server by 86 MB, trimmed after each change it stays near 110 MB.
    /// A trim costs tens of milliseconds on a large heap, small beside a commit, so only changes
    /// pay it; reading pages allocates little and keeps no more.
    static func trim() { _ = trimFunction?(0) }
}
