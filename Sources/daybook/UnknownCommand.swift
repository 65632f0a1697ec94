// "did you mean" for a mistyped command (`daybook stast`, `daybook code ad`), as git and options do.
import ArgumentParser
import DaybookCore

/// swift-argument-parser suggests close option names but calls a mistyped command an "unexpected
/// argument". When parsing fails, this walks the words as the parser would: where a command
/// expects one of its subcommands and gets an unknown word, that word is the mistake.
enum UnknownCommand {
    /// The message for `args` when a word in a command's place names no command, else nil.
    static func message(for args: [String], root: ParsableCommand.Type = Daybook.self) -> String? {
        var command = root
        var path = [root._commandName]
        for word in args {
            if word == "--" || word.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(word) }) {
                command = next
                path.append(next._commandName)
                continue
            }
            // A group with a default subcommand takes other words as that subcommand's arguments.
            if command.configuration.defaultSubcommand != nil { return nil }
            let known = subcommands.flatMap(names) + (command == root ? ["help"] : [])
            let where_ = path.joined(separator: " ")
            return "`\(word)` is not a `\(where_)` command" + hint(word, known) + " (see `\(where_) --help`)"
        }
        return nil
    }

    static func names(of command: ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// The closest names, when close enough to be a slip: up to half the word's letters edited
    /// (`sow` → `show`, `rnme` → `rename`), at most three.
    static func hint(_ word: String, _ known: [String]) -> String {
        let limit = max(1, min(3, (word.count + 1) / 2))
        let scored = known.map { ($0, editDistance($0.lowercased(), word.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return "" }
        let close = scored.filter { $0.1 == best }.map { "`\($0.0)`" }
        return "; did you mean " + close.joined(separator: " or ") + "?"
    }
}
