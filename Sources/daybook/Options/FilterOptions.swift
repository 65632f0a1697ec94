// FILTERS (SPEC §3), shared by ls, grep, stats, streak, export, tag ls, code ls, code stats.
import ArgumentParser
import DaybookCore

struct FilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("From this date on (YYYY, YYYY-MM, YYYY-MM-DD, today, last week, 3 days ago, …).", valueName: "when"))
    var from: String?
    @Option(help: ArgumentHelp("Up to this date, inclusive.", valueName: "when"))
    var to: String?
    @Option(help: ArgumentHelp("On this date or in this period.", valueName: "when"))
    var on: String?
    @Option(name: [.customShort("t"), .long], help: ArgumentHelp("Has this tag (repeat: all of them); `a` finds `a/b`.", valueName: "tag"), completion: Completions.tags)
    var tag: [String] = []
    @Option(name: .customLong("any-tag"), help: ArgumentHelp("Has at least one of these tags.", valueName: "tag"), completion: Completions.tags)
    var anyTag: [String] = []
    @Option(name: .customLong("not-tag"), help: ArgumentHelp("Has none of these tags.", valueName: "tag"), completion: Completions.tags)
    var notTag: [String] = []
    @Option(help: ArgumentHelp("Has a coding with this code or one of its descendants.", valueName: "code"), completion: Completions.codes)
    var code: [String] = []
    @Option(help: ArgumentHelp("Mood: 3, >=4, <3, 2..4.", valueName: "expr"))
    var mood: String?
    @Option(name: .customLong("where"), help: ArgumentHelp("Front matter: key=value, key!=value, key>=n, key<n (n a number, YYYY-MM-DD or HH:MM), key~regex, key.", valueName: "expr"))
    var wheres: [String] = []
    @Option(help: ArgumentHelp("Made from this template.", valueName: "name"), completion: Completions.templates)
    var template: String?
    @Flag(name: .customLong("has-ink"), help: "Has a stroke file.")
    var hasInk = false
    @Flag(name: .customLong("on-this-day"), help: "Same month and day as today, any year.")
    var onThisDay = false
    @Flag(help: "Starred (starred: true; see daybook star).")
    var starred = false
    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("Only the N most recent after the other filters.", valueName: "n"))
    var last: Int?

    var filter: EntryFilter {
        var f = EntryFilter()
        f.from = from; f.to = to; f.on = on
        f.tags = tag; f.anyTags = anyTag; f.notTags = notTag
        f.codes = code; f.mood = mood; f.wheres = wheres; f.template = template
        f.hasInk = hasInk; f.onThisDay = onThisDay; f.starred = starred; f.last = last
        return f
    }

    /// The diary's entries that pass, oldest first; unreadable entries are warned about unless
    /// `warn` is false (`streak --check` prints nothing). Without `bodies` the entries come from
    /// the cache with empty bodies, for commands that need only metadata; `parts` leaves out what
    /// a command does not look at (see EntryParts).
    /// With `coded`, entries without a coding are left out where that does not change what
    /// `--last` counts (`CompiledFilter.select`).
    func entries(of diary: Diary, warn: Bool = true, bodies: Bool = true, parts: EntryParts = .all, coded: Bool = false) throws -> [Entry] {
        try entriesAndUnparsed(of: diary, warn: warn, bodies: bodies, parts: parts, coded: coded).entries
    }

    /// The same, and the entry files that gave no entry, each with its problems (no filter can
    /// tell whether they would have passed).
    func entriesAndUnparsed(of diary: Diary, warn: Bool = true, bodies: Bool = true, parts: EntryParts = .all,
                            coded: Bool = false) throws -> (entries: [Entry], unparsed: [(path: String, problems: [DaybookError])]) {
        let (compiled, snapshot) = try scan(diary)
        var diags = snapshot.diagnostics
        var chosen = compiled.select(snapshot, parts: parts, among: coded ? snapshot.hasCodings : nil)
        if bodies { chosen = diary.withBodies(chosen, diagnostics: &diags) }
        if warn { Terminal.warnings(diags + compiled.takeWarnings(diary)) }
        UntilExit.keep(chosen)
        return (chosen, snapshot.unparsed)
    }

    /// The diary's entries as of one walk when no filter is given (every entry passes), its
    /// unreadable entries warned about; nil when a filter is given.
    func unfiltered(_ diary: Diary) throws -> EntrySnapshot? {
        guard filter.passesEverything else { return nil }
        let (compiled, snapshot) = try scan(diary)
        Terminal.warnings(snapshot.diagnostics + compiled.takeWarnings(diary))
        return snapshot
    }

    /// The filter, and the diary's entries as of one walk (a progress bar while a cold cache is
    /// filled). The snapshot is kept until the process ends (see UntilExit).
    private func scan(_ diary: Diary) throws -> (CompiledFilter, EntrySnapshot) {
        let compiled = try compiled(for: diary)
        let bar = ProgressBar("reading entries")
        let snapshot = diary.scanEntries(progress: bar.update)
        bar.finish()
        UntilExit.keep(snapshot)
        return (compiled, snapshot)
    }
}

extension FilterOptions {
    /// The diary's snapshot and the positions in it of the entries that pass, for commands that
    /// need little more than dates (nothing is decoded for a date-only filter).
    func positions(of diary: Diary, warn: Bool = true) throws -> (EntrySnapshot, [Int]) {
        let (compiled, snapshot) = try scan(diary)
        if warn { Terminal.warnings(snapshot.diagnostics) }
        let positions = compiled.positions(snapshot)
        if warn { Terminal.warnings(compiled.takeWarnings(diary)) }
        return (snapshot, positions)
    }

    /// The filter checked against the diary's clock, week start and codebook, for commands that
    /// read entries themselves.
    func compiled(for diary: Diary) throws -> CompiledFilter {
        // The codebook is read only when --code asks for it.
        try filter.compile(clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday,
                           expandCode: code.isEmpty ? { [$0] } : CodeExpansion.expander(diary))
    }
}

/// How `--code` widens a category to its descendants (the codebook answers when there is one).
enum CodeExpansion {
    static func expander(_ diary: Diary) -> (String) -> Set<String> {
        let book: Codebook
        do { book = try Codebook.load(diary) } catch let e as DaybookError {
            Terminal.warning(Diagnostic(e))
            book = Codebook()
        } catch { book = Codebook() }
        return { book.descendants(of: $0) }
    }
}
