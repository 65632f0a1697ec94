// `daybook template show NAME`: a template's file as daybook uses it.
import ArgumentParser
import DaybookCore

struct TemplateShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a template's file (the diary's own when it overrides the built-in).",
        discussion: "To adapt a built-in: daybook template show memo > DIARY/templates/memo.md, then edit that file.")

    @Argument(help: "The template's name.", completion: Completions.templates) var name: String
    @Flag(help: "A JSON object with the parsed fields and the body.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let template = try TemplateLibrary(diary: diary).require(name)
        if json {
            Terminal.out(template.json(includeBody: true).serialized(pretty: true))
        } else {
            Terminal.out(template.text, terminator: template.text.hasSuffix("\n") ? "" : "\n")
        }
    }
}
