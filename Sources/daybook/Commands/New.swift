// `daybook new`: create an entry from -m, stdin, a template or the editor.
import ArgumentParser
import DaybookCore
import Foundation

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create an entry and commit it; prints the new entry's path.",
        discussion: """
        The body comes from -m; else from stdin when stdin is not a terminal (no editor is opened then); \
        else, with --no-edit, from the template; else from the editor opened on the template text. \
        An empty body, or a template the editor left untouched, saves nothing and exits 1.
        """)

    @Argument(help: "The title (words are joined with spaces).")
    var title: [String] = []
    // As git commit -m: the next word is the text even when it starts with `-` ("- buy milk").
    @Option(name: [.customShort("m"), .long], parsing: .unconditional, help: "The body text (may start with -).")
    var message: String?
    // A one-line entry as jrnl takes it. Not a bare argument: the words after `new` are its title,
    // and "Monday: plan. Call Anna." must stay a title there. Not -q: that is --quiet.
    @Option(name: .customLong("quick"), parsing: .unconditional, help: ArgumentHelp("A one-line entry: [WHEN: ]First sentence, the title. The rest, the body.", valueName: "text"))
    var quick: String?
    @Option(name: [.customShort("t"), .long], help: "A tag (repeatable).", completion: Completions.tags)
    var tag: [String] = []
    @Option(help: "Mood on the diary's scale.")
    var mood: Int?
    @Option(help: ArgumentHelp("When: YYYY-MM-DD HH:MM, yesterday 18:30, monday, an ISO date-time, …", valueName: "when"))
    var date: String?
    @Option(help: "Start from this template.", completion: Completions.templates)
    var template: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("A front-matter field; the value is YAML: 7, true, [a, b], {k: v} (repeatable).", valueName: "key=value"))
    var fields: [String] = []
    @Option(help: ArgumentHelp("Where: a place's name, with its coordinates if known (the location field).", valueName: "name[@lat,lon]"))
    var location: String?
    @Option(help: ArgumentHelp("Pen strokes for the entry: a daybook stroke file or InkML.", valueName: "file"))
    var ink: String?
    @Option(help: ArgumentHelp("A file to attach (repeatable).", valueName: "file"))
    var attach: [String] = []
    @Option(help: ArgumentHelp("A voice note: the audio is attached with its duration, transcribed by daybook.yml's transcribe: command when there is one; no editor.", valueName: "file"))
    var audio: String?
    @Flag(inversion: .prefixedNo, help: "Open the editor (default: only when no body is given and stdin is a terminal).")
    var edit: Bool?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = global.environment
        Terminal.configure(color: global.color)
        let (url, isDefault) = Diary.locate(explicit: global.diary, environment: env, workingDirectory: global.workingDirectory)
        if !Diary.exists(at: url) {
            guard isDefault else { _ = try global.openDiary(); return }
            try Diary.create(at: url, name: nil)
            Terminal.message("daybook: created the default diary at \(url.path)")
        }
        let diary = try global.openDiary()
        if template == nil, let mood, mood < diary.config.moodMin || mood > diary.config.moodMax {
            throw DaybookError.usage("--mood \(mood) is off the scale \(diary.config.moodMin)–\(diary.config.moodMax)")
        }
        let quickEntry = try quick.map { try readQuick($0, diary: diary) }
        var given = try date.map { try DateExpression.momentNotingClockChange($0, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday) }
        if let q = quickEntry, let d = q.date { given = (d, q.dateNote) }
        if let note = given?.note { Terminal.warning(Diagnostic(.warning, "\(quickEntry?.date == nil ? "--date" : "--quick"): \(note)")) }
        let when = given?.time ?? diary.clock.nowLocal
        var titleText = quickEntry?.title ?? title.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if audio != nil, titleText.isEmpty { titleText = "Voice note" }
        var draft = EntryDraft(date: when, title: titleText.isEmpty ? nil : titleText)
        draft.tags = tag
        draft.mood = mood
        try draft.setFields(fields)
        if let location { try draft.setField("location", try EntryDraft.location(location)) }
        // Strokes are read before anything is written: a broken file saves nothing.
        let strokes = try ink.map { try Ink.importing($0, global: global) }
        if Terminal.stdinIsTerminal, let template { FieldPrompt.sayRefused(try TemplateLibrary(diary: diary).require(template), draft: draft) }
        // Whether a prompt was answered (not only Enter): then the answers are the entry, kept
        // even when the body is left as the template has it (issue 43).
        // The last text typed for a field is the one taken (a refused one is asked again), so
        // Enter after a refused answer leaves that field unanswered.
        var typedLast: [String: Bool] = [:]
        let ask: TemplateFill.Ask = { field, rejection in
            let typed = FieldPrompt.ask(field, rejection: rejection)
            typedLast[field.name] = !(typed ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            return typed
        }
        let prepared = try TemplateFill.prepare(template, diary: diary, draft: &draft, ask: Terminal.stdinIsTerminal ? ask : nil)
        let answered = typedLast.values.contains(true)

        // The body, from the first source that applies.
        // A voice note's words are its audio (and transcript): no editor unless asked for.
        let body = try quickEntry.map(\.body) ?? (audio != nil && message == nil && edit != true ? prepared ?? ""
            : TextInput.read(message: message, edit: edit, start: prepared, diary: diary, answered: answered))
        draft.body = body
        let files = (attach + (audio.map { [$0] } ?? [])).map { URL(fileURLWithPath: $0, relativeTo: global.workingDirectory) }
        let rel = try EntryWriter.commitNew(draft, in: diary, attachments: files, strokes: strokes,
                                            answered: answered || audio != nil || quickEntry.map { !$0.title.isEmpty } == true)
        Terminal.out(diary.displayPath(rel))
        // A one-line entry says the date it took, so a prefix that was not read as a date shows.
        global.confirm("daybook: saved \(diary.displayPath(rel))" + (quickEntry.map { _ in ", dated \(when)" } ?? ""))
    }

    /// The one-line entry, refused beside the options that would give its parts twice.
    func readQuick(_ text: String, diary: Diary) throws -> QuickEntry {
        let clashes = [("a TITLE", !title.isEmpty), ("-m", message != nil), ("--template", template != nil), ("--edit", edit == true)]
        if let clash = clashes.first(where: \.1) { throw DaybookError.usage("--quick gives the title and body; it cannot be used with \(clash.0)") }
        let q = QuickEntry.parse(text, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday)
        if q.date != nil, date != nil { throw DaybookError.usage("--quick \"\(text)\" names its date; it cannot be used with --date") }
        guard !q.title.isEmpty || !q.body.isEmpty else { throw DaybookError.usage("--quick: the entry has no text") }
        return q
    }
}
