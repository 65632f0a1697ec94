// A coding: a code applied to the whole entry, or to a quoted segment of its body.
import Foundation

public struct Coding: Equatable, Hashable, Sendable {
    public enum Source: Equatable, Hashable, Sendable {
        case frontMatter
        /// A highlighter stroke of the entry's stroke file, by index.
        case ink(stroke: Int)
    }

    public var code: String
    public var quote: String?
    public var occurrence: Int?
    public var memo: String?
    public var coder: String?
    /// When the coding was made (`coded:`, written by `code add` and imports); nil in codings
    /// written before daybook kept it, whose time comes from history (`CodingTimes`).
    public var coded: LocalDateTime?
    public var source: Source

    public init(code: String, quote: String? = nil, occurrence: Int? = nil, memo: String? = nil,
                coder: String? = nil, coded: LocalDateTime? = nil, source: Source = .frontMatter) {
        self.code = code
        self.quote = quote
        self.occurrence = occurrence
        self.memo = memo
        self.coder = coder
        self.coded = coded
        self.source = source
    }

    /// What a coding without a quote covers, as a listing shows it: the whole entry, or a
    /// highlighter stroke (numbered from 1, as `ink ls` numbers them).
    public var unquotedPlace: String {
        if case let .ink(i) = source { return "(highlighter stroke \(i + 1))" }
        return "(the whole entry)"
    }

    /// Who made the coding: its `coder:`, else `defaultCoder` (`Diary.coderOfUnnamedCodings`). A
    /// coding written by hand or made by a highlighter stroke names nobody; the QDPX export, the
    /// import's duplicate check and inter-coder agreement all count it as the default coder's by
    /// this one rule, so a figure daybook reports is the figure its own export gives.
    public func madeBy(defaultCoder: String?) -> String? { coder ?? defaultCoder }

    /// Every coder of `entries` by `madeBy`, sorted.
    public static func coders(of entries: [Entry], defaultCoder: String?) -> [String] {
        Array(Set(entries.flatMap { $0.codings.compactMap { $0.madeBy(defaultCoder: defaultCoder) } })).sorted()
    }

    /// The same coding whenever it was made: what tells two codings apart for duplicates and merges.
    public var untimed: Coding {
        var c = self
        c.coded = nil
        return c
    }

    /// The coding as a JSON object (absent fields omitted).
    public var json: JSONValue {
        var o: [(String, JSONValue)] = [("code", .string(code))]
        if let quote { o.append(("quote", .string(quote))) }
        if let occurrence { o.append(("occurrence", .int(occurrence))) }
        if let memo { o.append(("memo", .string(memo))) }
        if let coder { o.append(("coder", .string(coder))) }
        if let coded { o.append(("coded", .string(coded.description))) }
        if case let .ink(i) = source { o.append(("stroke", .int(i))) }
        return .object(o)
    }
}
