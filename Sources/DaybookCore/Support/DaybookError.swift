// The one error type the core throws: what went wrong, where, and which exit status it means.
import Foundation

/// A place in a file: the path as the user should see it, 1-based line and column when known.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var column: Int?
    /// Where what is meant ends (a link's last character and one more), when it is known: an
    /// editor marks the range; the description names only the start.
    public var endLine: Int?
    public var endColumn: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column:` with the parts that are known.
    public var description: String {
        var s = path
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        }
        return s
    }
}

public struct DaybookError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public enum Kind: Equatable, Sendable {
        /// The command line is wrong (exit 2).
        case usage
        /// A file or an argument holds something daybook cannot accept (exit 2).
        case input
        /// Reading or writing a file failed (exit 2).
        case io
        /// A libgit2 call failed (exit 2).
        case git
        /// Nothing to do or nothing found (exit 1).
        case nothing
    }

    public var kind: Kind
    public var message: String
    public var location: SourceLocation?

    public init(_ kind: Kind, _ message: String, at location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    public static func usage(_ m: String) -> DaybookError { DaybookError(.usage, m) }
    public static func input(_ m: String, at l: SourceLocation? = nil) -> DaybookError { DaybookError(.input, m, at: l) }
    public static func io(_ m: String, at l: SourceLocation? = nil) -> DaybookError { DaybookError(.io, m, at: l) }
    public static func nothing(_ m: String) -> DaybookError { DaybookError(.nothing, m) }

    public var exitStatus: Int32 { kind == .nothing ? 1 : 2 }

    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }

    public var errorDescription: String? { description }
}

/// A problem that a reading command skips with a warning, and `check` lists.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    /// The code this is about when it is missing from the codebook, so that a face can offer to
    /// define it (the language server's quick fix).
    public var undefinedCode: String?
    /// Codebook names close to `undefinedCode`, best first.
    public var closeNames: [String] = []

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public init(_ error: DaybookError, severity: Severity = .warning) {
        self.init(severity, error.message, at: error.location)
    }

    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}
