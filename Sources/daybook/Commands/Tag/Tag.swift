// `daybook tag`: the group of tag subcommands, and what they share.
import ArgumentParser
import DaybookCore
import Foundation

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add, remove, list and rename tags.",
        discussion: "Tags are letters, digits, _, - and /; `/` nests (`project` finds `project/alpha`). They compare case-insensitively and are written in lowercase.",
        subcommands: [TagAdd.self, TagRm.self, TagLs.self, TagRename.self])

    /// Tags from the command line, normalized; a usage error names the first that is not a tag.
    static func tags(from raw: [String]) throws -> [String] {
        try raw.map { r in
            let t = Tag.normalize(r)
            guard Tag.isValid(t) else { throw DaybookError.usage("`\(r)` is not a tag: use letters, digits, _, - and / (not at either end)") }
            return t
        }
    }

    /// Every line of standard input, for ENTRY `-`.
    static func readStandardInput() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }

    /// `+a +b on Title` or `+a on 3 entries`, for commit messages and confirmations.
    static func summary(_ sign: String, _ tags: [String], titles: [String]) -> String {
        let list = tags.map { sign + $0 }.joined(separator: " ")
        return titles.count == 1 ? "\(list) on \(titles[0])" : "\(list) on \(titles.count) entries"
    }
}
