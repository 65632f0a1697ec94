// Where a string of bytes occurs in a longer one: candidates found sixteen places at a time by
// their first and last byte (SSE2, which every x86-64 processor has), each then compared whole.
// The quotes of codings and grep's plain strings are found with it.
#if arch(x86_64) && canImport(_Builtin_intrinsics)
import _Builtin_intrinsics.intel
#endif
import Foundation

enum ByteSearch {
    /// The starts of the non-overlapping occurrences of `needle` in `hay`, left to right (after
    /// a match the search goes on at its end). None for an empty needle.
    static func matches(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> [Int] {
        var out: [Int] = []
        var from = 0
        while let at = first(of: needle, in: hay, from: from) {
            out.append(at)
            from = at + needle.count
        }
        return out
    }

    /// Where `needle` first occurs in `hay` at or after `from`; nil when it does not, or is empty.
    static func first(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        let m = needle.count
        guard m > 0, from >= 0, from <= hay.count, m <= hay.count - from, let h = hay.baseAddress, let n = needle.baseAddress else { return nil }
        let first = n[0], last = n[m - 1]
        var i = from
        #if arch(x86_64) && canImport(_Builtin_intrinsics)
        if vectors {
            let firsts = _mm_set1_epi8(CChar(bitPattern: first)), lasts = _mm_set1_epi8(CChar(bitPattern: last))
            // Sixteen candidate starts i..<i+16: their first bytes, and the bytes where each would
            // end (i+m-1 on), both inside the hay.
            while i + m - 1 + 16 <= hay.count {
                let a = _mm_loadu_si128(UnsafeRawPointer(h + i).assumingMemoryBound(to: __m128i.self))
                let b = _mm_loadu_si128(UnsafeRawPointer(h + i + m - 1).assumingMemoryBound(to: __m128i.self))
                var candidates = UInt32(UInt16(truncatingIfNeeded: _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, firsts), _mm_cmpeq_epi8(b, lasts)))))
                while candidates != 0 {
                    let at = i + candidates.trailingZeroBitCount
                    if m <= 2 || memcmp(h + at + 1, n + 1, m - 2) == 0 { return at }
                    candidates &= candidates - 1
                }
                i += 16
            }
        }
        #endif
        while i + m <= hay.count {
            if h[i] == first, h[i + m - 1] == last, memcmp(h + i, n, m) == 0 { return i }
            i += 1
        }
        return nil
    }

    /// Whether sixteen places are tried at once where the processor can; a test turns it off to
    /// compare with the byte-at-a-time search.
    nonisolated(unsafe) static var vectors = true
}
