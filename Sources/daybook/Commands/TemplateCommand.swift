// `daybook template`: the templates new entries start from.
import ArgumentParser

struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template",
        abstract: "List and show the templates entries start from.",
        discussion: """
        Built-in templates ship inside daybook; a diary's own templates/NAME.md overrides the built-in \
        of the same name. See `man daybook-template` and, for the file format, `man 5 daybook-template`.
        """,
        subcommands: [TemplateLs.self, TemplateShow.self],
        defaultSubcommand: TemplateLs.self)
}
