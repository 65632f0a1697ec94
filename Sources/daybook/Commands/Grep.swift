// `daybook grep`: search titles and bodies with a regular expression.
import ArgumentParser
import DaybookCore
import Foundation

struct GrepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grep",
        abstract: "Search titles and bodies with a regular expression (PCRE2).",
        discussion: """
        Prints path:line:column:text for each matching line (line and column 1-based, column in bytes). \
        Exit status: 0 a match, 1 no match, 2 an error (such as an invalid pattern).
        """)

    @Argument(help: "A Perl-compatible regular expression (with -F: a fixed string).") var pattern: String
    @Flag(name: .short, help: "Ignore case.") var i = false
    @Flag(name: .short, help: "Match whole words only.") var w = false
    @Flag(name: .customShort("F"), help: "The pattern is a fixed string, not a regular expression.") var fixed = false
    @Option(name: .customShort("C", allowingJoined: true), help: ArgumentHelp("Show N lines of context around each match.", valueName: "n")) var context: Int?
    @Option(name: .customShort("A", allowingJoined: true), help: ArgumentHelp("Show N lines after each match.", valueName: "n")) var after: Int?
    @Option(name: .customShort("B", allowingJoined: true), help: ArgumentHelp("Show N lines before each match.", valueName: "n")) var before: Int?
    @Flag(name: .short, help: "Print the paths of matching entries only.") var l = false
    @Flag(name: .short, help: "Print path:count, the number of matching lines of each matching entry.") var c = false
    @Flag(name: .customLong("front-matter"), help: "Search the front matter too.") var frontMatter = false
    @Flag(help: "JSON Lines: id, path, line, column, text, matches (byte offsets).") var json = false
    @OptionGroup var filters: FilterOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for (name, n) in [("-C", context), ("-A", after), ("-B", before)] where (n ?? 0) < 0 {
            throw ValidationError("\(name) takes a number from 0")
        }
        if l && c { throw ValidationError("choose one of -l and -c") }
    }

    func run() throws {
        let diary = try global.openDiary()
        var options = GrepOptions()
        options.ignoreCase = i
        options.wholeWord = w
        options.fixed = fixed
        options.before = before ?? context ?? 0
        options.after = after ?? context ?? 0
        options.frontMatter = frontMatter
        options.output = l ? .exists : c ? .count : .lines
        let grep = try Grep(pattern, options: options)
        let filter = try filters.compiled(for: diary)
        let printer = GrepPrinter(mode: l ? .paths : c ? .counts : .lines, json: json, showsContext: options.before + options.after > 0)
        var any = false
        let shown = DisplayPaths(diary)
        // One bar at a time: entries are read, then the index is built, then results come.
        let reading = ProgressBar("reading entries"), indexing = ProgressBar("indexing words")
        func clear() { reading.finish(); indexing.finish() }
        grep.search(diary, filter: filter, index: WordIndexPolicy(environment: global.environment),
                    reading: reading.update, indexing: { reading.finish(); indexing.update($0, of: $1) },
                    problem: { clear(); Terminal.warning($0) }) { result in
            clear()
            any = true
            printer.print(result, path: shown.path(result.path))
        }
        clear()
        if !any { throw DaybookError.nothing("") }
    }
}

/// `Diary.displayPath` for the many files of one search, with the working directory's forms
/// worked out once instead of a URL and a symlink resolution per file.
struct DisplayPaths {
    let root: String
    let cwd: String
    /// The working directory and its symlinks resolved, each with a slash after it.
    let below: String
    let belowReal: String

    init(_ diary: Diary) {
        root = diary.root.path.hasSuffix("/") ? diary.root.path : diary.root.path + "/"
        cwd = diary.workingDirectory.standardizedFileURL.path
        below = cwd + "/"
        belowReal = diary.workingDirectory.resolvingSymlinksInPath().path + "/"
    }

    func path(_ rel: String) -> String {
        let p = root + rel
        if cwd == "/" { return p }
        if p.hasPrefix(below) { return String(p.dropFirst(below.count)) }
        if p.hasPrefix(belowReal) { return String(p.dropFirst(belowReal.count)) }
        return p
    }
}
