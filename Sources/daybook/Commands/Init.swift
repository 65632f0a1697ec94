// `daybook init`: create a diary.
import ArgumentParser
import DaybookCore
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a diary: folder, daybook.yml, .gitignore and a git repository with a first commit.",
        discussion: "On an existing diary it says so and exits 0.")

    @Argument(help: ArgumentHelp("Where (default: the diary daybook would use: --diary, $DAYBOOK_DIR, ~/daybook).", valueName: "path"))
    var path: String?

    @Option(help: "The diary's name, written to daybook.yml.")
    var name: String?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        Terminal.configure(color: global.color)
        let url: URL
        if let path { url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL }
        else { url = Diary.locate(explicit: global.diary, environment: global.environment, workingDirectory: global.workingDirectory).url }
        if try Diary.create(at: url, name: name) {
            global.confirm("daybook: created a diary at \(url.path)")
        } else {
            global.confirm("daybook: \(url.path) is a diary already")
        }
    }
}
