// Asking for a template field in a terminal: the question and its limits and default on stderr, the answer from stdin.
import DaybookCore
import Foundation

enum FieldPrompt {
    /// One prompt; when the last answer was refused, says why first. Returns nil at end of input.
    static func ask(_ field: TemplateField, rejection: FieldRejection?) -> String? {
        if let rejection { Terminal.message("  \(field.name): \(rejection.reason); try again") }
        var question = field.prompt ?? field.name
        if let help = field.help { Terminal.message("  " + help) }
        var hint = field.hint
        if let example = field.placeholder { hint += (hint.isEmpty ? "" : "; ") + "e.g. " + example }
        if !hint.isEmpty { question += " (\(hint))" }
        if let d = field.defaultValue { question += " [\(display(d))]" }
        else if !field.required { question += " [skip]" }
        Terminal.flush()
        FileHandle.standardError.write(Data((question + ": ").utf8))
        return readLine(strippingNewline: true)
    }

    /// A yes-or-no question: Enter takes `default`; y, yes, n, no (any case) answer; anything
    /// else asks again, saying what is taken. The end of input is no.
    static func yesNo(_ question: String, default yes: Bool) -> Bool {
        while true {
            Terminal.writeErr(question + (yes ? " [Y/n] " : " [y/N] "))
            guard let line = readLine() else { return false }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "": return yes
            case "y", "yes": return true
            case "n", "no": return false
            default: Terminal.writeErr("Please answer y or n.\n")
            }
        }
    }

    /// Before the first question: every `--set` value that does not fit, at once; each is then
    /// asked again in its turn.
    static func sayRefused(_ template: Template, draft: EntryDraft) {
        let refused = TemplateFill.givenRejections(template, draft: draft)
        guard !refused.isEmpty else { return }
        Terminal.message("daybook: \(refused.count == 1 ? "a value" : "\(refused.count) values") given with --set \(refused.count == 1 ? "does" : "do") not fit; asked again below:")
        for line in refused { Terminal.message("  " + line) }
    }

    static func display(_ v: JSONValue) -> String {
        if case let .array(items) = v { return items.compactMap(\.stringValue).joined(separator: ", ") }
        if case let .bool(b) = v { return b ? "yes" : "no" }
        return v.stringValue ?? ""
    }
}
