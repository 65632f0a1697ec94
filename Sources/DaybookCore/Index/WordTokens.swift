// Words as the word index sees them, and a table that numbers them.
import Foundation

/// Words as the index sees them: maximal runs of ASCII letters, digits, `_` and bytes from 0x80,
/// ASCII letters lowercased, and the two characters that PCRE2 matches caselessly with an ASCII
/// letter (U+212A KELVIN SIGN with `k`, U+017F LONG S with `s`) written as that letter. A match of
/// a literal run of word bytes always lies inside one word, so the word contains the run.
enum WordTokens {
    @inline(__always)
    static func isWordByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x5F
    }

    /// Calls `body` with each word of `bytes`, written into `scratch` (at least `bytes.count` long).
    static func forEach(in bytes: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
                        _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var words = Tokenizer(bytes)
        while let length = words.next(into: scratch) { body(UnsafeBufferPointer(start: scratch, count: length)) }
    }

    /// The words of a byte buffer one after the other.
    struct Tokenizer {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Writes the next word into `scratch` (at least `bytes.count` long) and returns its
        /// length; nil at the end.
        mutating func next(into scratch: UnsafeMutablePointer<UInt8>) -> Int? {
            let n = bytes.count
            while i < n, !WordTokens.isWordByte(bytes[i]) { i += 1 }
            if i == n { return nil }
            var length = 0
            while i < n {
                let b = bytes[i]
                if b < 0x80 {
                    guard WordTokens.isWordByte(b) else { break }
                    scratch[length] = b &- 0x41 < 26 ? b | 0x20 : b
                    i += 1
                } else if b == 0xE2, i + 2 < n, bytes[i + 1] == 0x84, bytes[i + 2] == 0xAA {
                    scratch[length] = UInt8(ascii: "k")
                    i += 3
                } else if b == 0xC5, i + 1 < n, bytes[i + 1] == 0xBF {
                    scratch[length] = UInt8(ascii: "s")
                    i += 2
                } else {
                    scratch[length] = b
                    i += 1
                }
                length += 1
            }
            return length
        }
    }
}

/// Distinct words with a number each, in the order first seen (open addressing over one byte arena).
struct WordTable {
    private(set) var arena: [UInt8] = []
    private(set) var starts: [Int] = [0]
    /// Per slot: the word's hash in the high half, its number + 1 in the low half (0: empty).
    private var slots = [UInt64](repeating: 0, count: 1 << 12)

    var count: Int { starts.count - 1 }

    func word(_ id: Int) -> ArraySlice<UInt8> { arena[starts[id]..<starts[id + 1]] }

    static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h: UInt64 = UInt64(word.count) &* 0x9E37_79B9_7F4A_7C15
        var k = 0
        let raw = UnsafeRawBufferPointer(word)
        while k + 8 <= word.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            k += 8
        }
        if k < word.count {
            var tail: UInt64 = 0
            for j in k..<word.count { tail |= UInt64(word[j]) << UInt64(8 * (j - k)) }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
            h ^= h >> 29
        }
        return UInt32(truncatingIfNeeded: h >> 32)
    }

    /// The number of `word`, adding it when new.
    mutating func id(of word: UnsafeBufferPointer<UInt8>) -> Int {
        let h = WordTable.hash(word)
        let mask = slots.count - 1
        var s = Int(h) & mask
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            arena.withUnsafeBufferPointer { arena in
                starts.withUnsafeBufferPointer { starts in
                    while true {
                        let slot = slots[s]
                        if slot == 0 { return nil }
                        if UInt32(truncatingIfNeeded: slot >> 32) == h {
                            let id = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                            let start = starts[id]
                            if starts[id + 1] - start == word.count {
                                var k = 0
                                while k < word.count, arena[start + k] == word[k] { k += 1 }
                                if k == word.count { return id }
                            }
                        }
                        s = (s + 1) & mask
                    }
                }
            }
        }
        if let found { return found }
        let id = count
        arena.append(contentsOf: word)
        starts.append(arena.count)
        slots[s] = UInt64(h) << 32 | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot != 0 {
            var s = Int(slot >> 32) & mask
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = slot
        }
    }
}
