// Applying a code to an entry, as `code add`, the language server and the web app all do it.
import Foundation

/// One request to apply a code, checked against the entry and the codebook before anything is
/// written. Every face of daybook builds one and writes it with `apply(to:)` (an entry text, for
/// an editor's buffer) or `write(in:)` (the file, inside a Change).
public struct CodeApplication {
    public enum Outcome: Equatable {
        /// A new coding.
        case added
        /// The same coding existed with another memo (or none); its memo is replaced.
        case memoChanged(from: String?)
    }

    /// The coding as it will be written.
    public let coding: Coding
    public let outcome: Outcome
    /// The code is not in the codebook yet and will be added to it (inductive coding).
    public let addsCode: Bool
    /// Things the user should know that do not stop the coding (a quote that occurs more than once).
    public let warnings: [Diagnostic]

    /// Checks a request: the code's name, the strict codebook, the quote (normalised to the body's
    /// line endings, found in the body, the occurrence within range) and whether the entry has the
    /// coding already. `coder` nil takes the diary's default coder; `coded` nil takes the diary's
    /// clock (an import gives the time the coding was made elsewhere). Throws `.nothing` when the
    /// coding exists as asked, `.input`/`.usage` with the entry's path for anything wrong.
    public init(code rawCode: String, quote rawQuote: String?, occurrence: Int?, memo: String?, coder: String?,
                coded: LocalDateTime? = nil, entry: Entry, diary: Diary, codebook: Codebook) throws {
        let path = SourceLocation(path: diary.displayPath(entry.path))
        let code = try CodeApplication.codeName(rawCode)
        if diary.config.strictCodebook, !codebook.contains(code) {
            let close = codebook.closeNames(to: code)
            throw DaybookError.input("`\(code)` is not in the codebook, and daybook.yml says codebook: {strict: true}"
                                     + (close.isEmpty ? "; define it first with `daybook code define \(code)`" : "; did you mean: " + close.joined(separator: ", ") + "?"))
        }
        if let occurrence, occurrence < 1 { throw DaybookError.usage("the occurrence counts from 1") }
        var warnings: [Diagnostic] = []
        let quote = rawQuote.map { CodeApplication.lineEndings(of: $0, as: entry.body) }
        if let q = quote {
            guard !q.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw DaybookError.usage("the quote is empty") }
            let n = QuoteAnchor.count(of: q, in: entry.body)
            if n == 0 {
                let hint = entry.body.lowercased().contains(q.lowercased()) ? " (it does with other upper/lower case: quotes are exact)" : ""
                throw DaybookError.input("the quote \"\(q)\" does not occur in the body\(hint); nothing was changed", at: path)
            }
            if let occurrence, occurrence > n {
                throw DaybookError.input("the quote occurs \(n == 1 ? "1 time" : "\(n) times") in the body, not \(occurrence); nothing was changed", at: path)
            }
            if n > 1 && occurrence == nil {
                warnings.append(Diagnostic(.warning, "the quote occurs \(n) times; coded the first (--occurrence N codes another)", at: path))
            }
        } else if occurrence != nil {
            throw DaybookError.usage("an occurrence needs a quote")
        }
        let who = try coder ?? diary.defaultCoder()
        let occ = (occurrence ?? 1) > 1 ? occurrence : nil
        var coding = Coding(code: code, quote: quote, occurrence: occ, memo: memo, coder: who, coded: coded ?? diary.clock.nowLocal)
        let same = entry.codings.first {
            $0.source == .frontMatter && $0.code == code && $0.quote == quote && ($0.occurrence ?? 1) == (occ ?? 1) && $0.coder == who
        }
        if let same {
            guard let memo, memo != same.memo else {
                throw DaybookError.nothing("daybook: nothing to change: \(entry.title) has this coding already"
                                           + (same.memo.map { " (memo: \"\($0)\")" } ?? ""))
            }
            coding = same
            coding.memo = memo
            outcome = .memoChanged(from: same.memo)
        } else {
            outcome = .added
        }
        self.coding = coding
        self.addsCode = !codebook.contains(code)
        self.warnings = warnings
    }

    /// Writes the coding into an entry's text: its own lines appended, or the memo line of the
    /// existing coding changed. Nothing else in the text changes.
    public func apply(to text: inout EntryText) {
        var lines = CodingLines(text)
        switch outcome {
        case .added:
            lines.append(coding)
        case .memoChanged:
            lines.update { c in
                c.source == .frontMatter && c.code == coding.code && c.quote == coding.quote
                    && (c.occurrence ?? 1) == (coding.occurrence ?? 1) && c.coder == coding.coder ? coding : c
            }
        }
        text = lines.text
    }

    /// Writes the coding into the entry file and, when the code is new, into the codebook, as
    /// part of `change`. The caller commits with `commitMessage(title:)`.
    public func write(entry rel: String, codebook: Codebook, in change: Change) throws {
        try change.editEntry(rel) { text, _ in apply(to: &text) }
        var book = codebook
        if book.addIfMissing(coding.code) { try change.write(book) }
    }

    /// `code add: frustration on Clinic visit: "the login failed"`, or `code memo: …` when only the
    /// memo changed.
    public func commitMessage(title: String) -> String {
        switch outcome {
        case .added: return "code add: " + summary(title: title)
        case .memoChanged: return "code memo: " + summary(title: title)
        }
    }

    /// `frustration on Clinic visit: "the login failed"`.
    public func summary(title: String) -> String {
        coding.quote.map { "\(coding.code) on \(title): \"\(CodeApplication.short($0))\"" } ?? "\(coding.code) on \(title)"
    }

    /// A code name as given by a person, lowercase; a usage error when it is not one.
    public static func codeName(_ raw: String) throws -> String {
        let n = Tag.normalize(raw)
        guard Tag.isValid(n) else { throw DaybookError.usage("`\(raw)` is not a code name: use letters, digits, _, - and / (not at either end)") }
        return n
    }

    /// The quote with the body's line endings: a quote typed or pasted with `\r\n` against an LF
    /// body (or the reverse) is stored as the body has it, so its text and its positions agree.
    static func lineEndings(of quote: String, as body: String) -> String {
        let lf = quote.replacingOccurrences(of: "\r\n", with: "\n")
        return body.contains("\r\n") ? lf.replacingOccurrences(of: "\n", with: "\r\n") : lf
    }

    /// A quote shortened to one line of at most 60 characters, for messages.
    public static func short(_ s: String) -> String {
        // Most quotes are one line already: Foundation's replacing was a seventh of `code ls`.
        let one = !s.utf8.contains(UInt8(ascii: "\n")) ? s
            : s.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        // 60 bytes or fewer are 60 characters or fewer, without counting them.
        return one.utf8.count > 60 && one.count > 60 ? String(one.prefix(57)) + "…" : one
    }
}

extension Diary {
    /// Who codes when nobody is named: `coder` in daybook.yml, else git's user.name.
    public func defaultCoder() throws -> String? {
        try config.coder ?? repository().configString("user.name")
    }

    /// Whose a coding that names no coder is (`Coding.madeBy`): `defaultCoder()`, nil when it
    /// cannot be read (then such codings are nobody's, in every command alike).
    public var coderOfUnnamedCodings: String? { (try? defaultCoder()) ?? nil }
}

extension Change {
    /// Writes the codebook when it differs from what is on disk (an empty codebook is not created).
    public func write(_ book: Codebook) throws {
        let current = FileManager.default.contents(atPath: diary.codebookFile.path)
        let data = Data(book.yaml.utf8)
        if current != data && !(current == nil && book.codes.isEmpty) { try write(data, to: Codebook.fileName) }
    }
}
