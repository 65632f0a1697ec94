// The one rule for names an import turns into paths, and for files it reads: one component, inside the export.
import Foundation

/// Every name an import takes from its input and makes into a path (a Day One photo's `md5`,
/// `type` and `identifier`, a `template`, a file under the folder imported) passes here before
/// anything is read or written. A bad name stops the import with the file and the record named,
/// so an export can neither write outside the diary nor pull in a file from outside itself.
public enum ImportPath {
    /// Why `name` is not a single path component, or nil when it is one: not empty, no `/` (so not
    /// absolute), no NUL, and neither `.` nor `..`.
    public static func problem(component name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.hasPrefix("/") { return "is an absolute path" }
        if name.contains("\0") { return "holds a NUL character" }
        if name.contains("/") { return "holds a `/`" }
        if name == "." || name == ".." { return "is `\(name)`" }
        return nil
    }

    /// `name` when it is a single path component; else the import's error naming the file, the record and the field.
    @discardableResult
    public static func component(_ name: String, file: String, record: String, field: String, line: Int? = nil) throws -> String {
        guard let problem = problem(component: name) else { return name }
        throw malformed(file, record, field, "\(JSONValue.string(name).serialized()) \(problem): it must be one file name", line: line)
    }

    /// Where a file an import would read stands.
    public enum Source: Equatable {
        /// It is there, and with every symlink resolved it stays inside the export (its real path).
        case inside(String)
        /// Nothing is there (or a link to nothing).
        case missing
        /// It resolves outside the export (to this real path).
        case outside(String)
    }

    /// Where `url` stands against `root`, the export being read, both with symlinks resolved.
    public static func source(_ url: URL, root: URL) -> Source {
        guard let real = realPath(url.path) else { return .missing }
        let top = realPath(root.path) ?? root.standardizedFileURL.path
        return real == top || real.hasPrefix(top.hasSuffix("/") ? top : top + "/") ? .inside(real) : .outside(real)
    }

    /// `url` when it resolves inside `root`; nil when it is missing; the import's error when it leads outside.
    public static func checkedSource(_ url: URL, root: URL, file: String, record: String, field: String?, line: Int? = nil) throws -> URL? {
        switch source(url, root: root) {
        case .missing: return nil
        case let .inside(real): return URL(fileURLWithPath: real)
        case let .outside(real):
            throw malformed(file, record, field, "`\(url.path)` leads outside the export (to `\(real)`); an import reads only files inside it", line: line)
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
