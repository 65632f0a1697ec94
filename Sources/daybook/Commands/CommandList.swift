// Every subcommand, in the order `daybook --help` lists them.
import ArgumentParser

/// Each subcommand by the name a command line calls it by. The names are written out, not derived,
/// so that `Daybook.narrowed(to:)` finds the one command a line names without asking each type for
/// its name (ArgumentParser derives a missing name from the type's description, a reflection lookup
/// per command at every start). Tests/e2e/test_startup.py checks every name against `daybook help`.
let commandTable: [(name: String, type: ParsableCommand.Type)] = [
    ("init", Init.self), ("new", New.self), ("append", Append.self), ("edit", Edit.self),
    ("show", Show.self), ("links", Links.self), ("ls", Ls.self), ("rm", Rm.self),
    ("attach", Attach.self), ("star", Star.self), ("unstar", Unstar.self), ("transcribe", Transcribe.self),
    ("tag", TagCommand.self), ("code", CodeCommand.self),
    ("grep", GrepCommand.self), ("stats", Stats.self), ("streak", StreakCommand.self),
    ("due", Due.self), ("fields", Fields.self),
    ("export", Export.self), ("import", Import.self), ("ink", Ink.self),
    ("log", Log.self), ("undo", Undo.self), ("restore", Restore.self), ("purge", Purge.self),
    ("sync", Sync.self), ("key", KeyCommand.self), ("check", Check.self),
    ("study", StudyCommand.self),
    ("template", TemplateCommand.self), ("remind", RemindCommand.self), ("serve", Serve.self),
    ("lsp", Lsp.self),
]

let commandList: [ParsableCommand.Type] = commandTable.map(\.type)
