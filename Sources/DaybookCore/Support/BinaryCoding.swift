// A small binary encoding (varints and length-prefixed UTF-8) for the cache: fast to read back.
import Foundation

struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func uint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func int(_ v: Int) { uint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63)))) }
    mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            uint(UInt64(buf.count))
            bytes.append(contentsOf: buf)
        }
    }

    /// What `fill` writes, preceded by its length as `uint` writes it: written in place and the
    /// length put in front afterwards, so no buffer is made for it (a cache record has six).
    mutating func lengthPrefixed(_ fill: (inout BinaryWriter) -> Void) {
        let start = bytes.count
        fill(&self)
        var n = UInt64(bytes.count - start)
        var prefix: (UInt64, UInt64) = (0, 0) // room for the ten bytes a length can take
        let count = withUnsafeMutableBytes(of: &prefix) { raw -> Int in
            var k = 0
            while n >= 0x80 { raw[k] = UInt8(n & 0x7F) | 0x80; n >>= 7; k += 1 }
            raw[k] = UInt8(n)
            return k + 1
        }
        withUnsafeBytes(of: &prefix) { raw in bytes.insert(contentsOf: raw.prefix(count), at: start) }
    }

    mutating func optional<T>(_ v: T?, _ write: (inout BinaryWriter, T) -> Void) {
        if let v { bytes.append(1); write(&self, v) } else { bytes.append(0) }
    }

    mutating func array<T>(_ items: [T], _ write: (inout BinaryWriter, T) -> Void) {
        uint(UInt64(items.count))
        for item in items { write(&self, item) }
    }

    mutating func double(_ d: Double) { uint(d.bitPattern) }

    /// Eight bytes, little-endian: a checksum at a known place.
    mutating func fixed64(_ v: UInt64) {
        for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }

    mutating func json(_ v: JSONValue) {
        switch v {
        case .null: bytes.append(0)
        case let .bool(b): bytes.append(1); bool(b)
        case let .int(i): bytes.append(2); int(i)
        case let .double(d): bytes.append(3); double(d)
        case let .string(s): bytes.append(4); string(s)
        case let .array(a): bytes.append(5); array(a) { $0.json($1) }
        case let .object(o): bytes.append(6); array(o) { $0.string($1.0); $0.json($1.1) }
        }
    }
}

/// Reads what BinaryWriter wrote; any inconsistency throws, so a damaged cache is rebuilt.
/// It reads bytes it does not own (an array's storage, a mapped file): whoever makes a reader
/// keeps them alive while it is used.
struct BinaryReader {
    struct Damaged: Error {}
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var atEnd: Bool { offset >= bytes.count }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw Damaged() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw Damaged() }
        }
    }

    mutating func int() throws -> Int {
        let u = try uint()
        return Int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))))
    }

    mutating func bool() throws -> Bool { try byte() != 0 }

    mutating func string() throws -> String {
        let n = Int(try uint())
        guard n >= 0, offset + n <= bytes.count else { throw Damaged() }
        defer { offset += n }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + n)]), as: UTF8.self)
    }

    /// Where a length-prefixed run of bytes (a string, a payload) lies, skipping over it.
    mutating func span() throws -> Range<Int> {
        let n = Int(try uint())
        guard n >= 0, n <= bytes.count - offset else { throw Damaged() }
        defer { offset += n }
        return offset..<(offset + n)
    }

    mutating func fixed64() throws -> UInt64 {
        guard offset + 8 <= bytes.count else { throw Damaged() }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
        offset += 8
        return v
    }

    mutating func optional<T>(_ read: (inout BinaryReader) throws -> T) throws -> T? {
        try byte() == 1 ? try read(&self) : nil
    }

    mutating func array<T>(_ read: (inout BinaryReader) throws -> T) throws -> [T] {
        let n = Int(try uint())
        guard n <= bytes.count - offset else { throw Damaged() }
        var out: [T] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try read(&self)) }
        return out
    }

    mutating func double() throws -> Double { Double(bitPattern: try uint()) }

    mutating func json() throws -> JSONValue {
        switch try byte() {
        case 0: return .null
        case 1: return .bool(try bool())
        case 2: return .int(try int())
        case 3: return .double(try double())
        case 4: return .string(try string())
        case 5: return .array(try array { try $0.json() })
        case 6: return .object(try array { (try $0.string(), try $0.json()) })
        default: throw Damaged()
        }
    }
}

/// A 64-bit checksum over runs of bytes added one after the other (not a cryptographic hash: it
/// notices bytes that were cut, overwritten or garbled). The caches' files use `WideChecksum64`;
/// this one stays for short runs and for values that must not change (a reminder's name).
struct Checksum64 {
    private(set) var value: UInt64 = 0x243F_6A88_85A3_08D3

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { add($0) }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var h = value
        let raw = UnsafeRawBufferPointer(bytes)
        let words = raw.count / 8
        for k in 0..<words {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
            h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        for k in (8 * words)..<raw.count {
            h = (h ^ UInt64(raw[k])) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        value = (h ^ UInt64(raw.count)) &* 0xBF58_476D_1CE4_E5B9
    }
}

/// The checksum of the caches' large files (`entries.bin` and its journal, `names.bin`,
/// `tallies.bin`, the word index): `Checksum64`'s step in four lanes over 32 bytes at a time, so
/// that no multiplication waits for the one before it, the lanes folded into one at the end.
/// 17 MB take about a quarter of `Checksum64`'s time. Not cryptographic: it tells a torn or
/// damaged file, as `Checksum64` does. `Checksum64` stays for short keys (a reminder's name).
struct WideChecksum64 {
    private(set) var value: UInt64 = 0x243F_6A88_85A3_08D3

    @inline(__always)
    private static func step(_ h: inout UInt64, _ w: UInt64) {
        h = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { add($0) }
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(bytes)
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        // Distinct starts, so that words that trade lanes change the sum.
        var a = value, b = value ^ 0x4528_21E6_38D0_1377, c = value ^ 0xBE54_66CF_34E9_0C6C, d = value ^ 0xC0AC_29B7_C97C_50DD
        var at = 0
        while at + 32 <= raw.count {
            WideChecksum64.step(&a, word(at))
            WideChecksum64.step(&b, word(at + 8))
            WideChecksum64.step(&c, word(at + 16))
            WideChecksum64.step(&d, word(at + 24))
            at += 32
        }
        var h = a
        WideChecksum64.step(&h, b)
        WideChecksum64.step(&h, c)
        WideChecksum64.step(&h, d)
        while at + 8 <= raw.count {
            WideChecksum64.step(&h, word(at))
            at += 8
        }
        while at < raw.count {
            WideChecksum64.step(&h, UInt64(raw[at]))
            at += 1
        }
        value = (h ^ UInt64(raw.count)) &* 0xBF58_476D_1CE4_E5B9
    }
}

