// The one place that calls PCRE2: a compiled search pattern and the byte ranges it matches in a line.
import Foundation
import CPCRE2

/// A regular expression (or fixed string) compiled once, in UTF mode with Unicode classes,
/// JIT-compiled when the platform allows. Not for use from two threads at once (it owns one
/// match-data block).
public final class Pattern {
    private let code: OpaquePointer
    private let matchData: OpaquePointer
    /// The bytes every match is, when the pattern is a plain string matched with case (no `-i`,
    /// no `-w`, no character with a meaning in a regular expression): then a match is where
    /// these bytes are, found with `ByteSearch` instead of PCRE2 (see `literalMatch`).
    let literal: [UInt8]?

    /// Compiles `pattern`. An invalid pattern is a usage error naming the position in it.
    /// `multiline`: `^` and `$` also match at line starts and ends inside the subject.
    /// `plain: false` matches a plain string with PCRE2 too (for tests comparing the two).
    public init(_ pattern: String, ignoreCase: Bool = false, wholeWord: Bool = false, fixed: Bool = false,
                multiline: Bool = false, plain: Bool = true) throws {
        var options = UInt32(PCRE2_UTF | PCRE2_UCP)
        if ignoreCase { options |= PCRE2_CASELESS }
        if multiline { options |= PCRE2_MULTILINE }
        guard let context = pcre2_compile_context_create_8(nil) else { throw DaybookError.io("PCRE2 could not allocate memory") }
        defer { pcre2_compile_context_free_8(context) }
        if wholeWord { pcre2_set_compile_extra_options_8(context, UInt32(PCRE2_EXTRA_MATCH_WORD)) }

        var errorCode: Int32 = 0
        var errorOffset = 0
        // A fixed string is escaped rather than compiled with PCRE2_LITERAL, which refuses Unicode
        // classes (PCRE2_UCP) and so would make -w and -i differ between the two modes.
        let bytes = Array((fixed ? Pattern.escaped(pattern) : pattern).utf8)
        let compiled = bytes.withUnsafeBufferPointer { buf in
            pcre2_compile_8(buf.baseAddress ?? Pattern.emptySubject, buf.count, options, &errorCode, &errorOffset, context)
        }
        guard let compiled else {
            throw DaybookError.usage("invalid pattern `\(pattern)`: \(Pattern.message(errorCode)) at character \(Pattern.characterPosition(bytes, errorOffset))")
        }
        guard let data = pcre2_match_data_create_from_pattern_8(compiled, nil) else {
            pcre2_code_free_8(compiled)
            throw DaybookError.io("PCRE2 could not allocate memory")
        }
        // JIT is an optimisation only: where it is unavailable the interpreter matches the same.
        _ = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
        code = compiled
        matchData = data
        literal = !plain || ignoreCase || wholeWord ? nil : Pattern.plainBytes(pattern, fixed: fixed)
    }

    /// The bytes of a pattern that only matches itself: a non-empty fixed string, or a regular
    /// expression without any of `\ ^ $ . | ? * + ( ) [ ] { }` (the characters PCRE2 gives a
    /// meaning to outside extended mode, which a pattern of none of them cannot switch on). Such
    /// a pattern, in UTF mode and matched with case, matches exactly where its bytes are, at a
    /// character's start: in valid UTF-8, where a string's bytes are found is a character's
    /// start, as a string's first byte is never a continuation byte.
    static func plainBytes(_ pattern: String, fixed: Bool) -> [UInt8]? {
        let bytes = Array(pattern.utf8)
        guard !bytes.isEmpty else { return nil }
        if fixed { return bytes }
        let special = Set("\\^$.|?*+()[]{}".utf8)
        return bytes.contains(where: special.contains) ? nil : bytes
    }

    /// Where `literal` is found in `subject` at or after `start` (the match PCRE2 would give).
    private func literalMatch(_ literal: [UInt8], in subject: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        literal.withUnsafeBufferPointer { ByteSearch.first(of: $0, in: subject, from: start) }
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_code_free_8(code)
    }

    /// Why matching last gave up on a line (PCRE2's message), until `takeFailure()`.
    public private(set) var failure: String?

    /// The failure since the last call, clearing it.
    public func takeFailure() -> String? {
        defer { failure = nil }
        return failure
    }

    /// Byte ranges of every match in `subject`, left to right, not overlapping. An empty match is
    /// reported only when the line holds no other match, so `^` and `x*` still select lines.
    public func matches(in subject: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        if let literal {
            var found: [Range<Int>] = []
            var start = 0
            while let s = literalMatch(literal, in: subject, from: start) {
                found.append(s..<(s + literal.count))
                start = s + literal.count
            }
            return found
        }
        let base = subject.baseAddress ?? Pattern.emptySubject
        let length = subject.count
        var found: [Range<Int>] = []
        var empty: Range<Int>?
        var start = 0
        while start <= length {
            // The subject comes from a Swift String, so it is valid UTF-8 already.
            let rc = pcre2_match_8(code, base, length, start, UInt32(PCRE2_NO_UTF_CHECK), matchData, nil)
            if rc < 0 {
                // Anything but "no match" (a backtracking limit, say) must not pass for one.
                if rc != PCRE2_ERROR_NOMATCH { failure = Pattern.message(rc) }
                break
            }
            guard let ovector = pcre2_get_ovector_pointer_8(matchData) else { break }
            let s = ovector[0], e = ovector[1]
            guard s <= e, e <= length else { break } // \K can report a start after the end
            if s < e {
                found.append(s..<e)
                start = e
            } else {
                if empty == nil { empty = s..<e }
                guard e < length else { break }
                start = e + Pattern.scalarLength(base[e])
            }
        }
        if found.isEmpty, let empty { return [empty] }
        return found
    }

    /// Whether `subject` holds a match, an empty one included: the same answer as
    /// `!matches(in:).isEmpty`, with one call of PCRE2, and a failure kept as there.
    public func hasMatch(in subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if let literal { return literalMatch(literal, in: subject, from: 0) != nil }
        let rc = pcre2_match_8(code, subject.baseAddress ?? Pattern.emptySubject, subject.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, nil)
        if rc < 0 {
            if rc != PCRE2_ERROR_NOMATCH { failure = Pattern.message(rc) }
            return false
        }
        guard let ovector = pcre2_get_ovector_pointer_8(matchData) else { return false }
        return ovector[0] <= ovector[1] && ovector[1] <= subject.count
    }

    /// Where the first match at or after `start` begins, for choosing lines to search. A match
    /// that gave up is `.failed`, never taken for no match. With `checkUTF8`, PCRE2 first checks
    /// that the subject is valid UTF-8 (from `start` on) and answers `.invalid` when it is not.
    func firstMatch(in subject: UnsafeBufferPointer<UInt8>, from start: Int, checkUTF8: Bool) -> FirstMatch {
        // Unchecked bytes go to PCRE2, which checks them.
        if let literal, !checkUTF8 { return literalMatch(literal, in: subject, from: start).map(FirstMatch.at) ?? .none }
        let rc = pcre2_match_8(code, subject.baseAddress ?? Pattern.emptySubject, subject.count, start,
                               checkUTF8 ? 0 : UInt32(PCRE2_NO_UTF_CHECK), matchData, nil)
        if rc == PCRE2_ERROR_NOMATCH { return .none }
        if rc < 0 { return rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21 ? .invalid : .failed }
        guard let ovector = pcre2_get_ovector_pointer_8(matchData) else { return .failed }
        return .at(ovector[0])
    }

    enum FirstMatch: Equatable {
        case at(Int), none, failed, invalid
    }

    private static let emptySubject: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// `text` with every ASCII character that is not a letter or digit escaped: a backslash before
    /// such a character always means the character itself.
    static func escaped(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            if u.isASCII, !(CharacterSet.alphanumerics.contains(u)) { out += "\\" }
            out.unicodeScalars.append(u)
        }
        return out
    }

    /// Length of the UTF-8 sequence a lead byte starts.
    static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    static func message(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer.prefix(Int(n)), as: UTF8.self) : "error \(code)"
    }

    /// The 1-based character at a byte offset of the pattern, as a person counts along it.
    static func characterPosition(_ bytes: [UInt8], _ offset: Int) -> Int {
        String(decoding: bytes.prefix(min(offset, bytes.count)), as: UTF8.self).count + 1
    }
}
