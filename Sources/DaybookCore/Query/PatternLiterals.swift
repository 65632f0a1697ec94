// The literal words every match of a grep pattern must contain, for choosing files by the word index.
import Foundation

/// Runs of ASCII letters, digits and underscores that every match of a pattern contains, lowercased.
/// The word index holds lowercased words, so a file with a match has, for each run, a word that
/// contains the run. The rules only ever lose runs, never invent one: anything not understood
/// gives no runs at all, and then every file is a candidate.
enum PatternLiterals {
    /// Runs shorter than this select too many words to be worth looking up.
    static let shortest = 2

    /// The runs of `pattern` (a fixed string with `fixed`); empty when nothing is known.
    static func runs(_ pattern: String, fixed: Bool) -> [String] {
        let scalars = Array(pattern.unicodeScalars)
        let found = fixed ? fixedRuns(scalars) : regexRuns(scalars)
        var seen = Set<String>()
        return (found ?? []).filter { $0.utf8.count >= shortest && seen.insert($0).inserted }
    }

    static func isWordByte(_ u: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(u) || ("A"..."Z").contains(u) || ("0"..."9").contains(u) || u == "_"
    }

    private static func lower(_ u: Unicode.Scalar) -> Character {
        ("A"..."Z").contains(u) ? Character(Unicode.Scalar(UInt8(u.value) + 32)) : Character(u)
    }

    /// A fixed string: its word-byte runs.
    static func fixedRuns(_ s: [Unicode.Scalar]) -> [String] {
        var runs: [String] = []
        var run = ""
        for u in s {
            if isWordByte(u) { run.append(lower(u)) } else if !run.isEmpty { runs.append(run); run = "" }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    /// A regular expression's required runs, or nil when the pattern holds something these rules
    /// do not follow (alternation at the top, `\Q…\E`, extended mode, verbs, unknown escapes).
    static func regexRuns(_ s: [Unicode.Scalar]) -> [String]? {
        if s.starts(with: ["(", "*"]) { return nil }
        // `\Q…\E` quotes anything, parentheses and brackets included: not followed here.
        if zip(s, s.dropFirst()).contains(where: { $0 == "\\" && $1 == "Q" }) { return nil }
        var runs: [String] = []
        var run = ""
        func end() { if !run.isEmpty { runs.append(run); run = "" } }
        var i = 0
        while i < s.count {
            let u = s[i]
            switch u {
            case "|":
                return nil
            case "(", "[", "\\":
                // A group, a class or an escape ends the run; it and its quantifier are skipped.
                let next: Int
                if u == "(" { guard let close = groupEnd(s, from: i) else { return nil }; next = close + 1 }
                else if u == "[" { guard let close = classEnd(s, from: i) else { return nil }; next = close + 1 }
                else { guard i + 1 < s.count, isKnownEscape(s[i + 1]) else { return nil }; next = i + 2 }
                end()
                guard let after = skipQuantifier(s, at: next) else { return nil }
                i = after.next
                continue
            case ")":
                return nil
            default:
                break
            }
            // One character, maybe with a quantifier.
            guard let q = skipQuantifier(s, at: i + 1) else { return nil }
            if isWordByte(u) {
                switch q.minimum {
                case 0:
                    // Optional: the characters on either side need not be next to each other.
                    end()
                case 1 where q.next == i + 1:
                    run.append(lower(u))
                default:
                    // One or more: the run so far ends with it, and the next one starts with it.
                    run.append(lower(u))
                    end()
                    run.append(lower(u))
                }
            } else {
                // `.`, `^`, `$`, blanks and punctuation break a run (`.` and anchors match no
                // fixed word byte; other characters are not in any word).
                end()
            }
            i = q.next
        }
        end()
        return runs
    }

    /// Escapes that stand for one character or one assertion, written with exactly one letter
    /// after the backslash, or an escaped punctuation character. Any other (\x{..}, \p{..},
    /// \Q, backreferences, \c, \N{..}, \g, \k, \o) makes the whole pattern unknown.
    static func isKnownEscape(_ u: Unicode.Scalar) -> Bool {
        if "sSdDwWbBhHvVRnrtfeaAzZGK".unicodeScalars.contains(u) { return true }
        return u.isASCII && !isWordByte(u) && u != " " && u.value >= 0x21
    }

    /// A quantifier at `i` (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy or possessive):
    /// the least number of repeats it allows and where the pattern goes on. No quantifier is
    /// minimum 1 with `next == i`. nil for a brace that is not plainly one of these forms.
    static func skipQuantifier(_ s: [Unicode.Scalar], at i: Int) -> (minimum: Int, next: Int)? {
        guard i < s.count else { return (1, i) }
        var minimum = 1
        var j = i
        switch s[i] {
        case "?", "*": minimum = 0; j += 1
        case "+": j += 1
        case "{":
            var k = i + 1
            var digits = ""
            while k < s.count, ("0"..."9").contains(s[k]) { digits.unicodeScalars.append(s[k]); k += 1 }
            guard let n = Int(digits) else { return nil }
            if k < s.count, s[k] == "," {
                k += 1
                while k < s.count, ("0"..."9").contains(s[k]) { k += 1 }
            }
            guard k < s.count, s[k] == "}" else { return nil }
            minimum = n
            j = k + 1
        default:
            return (1, i)
        }
        if j < s.count, s[j] == "?" || s[j] == "+" { j += 1 }
        // PCRE2 refuses a quantifier after a quantifier; whatever else reads it so is not followed.
        if j < s.count, "?*+{".unicodeScalars.contains(s[j]) { return nil }
        return (minimum, j)
    }

    /// The index of the `]` that closes the class opened at `open`, or nil.
    static func classEnd(_ s: [Unicode.Scalar], from open: Int) -> Int? {
        var i = open + 1
        if i < s.count, s[i] == "^" { i += 1 }
        if i < s.count, s[i] == "]" { i += 1 } // a `]` first is a member
        while i < s.count {
            switch s[i] {
            case "\\":
                i += 2
                continue
            case "[":
                // A POSIX class `[:alpha:]` (also `[.x.]`, `[=x=]`) runs to its own closing.
                if i + 1 < s.count, [":", ".", "="].contains(s[i + 1]) {
                    let mark = s[i + 1]
                    var k = i + 2
                    while k + 1 < s.count, !(s[k] == mark && s[k + 1] == "]") { k += 1 }
                    guard k + 1 < s.count else { return nil }
                    i = k + 2
                    continue
                }
            case "]":
                return i
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// The index of the `)` that closes the group opened at `open`, or nil. Refuses what could
    /// change how the rest of the pattern reads: extended mode (`(?x)`, where `#` starts a comment).
    static func groupEnd(_ s: [Unicode.Scalar], from open: Int) -> Int? {
        var depth = 0
        var i = open
        while i < s.count {
            switch s[i] {
            case "\\":
                i += 2
                continue
            case "[":
                guard let close = classEnd(s, from: i) else { return nil }
                i = close + 1
                continue
            case "(":
                if i + 1 < s.count, s[i + 1] == "*" { return nil }
                if i + 2 < s.count, s[i + 1] == "?", s[i + 2] == "#" {
                    // A comment runs to the first `)`, parentheses inside it included.
                    guard let close = s[(i + 3)...].firstIndex(of: ")") else { return nil }
                    i = close + 1
                    if depth == 0 { return close }
                    continue
                }
                if i + 1 < s.count, s[i + 1] == "?", setsExtended(s, at: i + 2) { return nil }
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return i }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// Whether the option letters after `(?` at `i` include `x` (extended mode).
    static func setsExtended(_ s: [Unicode.Scalar], at i: Int) -> Bool {
        var k = i
        while k < s.count, s[k].isASCII, s[k].properties.isAlphabetic || s[k] == "-" || s[k] == "^" {
            if s[k] == "x" { return true }
            k += 1
        }
        return false
    }
}
