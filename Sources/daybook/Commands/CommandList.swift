// Every subcommand, in the order `daybook --help` lists them.
import ArgumentParser

let commandList: [ParsableCommand.Type] = [
    Init.self, New.self, Edit.self, Show.self, Ls.self, Rm.self, Attach.self,
    Export.self, Import.self,
    Log.self, Undo.self, Restore.self, Check.self,
]
