// `daybook lsp`: the language server for entries, on stdin and stdout.
import ArgumentParser
import DaybookLanguageServer
import Foundation

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the language server (LSP 3.17 on stdin/stdout) that editors start for entries.",
        discussion: """
        An editor starts it and talks to it: diagnostics as `check` finds them while you type, \
        completion of keys, tags, codes and field options, "Code as …" on a selection, inlay hints \
        naming coded segments, hover, go to definition, workspace symbols, and a commit on save \
        (`lsp: {commit_on_save: false}` in daybook.yml turns it off). Each file's diary is found \
        from the file's own path. See `man daybook-lsp` for editor setups.
        """)

    func run() throws {
        let status = LanguageServer().run()
        if status != 0 { throw ExitCode(status) }
    }
}
