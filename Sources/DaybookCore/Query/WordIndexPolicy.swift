// When grep reads the files the word index chooses: the word index where it is current, every
// file where not.
import Foundation

/// When grep uses the word index. Tests turn it off, or lower the size where it starts.
public struct WordIndexPolicy: Sendable {
    public var enabled = true
    /// Diaries, and lists of filtered entries, smaller than this are searched file by file.
    public var minimumEntries = 200

    public init() {}

    /// Whether a search with no filter reads every entry file, each stamped from the file it
    /// opened, instead of a walk that stats them all first (`Grep.readsEveryFile`); nil lets
    /// the index decide. Tests set it to run both ways.
    public var everyFile: Bool?

    /// From the environment: `DAYBOOK_NO_INDEX=1` searches every file; `DAYBOOK_INDEX_MIN=N`
    /// sets `minimumEntries`; `DAYBOOK_GREP_READ=all` or `=chosen` sets `everyFile` (for tests).
    public init(environment env: [String: String]) {
        enabled = (env["DAYBOOK_NO_INDEX"] ?? "").isEmpty || env["DAYBOOK_NO_INDEX"] == "0"
        if let n = env["DAYBOOK_INDEX_MIN"].flatMap(Int.init), n >= 0 { minimumEntries = n }
        switch env["DAYBOOK_GREP_READ"] {
        case "all": everyFile = true
        case "chosen": everyFile = false
        default: break
        }
    }
}
