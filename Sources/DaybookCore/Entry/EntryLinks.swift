// Links between entries: what a link is, where it leads, and what `check` says of one that leads nowhere.
import Foundation

/// Where a link in an entry's body leads.
public enum LinkTarget: Equatable, Sendable {
    /// An entry's file (relative to the diary) and what followed its path or id (`#part`).
    case entry(path: String, fragment: String)
    /// A file in an entry's attachment folder (`entries/YYYY/MM/ID/NAME`).
    case attachment(path: String)
    /// No entry: no id or id prefix like it (`[[…]]`), or no entry file at the path (nil for `[[…]]`).
    case noEntry(path: String?)
    /// No file at an attachment's path.
    case noAttachment(path: String)
    /// A prefix that starts the ids of several entries (their paths, by id).
    case ambiguous(paths: [String])
    /// A relative path that leads out of the entries and their attachments (`../../../../etc/passwd`):
    /// never followed, never read.
    case outside(path: String?)

    /// Whether the link leads to an entry or an attachment that is there.
    public var isResolved: Bool {
        switch self {
        case .entry, .attachment: return true
        default: return false
        }
    }
}

/// One link of an entry: `[[ID]]`, `[[ID|label]]`, or a relative Markdown link or image that
/// leads into the diary's entries.
public struct EntryLink: Equatable, Sendable {
    public var form: MarkdownLink.Form
    /// As written: the id or prefix of `[[…]]` (with `#part`), the destination of a Markdown link.
    public var written: String
    /// The text a reader sees: the label after `|`, the link's text (empty for `[[ID]]`).
    public var label: String
    /// Where it is in the entry's file: line, column and end (Unicode scalars, 1-based, end after
    /// the last character); the path is the entry's.
    public var range: SourceLocation
    /// The same as UTF-8 offsets into the body.
    public var bodyOffsets: Range<Int>
    public var target: LinkTarget
}

/// The one rule for links between entries, which `show`, `links`, `check`, `export html`, the
/// language server and the web app all call. Entry ids are listed once, when a `[[…]]` names
/// one by a prefix.
public final class EntryLinks {
    public let diary: Diary
    private let entryPaths: () -> [String]
    private var byID: [(id: String, path: String)]?
    /// What each `[[…]]` written so far named: a body that repeats a link looks it up once.
    private var named: [String: LinkTarget] = [:]
    /// `check` finds links on every core: the look-ups above are made one at a time.
    private let lock = NSLock()

    /// `entryPaths` lists the diary's entry files (relative paths) when a prefix must be looked up.
    public init(_ diary: Diary, entryPaths: (() -> [String])? = nil) {
        self.diary = diary
        self.entryPaths = entryPaths ?? { diary.entryFiles() }
    }

    // MARK: Finding them

    /// The links of an entry (its body must be loaded).
    public func links(of e: Entry) -> [EntryLink] {
        links(inBody: e.body, ofEntry: e.path, bodyStartLine: e.bodyStartLine)
    }

    /// The links of a body; `bodyStartLine` is the line of the file the body starts on.
    public func links(inBody body: String, ofEntry rel: String, bodyStartLine: Int) -> [EntryLink] {
        guard EntryLinks.mayHaveLinks(body.utf8) else { return [] }
        let lines = BodyLines(body)
        return Markdown.links(body).compactMap { m in
            let written = m.destination
            guard let target = m.form == .wiki ? resolve(id: written) : resolve(url: written, from: rel) else { return nil }
            let offsets = lines.offsets(of: m)
            var range = SourceLocation(path: diary.displayPath(rel))
            (range.line, range.column) = lines.position(offsets.lowerBound, firstLine: bodyStartLine)
            (range.endLine, range.endColumn) = lines.position(offsets.upperBound, firstLine: bodyStartLine)
            return EntryLink(form: m.form, written: written, label: m.label, range: range, bodyOffsets: offsets, target: target)
        }
    }

    /// Whether a text may hold a link at all (`[[`, `](` or a reference's `]:`): most bodies
    /// have none, and are not parsed.
    static func mayHaveLinks<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        if let found = bytes.withContiguousStorageIfAvailable({ mayHaveLinks(UnsafeRawBufferPointer($0)) }) { return found }
        return Array(bytes).withUnsafeBytes { mayHaveLinks($0) }
    }

    /// The same over memory, with memchr: a body is read at the speed of the file system.
    static func mayHaveLinks(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, buffer.count > 1 else { return false }
        for (mark, next) in [(UInt8(ascii: "["), [UInt8(ascii: "[")]), (UInt8(ascii: "]"), [UInt8(ascii: "("), UInt8(ascii: ":")])] {
            var at = 0
            while at < buffer.count - 1, let hit = memchr(base + at, Int32(mark), buffer.count - 1 - at) {
                let i = base.distance(to: hit)
                if next.contains(buffer[i + 1]) { return true }
                at = i + 1
            }
        }
        return false
    }

    // MARK: Where they lead

    /// What `[[ID]]` names: the entry with that id, else the one entry whose id starts with it.
    public func resolve(id written: String) -> LinkTarget {
        lock.lock()
        defer { lock.unlock() }
        if let known = named[written] { return known }
        let target = lookUp(id: written)
        named[written] = target
        return target
    }

    private func lookUp(id written: String) -> LinkTarget {
        let hash = written.firstIndex(of: "#") ?? written.endIndex
        let id = String(written[..<hash]).trimmingCharacters(in: .whitespaces), fragment = String(written[hash...])
        guard !id.isEmpty, !id.contains("/") else { return .noEntry(path: nil) }
        if let rel = EntryReference(diary).whereFiled(id) { return .entry(path: rel, fragment: fragment) }
        let ids = sortedIDs()
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        var matches: [String] = []
        var k = lo
        while k < ids.count, ids[k].id.hasPrefix(id) {
            if ids[k].id == id { return .entry(path: ids[k].path, fragment: fragment) }
            matches.append(ids[k].path)
            k += 1
        }
        if matches.count == 1 { return .entry(path: matches[0], fragment: fragment) }
        return matches.isEmpty ? .noEntry(path: nil) : .ambiguous(paths: matches)
    }

    private func sortedIDs() -> [(id: String, path: String)] {
        if let byID { return byID }
        let list = entryPaths().map { (id: Entry.id(ofPath: $0), path: $0) }.sorted { $0.id < $1.id }
        byID = list
        return list
    }

    /// Where a Markdown link of the entry at `rel` leads; nil when it is none of the diary's (a
    /// web address, an anchor, an absolute path). Files are looked at, never read, and nothing
    /// outside the diary is looked at.
    public func resolve(url: String, from rel: String) -> LinkTarget? {
        switch EntryLinks.place(url, from: rel) {
        case .elsewhere: return nil
        case .outside: return .outside(path: nil)
        case let .inDiary(path, fragment):
            if Diary.isEntryPath(path) {
                return diary.isRegularFile(path) ? .entry(path: path, fragment: fragment) : .noEntry(path: path)
            }
            guard Attachments.isAttachmentPath(path) else { return .outside(path: path) }
            return diary.isRegularFile(path) ? .attachment(path: path) : .noAttachment(path: path)
        }
    }

    /// Where a link's destination points, relative to the entry file's folder.
    public enum Place: Equatable {
        /// A web address, an absolute path, an anchor in the page: not the diary's business.
        case elsewhere
        /// A relative path that climbs out of the diary's folder.
        case outside
        /// A path below the diary (percent escapes undone) and what followed it (`#…`, `?…`).
        case inDiary(path: String, fragment: String)
    }

    public static func place(_ url: String, from entryPath: String) -> Place {
        guard !url.isEmpty, !url.hasPrefix("#"), !url.hasPrefix("/"),
              url.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) == nil else { return .elsewhere }
        let cut = url.firstIndex(where: { $0 == "#" || $0 == "?" }) ?? url.endIndex
        guard let relative = String(url[..<cut]).removingPercentEncoding, !relative.isEmpty else { return .elsewhere }
        var parts = entryPath.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return .outside }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return .inDiary(path: parts.joined(separator: "/"), fragment: String(url[cut...]))
    }

    // MARK: What check says

    /// `check`'s findings for an entry's links (its body must be loaded): a warning for each that
    /// leads to nothing, to several entries, or out of the entries, at the link's range.
    public func problems(of e: Entry) -> [Diagnostic] {
        links(of: e).compactMap { link in link.problem.map { Diagnostic(.warning, $0, at: link.range) } }
    }
}

extension EntryLink {
    /// What is wrong with the link, in `check`'s words; nil when it leads somewhere.
    public var problem: String? {
        let shown = form == .wiki ? "[[\(written)]]" : "`\(written)`"
        switch target {
        case .entry, .attachment:
            return nil
        case .noEntry(nil):
            return "link \(shown) leads to nothing: no entry has this id or an id that starts with it"
        case let .noEntry(path?):
            return "link \(shown) leads to nothing: there is no entry file \(path)"
        case let .noAttachment(path):
            return "link \(shown) leads to nothing: there is no attachment \(path)"
        case let .ambiguous(paths):
            let ids = paths.prefix(5).map { Entry.id(ofPath: $0) }.joined(separator: ", ")
            return "link \(shown) names \(paths.count) entries (\(ids)\(paths.count > 5 ? ", …" : "")): write more of the id"
        case .outside:
            return "link \(shown) leads out of the diary's entries and their attachments: daybook does not follow it"
        }
    }
}

/// A body's line starts, to turn cmark's lines and byte columns into offsets and positions.
private struct BodyLines {
    let bytes: [UInt8]
    let starts: [Int]

    init(_ body: String) {
        bytes = Array(body.utf8)
        starts = Markdown.lineStarts(bytes)
    }

    func offset(line: Int, byteColumn: Int) -> Int {
        guard line >= 1, line <= starts.count else { return line < 1 ? 0 : bytes.count }
        return min(bytes.count, starts[line - 1] + max(0, byteColumn - 1))
    }

    /// The link's UTF-8 offsets in the body.
    func offsets(of m: MarkdownLink) -> Range<Int> {
        let lo = offset(line: m.startLine, byteColumn: m.startColumn)
        return lo..<max(lo, offset(line: m.endLine, byteColumn: m.endColumn + 1))
    }

    /// A file line and a column in Unicode scalars, both 1-based, of an offset.
    func position(_ offset: Int, firstLine: Int) -> (Int, Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let scalars = bytes[starts[lo]..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (firstLine + lo, scalars + 1)
    }
}
