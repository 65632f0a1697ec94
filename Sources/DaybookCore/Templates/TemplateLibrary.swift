// Finding templates: the built-ins shipped as resources, and the diary's own `templates/NAME.md`, which win.
import Foundation

public struct TemplateLibrary {
    /// The diary's templates folder; nil for the built-ins alone.
    public var folder: URL?
    /// How a diary file is named in messages.
    var display: (String) -> String

    public init(diary: Diary) {
        folder = diary.templatesFolder
        display = { diary.displayPath($0) }
    }

    /// The built-ins alone, or a templates folder outside a diary (tests).
    public init(folder: URL? = nil) {
        self.folder = folder
        display = { $0 }
    }

    /// The folder the built-in templates ship in: the resource bundle SwiftPM puts beside the
    /// executable. Looked up by hand rather than through `Bundle.module`, which stops the program
    /// when the bundle is missing (a binary copied without it): then there are no built-ins.
    static let builtinFolder: URL? = builtinPlaces.first { FileManager.default.fileExists(atPath: $0.path) }

    /// Where the built-in templates are looked for, in order.
    static let builtinPlaces: [URL] = {
        let bundleName = "daybook_DaybookCore.resources"
        var bases: [URL] = []
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() { bases.append(exe.deletingLastPathComponent()) }
        bases.append(Bundle.main.bundleURL)
        if let r = Bundle.main.resourceURL { bases.append(r) }
        var seen = Set<String>()
        return bases.map { $0.appendingPathComponent(bundleName).appendingPathComponent("Builtin") }.filter { seen.insert($0.path).inserted }
    }()

    /// When the built-in templates cannot be found (a binary copied without the resource folder
    /// SwiftPM puts beside it): what is missing and where it was looked for; nil when they are there.
    public static var builtinsMissing: String? {
        guard builtinFolder == nil else { return nil }
        return "daybook's built-in templates are missing (looked for " + builtinPlaces.map(\.path).joined(separator: ", ")
            + "): copy daybook_DaybookCore.resources from the build folder beside the daybook binary"
    }

    public static var builtinNames: [String] { names(in: builtinFolder) }

    static func names(in folder: URL?) -> [String] {
        guard let folder, let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return files.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.filter(Template.isValidName).sorted()
    }

    /// The template called `name`: the diary's own, else the built-in; nil when neither exists.
    public func template(named name: String) throws -> Template? {
        guard Template.isValidName(name) else {
            throw DaybookError.usage("`\(name)` is not a template name: use letters, digits, _ and -")
        }
        if let folder {
            let url = folder.appendingPathComponent(name + ".md")
            let rel = "templates/\(name).md"
            try TemplateLibrary.refuseLink(folder, rel: "templates", display: display)
            try TemplateLibrary.refuseLink(url, rel: rel, display: display)
            if FileManager.default.fileExists(atPath: url.path) {
                return try TemplateLibrary.read(url, name: name, origin: .diary(rel), path: display(rel))
            }
        }
        guard let builtin = TemplateLibrary.builtinFolder?.appendingPathComponent(name + ".md"),
              FileManager.default.fileExists(atPath: builtin.path) else { return nil }
        return try TemplateLibrary.read(builtin, name: name, origin: .builtin, path: "builtin:\(name).md")
    }

    /// A diary's template is never read through a symbolic link (`Diary.symbolicLinkMessage`).
    static func refuseLink(_ url: URL, rel: String, display: (String) -> String) throws {
        var st = stat()
        if lstat(url.path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK {
            throw DaybookError.input(Diary.symbolicLinkMessage, at: SourceLocation(path: display(rel)))
        }
    }

    /// The template called `name`, or an error listing the ones there are.
    public func require(_ name: String) throws -> Template {
        if let t = try template(named: name) { return t }
        let known = allNames
        let close = known.filter { editDistance($0, name) <= 2 }
        let hint = close.isEmpty ? "" : " (did you mean \(close.map { "`\($0)`" }.joined(separator: ", "))?)"
        if let missing = TemplateLibrary.builtinsMissing { throw DaybookError.io("no template `\(name)`: \(missing)") }
        throw DaybookError.usage("no template `\(name)`\(hint); the templates are: \(known.joined(separator: ", "))")
    }

    /// Every template name, built-in and the diary's own, sorted.
    public var allNames: [String] { Array(Set(TemplateLibrary.builtinNames + TemplateLibrary.names(in: folder))).sorted() }

    /// Every template, sorted by name; a diary template that does not parse becomes a problem.
    public func all(problems: inout [Diagnostic]) -> [Template] {
        var out: [Template] = []
        for name in allNames {
            do { if let t = try template(named: name) { out.append(t) } } catch let e as DaybookError {
                problems.append(Diagnostic(e, severity: .error))
            } catch { problems.append(Diagnostic(.error, "\(error)", at: SourceLocation(path: name))) }
        }
        return out
    }

    static func read(_ url: URL, name: String, origin: Template.Origin, path: String) throws -> Template {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DaybookError.io("cannot read the template", at: SourceLocation(path: path))
        }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: path) }
        return try Template.parse(text, name: name, origin: origin, path: path)
    }
}
