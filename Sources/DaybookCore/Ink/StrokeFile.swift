// A stroke file (`<id>.strokes.json`, SPEC §1.4): canvas, channels and strokes of one entry.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct StrokeFile: Equatable, Sendable {
    public struct Canvas: Equatable, Sendable {
        public var width: Double
        public var height: Double
        public var unit: String?

        public init(width: Double, height: Double, unit: String? = nil) {
            self.width = width
            self.height = height
            self.unit = unit
        }
    }

    public static let format = "daybook-strokes"
    public static let version = 1
    /// The channels a file without a `channels` key has (the order of SPEC §1.4).
    public static let defaultChannels = ["x", "y", "t", "force", "azimuth", "altitude"]
    public static let knownChannels = Set(defaultChannels)

    public var canvas: Canvas?
    public var channels: [String]
    public var strokes: [Stroke]
    /// Header keys daybook does not know, kept in order.
    public var extra: [(String, JSONValue)]

    public init(canvas: Canvas? = nil, channels: [String] = StrokeFile.defaultChannels, strokes: [Stroke] = [],
                extra: [(String, JSONValue)] = []) {
        self.canvas = canvas
        self.channels = channels
        self.strokes = strokes
        self.extra = extra
    }

    public static func == (a: StrokeFile, b: StrokeFile) -> Bool {
        a.canvas == b.canvas && a.channels == b.channels && a.strokes == b.strokes && JSONValue.object(a.extra) == JSONValue.object(b.extra)
    }

    /// The sidecar path of an entry file (`entries/2026/11/<id>.md` → `…/<id>.strokes.json`).
    public static func path(ofEntry rel: String) -> String {
        (rel.hasSuffix(".md") ? String(rel.dropLast(3)) : rel) + ".strokes.json"
    }

    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// Milliseconds the pen was down: the sum of the strokes' durations.
    public var penTime: Double { strokes.reduce(0) { $0 + $1.duration } }

    /// The strokes that carry a code, as codings of the entry.
    public var codings: [Coding] {
        strokes.enumerated().compactMap { i, s in s.code.map { Coding(code: $0, source: .ink(stroke: i)) } }
    }

    /// Renames a code on every stroke that carries it (for `code rename` and `code merge`, which
    /// change every coding); returns how many strokes changed. Writing the file back with
    /// `StrokeFileWriter` then changes only those strokes' lines.
    @discardableResult
    public mutating func renameCode(_ old: String, to new: String) -> Int {
        var n = 0
        for i in strokes.indices where strokes[i].code == old {
            strokes[i].code = new
            n += 1
        }
        return n
    }

    /// Adds another file's strokes. Channels this file lacks are appended to its list, so the
    /// points already written stay valid as they are (they just stop early).
    public mutating func append(_ other: StrokeFile) {
        for c in other.channels where !channels.contains(c) { channels.append(c) }
        for i in strokes.indices where strokes[i].points.channels != channels {
            strokes[i].points = strokes[i].points.mapped(to: channels)
        }
        for s in other.strokes {
            var s = s
            s.points = s.points.mapped(to: channels)
            strokes.append(s)
        }
        if canvas == nil { canvas = other.canvas }
    }

    /// The stroke file of an entry (nil when it has none) and its bytes (with a 0 byte after
    /// them); a broken one throws its first problem.
    public static func load(entry rel: String, in diary: Diary) throws -> (file: StrokeFile, bytes: [UInt8])? {
        let inkRel = path(ofEntry: rel)
        // A linked stroke file is never followed (it may lead out of the diary); check lists it.
        guard diary.symbolicLink(on: inkRel) == nil, let bytes = read(diary.url(inkRel)) else { return nil }
        let outcome = StrokeFileParser(path: diary.displayPath(inkRel)).parse(bytes: bytes)
        guard let file = outcome.file else {
            throw outcome.problems.first ?? DaybookError.input("broken stroke file", at: SourceLocation(path: diary.displayPath(inkRel)))
        }
        return (file, bytes)
    }

    /// A file's bytes followed by a 0 byte, read straight into one array: a stroke file of a
    /// million points is 40 MB, and Data plus a copy would double that.
    public static func read(_ url: URL) -> [UInt8]? { read(path: url.path) }

    /// `followingLinks` false: nil when the last part of `path` is a symbolic link, or the file is
    /// not a regular file (a pipe is not waited on).
    public static func read(path: String, followingLinks: Bool = true) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW | O_NONBLOCK))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, followingLinks || st.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var filled = 0
        while filled < bytes.count - 1 {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - 1 - filled) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            filled += n
        }
        if filled < bytes.count - 1 { bytes.removeLast(bytes.count - 1 - filled); bytes[filled] = 0 }
        return bytes
    }

    /// Reads a file given to `ink add` or `new --ink`: InkML by its extension or its first
    /// character, else a daybook stroke file. Throws the first problem; warnings are returned.
    public static func importing(_ url: URL, displayPath: String) throws -> (file: StrokeFile, warnings: [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: displayPath))
        }
        let firstByte = data.first { !" \t\r\n".utf8.contains($0) }
        if url.pathExtension.lowercased() == "inkml" || firstByte == UInt8(ascii: "<") {
            return try InkMLReader(path: displayPath).read(data)
        }
        let outcome = StrokeFileParser(path: displayPath).parse(data)
        if var first = outcome.problems.first {
            let more = outcome.problems.count - 1
            if more > 0 { first.message += " (and \(more) more problem\(more == 1 ? "" : "s") in the file)" }
            throw first
        }
        guard let file = outcome.file else { throw DaybookError.input("not a stroke file", at: SourceLocation(path: displayPath)) }
        return (file, [])
    }
}
