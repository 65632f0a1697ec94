// Where a command's text comes from: -m, else stdin when it is not a terminal, else the editor.
import DaybookCore
import Foundation

enum TextInput {
    /// The text, from the first source that applies: `message` (opened in the editor too with
    /// --edit in a terminal); else stdin when it is not a terminal (`start` when stdin is blank);
    /// else, with --no-edit, `start`; else the editor opened on `start`. With a `start` text the
    /// editor left untouched nothing is to be saved (an error, exit 1), unless `answered`: answers
    /// given at the template's prompts are kept with the text as the template has it.
    static func read(message: String?, edit: Bool?, start: String?, diary: Diary, answered: Bool = false) throws -> String {
        if let text = withoutAsking(message: message, edit: edit, start: start) { return text }
        if let message { return try Editor.edit(text: message, diary: diary) }
        let text = try Editor.edit(text: start ?? "", diary: diary)
        if let start, text == start, !answered { throw DaybookError.nothing("daybook: the template was left untouched; nothing saved") }
        return text
    }

    /// Stdin, when an ENTRY argument is `-` (the entries are listed there, one a line); else "".
    /// Read before a change takes the diary's lock, so a slow producer never holds it.
    static func entryNames(if arguments: [String]) -> String {
        arguments.contains("-") ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : ""
    }

    /// The text as `read` gives it when no editor is to be opened for it; nil when one is.
    static func withoutAsking(message: String?, edit: Bool?, start: String?) -> String? {
        if let message { return edit == true && Terminal.stdinIsTerminal ? nil : message }
        if !Terminal.stdinIsTerminal {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let start { return start }
            return text
        }
        return edit == false ? start ?? "" : nil
    }
}
