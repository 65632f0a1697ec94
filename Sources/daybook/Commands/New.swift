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
        let given = try date.map { try DateExpression.momentNotingClockChange($0, clock: diary.clock, mondayFirst: diary.config.weekStartsOnMonday) }
        if let note = given?.note { Terminal.warning(Diagnostic(.warning, "--date: \(note)")) }
        let when = given?.time ?? diary.clock.nowLocal
        let titleText = title.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        var draft = EntryDraft(date: when, title: titleText.isEmpty ? nil : titleText)
        draft.tags = tag
        draft.mood = mood
        try draft.setFields(fields)
        if let location { try draft.setField("location", try EntryDraft.location(location)) }
        // Strokes are read before anything is written: a broken file saves nothing.
        let strokes = try ink.map { try Ink.importing($0, global: global) }
        if Terminal.stdinIsTerminal, let template { FieldPrompt.sayRefused(try TemplateLibrary(diary: diary).require(template), draft: draft) }
        let prepared = try TemplateFill.prepare(template, diary: diary, draft: &draft, ask: Terminal.stdinIsTerminal ? FieldPrompt.ask : nil)

        // The body, from the first source that applies.
        let body = try TextInput.read(message: message, edit: edit, start: prepared, diary: diary)
        draft.body = body
        let rel = try EntryWriter.commitNew(draft, in: diary, attachments: attach.map { URL(fileURLWithPath: $0, relativeTo: global.workingDirectory) },
                                            strokes: strokes)
        Terminal.out(diary.displayPath(rel))
        global.confirm("daybook: saved \(diary.displayPath(rel))")
    }
}
