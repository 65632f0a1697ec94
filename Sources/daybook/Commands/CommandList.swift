// Every subcommand, in the order `daybook --help` lists them.
import ArgumentParser

let commandList: [ParsableCommand.Type] = [
    Init.self, New.self, Append.self, Edit.self, Show.self, Links.self, Ls.self, Rm.self, Attach.self, Star.self, Unstar.self, Transcribe.self,
    TagCommand.self, CodeCommand.self,
    GrepCommand.self, Stats.self, StreakCommand.self, Due.self, Fields.self,
    Export.self, Import.self, Ink.self,
    Log.self, Undo.self, Restore.self, Purge.self, Sync.self, KeyCommand.self, Check.self,
    StudyCommand.self,
    TemplateCommand.self, RemindCommand.self, Serve.self, Lsp.self,
]
