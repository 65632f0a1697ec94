// `daybook template ls`: every template with its description and where it comes from.
import ArgumentParser
import DaybookCore

struct TemplateLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the templates: name, description, where it comes from (built-in or the diary's file).",
        discussion: "A diary template that does not parse is listed as a warning and skipped; the exit status is then 2, as it is when the built-in templates are missing (a binary copied without its resource folder).")

    @Flag(help: "A JSON array of {name, description, origin, path, tags, fields}.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        var problems: [Diagnostic] = []
        let templates = TemplateLibrary(diary: diary).all(problems: &problems)
        if json {
            Terminal.out(JSONValue.array(templates.map { $0.json() }).serialized(pretty: true))
        } else {
            let width = templates.map(\.name.count).max() ?? 0
            for t in templates {
                let name = t.name.padding(toLength: width, withPad: " ", startingAt: 0)
                Terminal.out("\(Terminal.bold(name))  \(t.description ?? "")  \(Terminal.dim("(\(t.originDescription))"))")
            }
        }
        Terminal.warnings(problems)
        // Listing only the diary's own would be a silent half answer.
        if let missing = TemplateLibrary.builtinsMissing { throw DaybookError.io(missing) }
        if !problems.isEmpty { throw DaybookError.input("\(problems.count) template\(problems.count == 1 ? "" : "s") could not be read") }
    }
}
