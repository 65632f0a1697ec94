// Up to 64 bytes of ordinary prose taken at once by `Prose.plain`: their classes found 16 at a
// time with SSE2 (every x86-64 processor has it), words counted from the class masks.
#if arch(x86_64) && canImport(_Builtin_intrinsics)
import _Builtin_intrinsics.intel
#endif

extension Prose {
    /// The classes of 64 bytes, one bit per byte (bit j: byte j).
    struct Lanes: Equatable {
        /// Bytes `ordinaryRun` takes: letters and digits, space, `\n`, `\r`, `#`, `!`, `"`, `'`,
        /// `(`, `)`, `,`, `-`, `.`, `;`, `?`, and bytes beyond ASCII. Any other byte is left to
        /// the byte-at-a-time rule.
        var ordinary: UInt64 = 0
        /// ASCII letters and digits.
        var alnum: UInt64 = 0
        /// Space, `\n` and `\r` (the spaces among the ordinary bytes).
        var space: UInt64 = 0
        /// `\n`, `\r`, `#` and `.`: each is looked at on its own (a line start, a tag or heading,
        /// `www.`).
        var marks: UInt64 = 0
        /// Bytes beyond ASCII.
        var high: UInt64 = 0
    }

    /// Whether `lanes(_:)` is made with SSE2 here; elsewhere `plain` takes a byte or a run of eight
    /// at a time.
    static var hasLanes: Bool {
        #if arch(x86_64) && canImport(_Builtin_intrinsics)
        return true
        #else
        return false
        #endif
    }

    /// The classes of the 64 bytes at `p`, which must all be readable.
    @inline(__always)
    static func lanes(_ p: UnsafePointer<UInt8>) -> Lanes {
        var l = Lanes()
        #if arch(x86_64) && canImport(_Builtin_intrinsics)
        func splat(_ c: UInt8) -> __m128i { _mm_set1_epi8(CChar(bitPattern: c)) }
        /// Bytes from `low` to `low + count - 1`: the distance from `low`, as an unsigned byte, is
        /// below `count` exactly when its minimum with `count - 1` is itself.
        func within(_ v: __m128i, _ low: UInt8, _ count: UInt8) -> __m128i {
            let d = _mm_sub_epi8(v, splat(low))
            return _mm_cmpeq_epi8(_mm_min_epu8(d, splat(count - 1)), d)
        }
        func bits(_ m: __m128i) -> UInt64 { UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(m))) }
        /// The five masks of the 16 bytes at `p`, each in the low 16 bits.
        @inline(__always)
        func sixteen(_ p: UnsafePointer<UInt8>) -> Lanes {
            let v = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
            let alnum = _mm_or_si128(within(_mm_or_si128(v, splat(0x20)), 0x61, 26), within(v, 0x30, 10))
            let lineBreak = _mm_or_si128(_mm_cmpeq_epi8(v, splat(0x0A)), _mm_cmpeq_epi8(v, splat(0x0D)))
            let space = _mm_or_si128(_mm_cmpeq_epi8(v, splat(0x20)), lineBreak)
            let marks = _mm_or_si128(lineBreak, _mm_or_si128(_mm_cmpeq_epi8(v, splat(0x23)), _mm_cmpeq_epi8(v, splat(0x2E))))
            // ! " (0x21–0x22), ' ( ) (0x27–0x29), , - . (0x2C–0x2E), ; and ?.
            let punctuation = _mm_or_si128(_mm_or_si128(within(v, 0x21, 2), within(v, 0x27, 3)),
                                           _mm_or_si128(within(v, 0x2C, 3), _mm_or_si128(_mm_cmpeq_epi8(v, splat(0x3B)), _mm_cmpeq_epi8(v, splat(0x3F)))))
            let high = bits(v) // the top bit of each byte
            return Lanes(ordinary: bits(_mm_or_si128(_mm_or_si128(alnum, space), _mm_or_si128(marks, punctuation))) | high,
                         alnum: bits(alnum), space: bits(space), marks: bits(marks), high: high)
        }
        // Four at constant places, so the masks are put together with fixed shifts.
        let a = sixteen(p), b = sixteen(p + 16), c = sixteen(p + 32), d = sixteen(p + 48)
        l.ordinary = a.ordinary | b.ordinary << 16 | c.ordinary << 32 | d.ordinary << 48
        l.alnum = a.alnum | b.alnum << 16 | c.alnum << 32 | d.alnum << 48
        l.space = a.space | b.space << 16 | c.space << 32 | d.space << 48
        l.marks = a.marks | b.marks << 16 | c.marks << 32 | d.marks << 48
        l.high = a.high | b.high << 16 | c.high << 32 | d.high << 48
        #endif
        return l
    }

    /// The same classes, a byte at a time: what `lanes` must find.
    static func lanesOneByOne(_ p: UnsafePointer<UInt8>) -> Lanes {
        var l = Lanes()
        for j in 0..<64 {
            let c = p[j], bit = UInt64(1) << UInt64(j)
            let alnum = (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A)
            let space = c == 0x20 || c == 0x0A || c == 0x0D
            let mark = c == 0x0A || c == 0x0D || c == 0x23 || c == 0x2E
            if alnum || space || mark || c >= 0x80 || "!\"'(),-.;?".utf8.contains(c) { l.ordinary |= bit }
            if alnum { l.alnum |= bit }
            if space { l.space |= bit }
            if mark { l.marks |= bit }
            if c >= 0x80 { l.high |= bit }
        }
        return l
    }

    /// What `plain` carries from byte to byte.
    struct PlainState {
        var words = 0
        /// 1 when the word under way has had its letter or digit (`wordStep`).
        var counted = 0
        /// All ones at a line's start.
        var afterNewline: UInt8 = 0xFF
        var hashes = false
        var high = false
    }

    /// Takes the ordinary bytes (`Lanes.ordinary`) from byte `i`, up to 64, as `plain` takes them a
    /// byte at a time, and returns how many it took: 0 when byte `i` is another byte (or fewer
    /// than 64 are left), nil when what it took shows the text is not plain (a line starting a
    /// block, a `#` that could open a heading, `www.`).
    ///
    /// Words, from the masks: a space clears `counted`, a letter or digit sets it, any other byte
    /// leaves it. So a letter or digit starts a word exactly when the last letter, digit or space
    /// before it is a space (or, before the first of them, when `counted` came in as 0): the first
    /// such byte after each space, found by letting each space's carry run through the bytes that
    /// are neither (an addition), counted where it lands on a letter or digit.
    static func ordinaryRun(_ b: UnsafeBufferPointer<UInt8>, at i: Int, table: UnsafeBufferPointer<UInt8>,
                            state: inout PlainState) -> Int? {
        guard hasLanes, i + 64 <= b.count else { return 0 }
        let l = lanes(b.baseAddress! + i)
        let taken = (~l.ordinary).trailingZeroBitCount
        guard taken > 0 else { return 0 }
        let inRun: UInt64 = taken == 64 ? ~0 : (1 << UInt64(taken)) - 1
        // Each mark on its own, as the byte rule reads it.
        if state.afterNewline != 0, table[Int(b[i])] & startsBlock != 0 { return nil }
        var marks = l.marks & inRun
        while marks != 0 {
            let at = i + marks.trailingZeroBitCount
            marks &= marks - 1
            switch b[at] {
            case UInt8(ascii: "#"):
                if at + 1 == b.count || table[Int(b[at + 1])] & (space | hash) != 0 { return nil }
                state.hashes = true
            case UInt8(ascii: "."):
                if at >= 3, (b[at - 1] | 0x20) == UInt8(ascii: "w"), (b[at - 2] | 0x20) == UInt8(ascii: "w"),
                   (b[at - 3] | 0x20) == UInt8(ascii: "w") { return nil }
            default: // a line break: the next byte starts a line
                if at + 1 < b.count, table[Int(b[at + 1])] & startsBlock != 0 { return nil }
            }
        }
        let alnum = l.alnum & inRun, spaces = l.space & inRun
        let neither = ~(alnum | spaces) & inRun
        let starts = spaces << 1 | UInt64(state.counted ^ 1) // right after a space, and the run's start
        let landed = (neither &+ (starts & neither)) & ~neither
        state.words += ((starts & ~neither | landed) & alnum).nonzeroBitCount
        let either = alnum | spaces
        if either != 0 { state.counted = Int(alnum >> UInt64(63 - either.leadingZeroBitCount)) & 1 }
        if l.high & inRun != 0 { state.high = true }
        let last = b[i + taken - 1]
        state.afterNewline = last == 0x0A || last == 0x0D ? 0xFF : 0
        return taken
    }
}
