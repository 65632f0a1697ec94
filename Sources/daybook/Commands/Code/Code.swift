// `daybook code`: the group of coding subcommands, and what they share.
import ArgumentParser
import DaybookCore
import Foundation

struct CodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Qualitative coding: apply codes to entries and segments, keep the codebook, report.",
        discussion: "Codings live in each entry's `codes:` front matter; the codebook in codebook.yml. See `man daybook-code` and `man daybook-codebook`.",
        subcommands: [CodeAdd.self, CodeRm.self, CodeLs.self, CodeBook.self, CodeDefine.self,
                      CodeRename.self, CodeMerge.self, CodeStats.self, CodeCheck.self])

    /// A code name from the command line, lowercase; a usage error when it is not one.
    static func name(_ raw: String) throws -> String { try CodeApplication.codeName(raw) }

    /// The codes a CODE argument stands for: the code, its descendants in the codebook, and
    /// nested names (`a` stands for `a/b` too).
    static func matcher(_ code: String, book: Codebook) -> (String) -> Bool {
        let set = book.descendants(of: code)
        return { c in set.contains(c) || set.contains { Tag.matches(c, query: $0) } }
    }

    /// `1 coding`, `2 codings`, `2 entries`.
    static func plural(_ n: Int, _ word: String) -> String {
        n == 1 ? "1 \(word)" : word.hasSuffix("y") ? "\(n) \(word.dropLast())ies" : "\(n) \(word)s"
    }

    /// Renames or merges codes in every readable entry's front matter; ink codings are reported,
    /// since they live in stroke files. Returns the titles of the entries changed.
    static func recode(_ diary: Diary, in change: Change, _ map: (String) -> String?) throws -> [String] {
        let (titles, warnings) = try CodeRenaming.recode(diary, in: change, map)
        Terminal.warnings(warnings)
        return titles
    }
}
