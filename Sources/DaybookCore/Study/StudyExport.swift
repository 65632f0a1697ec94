// `study export qdpx`: one REFI-QDA project of every participant's entries, each participant a Case.
import Foundation

extension Study {
    /// One participant's part of a study export: their diary and the entries chosen, with bodies.
    public struct ExportPart {
        public var participant: Participant
        public var diary: Diary
        public var entries: [Entry]
        public init(participant: Participant, diary: Diary, entries: [Entry]) {
            self.participant = participant
            self.diary = diary
            self.entries = entries
        }
    }

    /// Writes the project with QDPXExport, as `export qdpx` does for one diary. The entries keep
    /// their own text and codings; their ids become `<participant>/<id>` (two diaries may hold the
    /// same id), codings without a coder take their diary's `coder`, and codings without `coded:`
    /// the time of the commit of the participant's diary that added them. The codebooks are merged:
    /// the first participant's definition of a code wins. Returns the warnings.
    public func exportQDPX(_ parts: [ExportPart], to url: URL, workingDirectory: URL,
                           progress: @escaping (Int, Int) -> Void = { _, _ in }) throws -> [Diagnostic] {
        guard let lead = parts.first?.diary else { throw DaybookError.nothing("daybook: no participant to export") }
        var book = Codebook()
        var entries: [Entry] = []
        var cases: [QDPXCase] = []
        for part in parts {
            book.merge(try Codebook.load(part.diary))
            let folder = "\(Study.participantsFolder)/\(part.participant.id)/"
            // A coding without `coded:` is dated by the commit that added it, as `export qdpx`
            // dates it: from the participant's own history, which the study folder does not have.
            let waiting = part.entries.filter { $0.codings.contains { $0.coded == nil && $0.source == .frontMatter } }
            let times = waiting.isEmpty ? [:] : CodingTimes.fromHistory(waiting.map { ($0.path, $0.codings) }, diary: part.diary)
            let own = part.entries.map { e -> Entry in
                var e = e
                let dated = times[e.path] ?? [:]
                e.id = "\(part.participant.id)/\(e.id)"
                e.path = folder + e.path
                e.codings = e.codings.enumerated().map { k, c in
                    var c = c
                    c.coder = c.coder ?? part.diary.config.coder
                    c.coded = c.coded ?? dated[k]
                    return c
                }
                return e
            }
            entries += own
            cases.append(QDPXCase(name: part.participant.id, description: "Participant \(part.participant.id) (\(part.participant.diary))",
                                  variables: part.participant.attributes.map { ($0.key, $0.value) }, entryIDs: own.map(\.id)))
        }
        var config = lead.config
        config.name = name ?? folder.lastPathComponent
        config.coder = nil
        let context = ExportContext(diary: Diary(root: folder, config: config, clock: lead.clock, workingDirectory: workingDirectory), progress: progress)
        context.loadedCodebook = book
        var export = QDPXExport()
        export.cases = cases
        try export.export(entries, context: context, to: .path(url))
        return context.warnings
    }
}

extension Codebook {
    /// Adds another codebook's codes: a code this one has already keeps its place and definition
    /// (with the other's subtree under it left out: codes used from it are exported as undefined).
    mutating func merge(_ other: Codebook) {
        var known = Set(allCodes)
        func keep(_ c: Code) -> Code? {
            guard known.insert(c.name).inserted else { return nil }
            var c = c
            c.children = c.children.compactMap(keep)
            return c
        }
        codes += other.codes.compactMap(keep)
    }
}
