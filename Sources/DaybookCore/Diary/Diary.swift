// A diary: its folder, its settings, its entries on disk and its repository.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public final class Diary {
    /// The diary folder (symlinks resolved).
    public let root: URL
    public let config: DiaryConfig
    /// The current time and the diary's time zone. A command's diary tells the moment it opened
    /// (one command, one "now"); a diary kept by a server (`LiveDiary`) asks the clock each time,
    /// so a server left running for days writes the real time (issues 40, 41).
    public var clock: Clock {
        guard let clockEnvironment else { return openedClock }
        return (try? Clock.fromEnvironment(clockEnvironment, timeZone: config.timeZone)) ?? Clock(now: Date(), timeZone: config.timeZone)
    }
    private let openedClock: Clock
    /// Set on a server's diary: the environment the clock is asked with (`DAYBOOK_NOW`, else the
    /// system clock) at every read of `clock`.
    private var clockEnvironment: [String: String]?
    /// The folder paths are shown relative to (the current directory).
    public let workingDirectory: URL
    /// Mood scales of templates that declare their own (see EntryParser).
    public let templateMoodScales: TemplateMoodScales
    /// How a path below the root is shown: this, then the path (see `displayPath`); nil when
    /// the working folder is inside the diary, where each path is worked out on its own.
    private let displayPrefix: String?
    /// The root's path with a slash: file paths for thousands of reads without URL work.
    let rootPrefix: String
    /// daybook.yml's stamp from before `open` read it (nil for settings given in memory). The
    /// cache's fingerprint takes it, so entries parsed under these settings are never filed
    /// under settings written after they were read.
    private(set) var configStamp: FileStamp?

    public var entriesFolder: URL { root.appendingPathComponent("entries") }
    public var stateFolder: URL { root.appendingPathComponent(".daybook") }
    public var configFile: URL { root.appendingPathComponent("daybook.yml") }
    public var codebookFile: URL { root.appendingPathComponent("codebook.yml") }
    public var templatesFolder: URL { root.appendingPathComponent("templates") }

    public static let gitignore = ".daybook/\n*" + AtomicFile.temporarySuffix + "\n"

    public init(root: URL, config: DiaryConfig, clock: Clock, workingDirectory: URL) {
        self.root = root
        self.config = config
        openedClock = clock
        self.workingDirectory = workingDirectory
        templateMoodScales = TemplateMoodScales(folder: root.appendingPathComponent("templates"))
        let cwd = workingDirectory.standardizedFileURL.path
        let inside = cwd.hasPrefix(root.path + "/") || workingDirectory.resolvingSymlinksInPath().path.hasPrefix(root.path + "/")
        displayPrefix = inside ? nil : String(Diary.displayPath(root.appendingPathComponent("x"), relativeTo: workingDirectory).dropLast())
        rootPrefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
    }

    // MARK: Finding and opening

    /// Where the diary is, in the order of SPEC §2: `--diary`, `DAYBOOK_DIR`, the nearest folder
    /// with a daybook.yml at or above the working directory, `~/daybook`.
    public static func locate(explicit: String?, environment env: [String: String], workingDirectory cwd: URL) -> (url: URL, isDefault: Bool) {
        if let explicit, !explicit.isEmpty { return (absolute(explicit, cwd), false) }
        if let dir = env["DAYBOOK_DIR"], !dir.isEmpty { return (absolute(dir, cwd), false) }
        var dir = cwd.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("daybook.yml").path) { return (dir, false) }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        let home = env["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return (home.appendingPathComponent("daybook"), true)
    }

    /// A path from the command line or a file made absolute against `cwd`, `~` expanded.
    public static func absolute(_ path: String, _ cwd: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded).standardizedFileURL
            : cwd.appendingPathComponent(expanded).standardizedFileURL
    }

    public static func exists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("daybook.yml").path)
    }

    /// The same diary (settings read once, as they were) whose clock is asked at every read:
    /// what a process that runs for long holds (`LiveDiary`).
    func ticking(environment env: [String: String]) -> Diary {
        let d = Diary(root: root, config: config, clock: openedClock, workingDirectory: workingDirectory)
        d.configStamp = configStamp
        d.clockEnvironment = env
        return d
    }

    /// Opens the diary at `url`, reading daybook.yml.
    public static func open(_ url: URL, environment env: [String: String], workingDirectory: URL) throws -> Diary {
        let root = url.resolvingSymlinksInPath()
        let configURL = root.appendingPathComponent("daybook.yml")
        let stamp = FileStamp.of(configURL.path)
        guard let data = FileManager.default.contents(atPath: configURL.path) else {
            throw DaybookError.input("no diary at \(url.path) (no daybook.yml there): create one with `daybook init \(url.path)`")
        }
        let display = displayPath(configURL, relativeTo: workingDirectory)
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        var config = try DiaryConfig.parse(text, path: display)
        if !text.contains("timezone:"), let tz = env["TZ"].flatMap(TimeZone.init(identifier:)) { config.timeZone = tz }
        let clock = try Clock.fromEnvironment(env, timeZone: config.timeZone)
        let diary = Diary(root: root, config: config, clock: clock, workingDirectory: workingDirectory)
        diary.configStamp = stamp
        return diary
    }

    /// Creates a diary: folder (0700), daybook.yml, .gitignore, a repository on the configured
    /// default branch, and a first commit. A diary folder without a repository (a copied folder)
    /// gets one, with everything in it committed. Returns false when it was a diary already.
    @discardableResult
    public static func create(at url: URL, name: String?) throws -> Bool {
        let root0 = url.resolvingSymlinksInPath()
        if exists(at: url) {
            if FileManager.default.fileExists(atPath: root0.appendingPathComponent(".git").path) { return false }
            let ignore = root0.appendingPathComponent(".gitignore")
            if !FileManager.default.fileExists(atPath: ignore.path) { try AtomicFile.write(gitignore, to: ignore) }
            let repo = try Repository.create(root0, branch: Repository.defaultBranchName())
            try repo.commit(paths: try repo.pendingChanges().map(\.path), message: "init: \(name ?? url.lastPathComponent) (existing files)")
            return true
        }
        try Repository.privately { try createPrivately(at: url, name: name) }
        return true
    }

    /// A new diary, written under the umask its repository's files get.
    private static func createPrivately(at url: URL, name: String?) throws {
        try AtomicFile.makeDirectory(url)
        let root = url.resolvingSymlinksInPath()
        let title = name ?? "My diary"
        let yml = """
        # daybook settings: see `man daybook` (every key is optional)
        name: \(YAMLWriter.scalar(title))
        week_start: monday
        mood: {min: 1, max: 5}
        streak: {goal: daily}
        id: \(DiaryConfig.newDiaryID())

        """
        try AtomicFile.write(yml, to: root.appendingPathComponent("daybook.yml"))
        let ignore = root.appendingPathComponent(".gitignore")
        if !FileManager.default.fileExists(atPath: ignore.path) { try AtomicFile.write(gitignore, to: ignore) }
        let repo: Repository
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) {
            repo = try Repository.open(root)
        } else {
            repo = try Repository.create(root, branch: Repository.defaultBranchName())
        }
        try repo.commit(paths: ["daybook.yml", ".gitignore"], message: "init: \(title)")
    }

    // MARK: Paths

    /// A path as the user should see it: relative to the working directory when the file is
    /// below it, else absolute.
    public static func displayPath(_ url: URL, relativeTo cwd: URL) -> String {
        let p = url.path, c = cwd.standardizedFileURL.path
        if c == "/" { return p }
        if p.hasPrefix(c + "/") { return String(p.dropFirst(c.count + 1)) }
        let real = cwd.resolvingSymlinksInPath().path
        if p.hasPrefix(real + "/") { return String(p.dropFirst(real.count + 1)) }
        return p
    }

    /// A path relative to the diary as the user should see it (listings show thousands: a plain
    /// relative path is joined to the root's shown form without asking the file system again).
    public func displayPath(_ relative: String) -> String {
        if let displayPrefix, Diary.isPlainRelative(relative) { return displayPrefix + relative }
        return Diary.displayPath(root.appendingPathComponent(relative), relativeTo: workingDirectory)
    }

    /// A path without `.` or `..` parts, empty parts or a leading or trailing slash: joined to the
    /// root as it is, it names the same file.
    static func isPlainRelative(_ path: String) -> Bool {
        var path = path // its bytes in place (iterating `utf8` was 1 % of a cold parse, one path per entry)
        return path.withUTF8 { bytes in
            var previous = UInt8(ascii: "/")
            for b in bytes {
                if previous == UInt8(ascii: "/") && (b == UInt8(ascii: "/") || b == UInt8(ascii: ".")) { return false }
                previous = b
            }
            return previous != UInt8(ascii: "/")
        }
    }

    public func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The relative path of an entry with this id and date.
    public static func entryPath(id: String, day: LocalDay) -> String {
        String(format: "entries/%04d/%02d/", day.year, day.month) + id + ".md"
    }

    /// Whether a path (relative to the diary) is an entry file: `entries/YYYY/MM/<id>.md`,
    /// not a conflict copy.
    public static func isEntryPath(_ rel: String) -> Bool {
        let parts = rel.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "entries" && isEntryFileName(parts[3])
    }

    /// Whether a file name in a month folder is an entry: `<id>.md`, not hidden, not a conflict
    /// copy (`<id>.conflict-<hash>.md`).
    static func isEntryFileName<S: StringProtocol>(_ name: S) -> Bool {
        isEntryFileName(Array(name.utf8))
    }

    static func isEntryFileName<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8, C.Index == Int {
        guard bytes.count > 3, bytes.first != UInt8(ascii: "."), bytes.suffix(3).elementsEqual(".md".utf8) else { return false }
        // Each `.` is looked at (a name has few), not every place (the walk asks of every name).
        let marker = Diary.conflictMarker
        var i = bytes.startIndex
        while i + marker.count <= bytes.endIndex {
            if bytes[i] == UInt8(ascii: "."), bytes[i..<(i + marker.count)].elementsEqual(marker) { return false }
            i += 1
        }
        return true
    }

    private static let conflictMarker = Array(".conflict-".utf8)

    public func repository() throws -> Repository {
        try Repository.open(root)
    }

    // MARK: Entries on disk

    /// Every month folder of entries/ (`entries/YYYY/MM`), sorted. Symbolic links are not
    /// followed (they may lead out of the diary); `check` lists them.
    func monthFolders() -> [String] {
        monthFolderStamps().map(\.dir)
    }

    /// The month folders (as `monthFolders`) with their stamps, from the lstat that tells each is a
    /// folder: a folder's stamp moves when a name in it comes, goes or is renamed.
    func monthFolderStamps() -> [(dir: String, stamp: FileStamp)] {
        var dirs: [(dir: String, stamp: FileStamp)] = []
        guard isRealFolder("entries"), let top = Directory(entriesFolder.path) else { return dirs }
        for y in top.names.sorted() where !y.hasPrefix(".") && top.isRealFolder(y) {
            guard let year = Directory(entriesFolder.path + "/" + y) else { continue }
            for m in year.names.sorted() where !m.hasPrefix(".") {
                if let st = year.lstat(m), st.st_mode & S_IFMT == S_IFDIR { dirs.append(("entries/\(y)/\(m)", FileStamp(st))) }
            }
        }
        return dirs
    }

    /// Whether `rel` is a folder reached without a symbolic link on the way.
    func isRealFolder(_ rel: String) -> Bool {
        symbolicLink(on: rel) == nil && Directory(rootPrefix + rel) != nil
    }

    /// The first part of `rel` (a path below the root) that is a symbolic link, if one is.
    public func symbolicLink(on rel: String) -> String? {
        var path = ""
        for part in rel.split(separator: "/") {
            path += path.isEmpty ? String(part) : "/" + part
            var st = stat()
            if lstat(rootPrefix + path, &st) != 0 { return nil }
            if st.st_mode & S_IFMT == S_IFLNK { return path }
        }
        return nil
    }

    /// Refuses to write or read `rel` through a symbolic link: one under entries/ could lead out
    /// of the diary (`entries/2025/02 -> /elsewhere`).
    public func checkNoSymbolicLink(_ rel: String) throws {
        if let link = symbolicLink(on: rel) { throw symbolicLinkRefusal(link) }
    }

    /// What every refusal to go through a symbolic link says (the web app answers it with 403).
    public static let symbolicLinkMessage = "is a symbolic link: daybook does not follow links inside the diary (replace it with the folder or file itself)"

    /// The refusal of `link` (a path below the root): the file as the user names it, and why.
    public func symbolicLinkRefusal(_ link: String) -> DaybookError {
        .input(Diary.symbolicLinkMessage, at: SourceLocation(path: displayPath(link)))
    }

    /// The bytes of `rel` followed by a 0 byte (as `StrokeFile.read` gives them), nil when there is
    /// no such regular file; throws the refusal when a part of the path is a symbolic link. The one
    /// rule for reading a file that a request, a page or a reference names (entries, stroke files,
    /// attachments, the codebook): no link leads a read out of the diary. The last part is opened
    /// with O_NOFOLLOW too, so a link put there after the check is not followed either.
    public func fileBytes(_ rel: String) throws -> [UInt8]? {
        if let link = symbolicLink(on: rel) { throw symbolicLinkRefusal(link) }
        return StrokeFile.read(path: rootPrefix + rel, followingLinks: false)
    }

    /// The bytes of `rel` when it is a regular file reached without a symbolic link on the way;
    /// nil otherwise. The one rule for reading a file a request or a reference names (the web
    /// app's attachments too), so no link leads a read out of the diary.
    public func regularFileContents(_ rel: String) -> Data? {
        guard isRegularFile(rel) else { return nil }
        return FileManager.default.contents(atPath: rootPrefix + rel)
    }

    /// Whether `rel` is a regular file reached without a symbolic link on the way (it is not read).
    public func isRegularFile(_ rel: String) -> Bool {
        guard symbolicLink(on: rel) == nil else { return false }
        var st = stat()
        return lstat(rootPrefix + rel, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }

    /// Temporary files that interrupted writes left anywhere in the diary (relative to the root,
    /// sorted): entries, settings, templates, strokes. Not in .git (libgit2's own) nor .daybook
    /// (the caches sweep theirs); symbolic links are not followed.
    /// A folder the walk of the working folder (`seen`, a `Change`'s) read is taken from it instead
    /// of being read again; the others (folders git ignores) are read here.
    public func temporaryLeftovers() -> [String] { temporaryLeftovers(seen: nil) }

    func temporaryLeftovers(seen: WorkTree?) -> [String] {
        var out: [String] = []
        func walk(_ rel: String) {
            let listing: [(name: String, isFolder: Bool)]
            if let walked = seen?.folders[rel] {
                listing = walked.noted.map { ($0, false) } + walked.subfolders.map { ($0, true) }
            } else {
                guard let folder = Directory(rel.isEmpty ? root.path : rootPrefix + rel) else { return }
                listing = folder.namesAndKinds
            }
            for (name, isFolder) in listing {
                let path = rel.isEmpty ? name : rel + "/" + name
                if Diary.isTemporaryName(name.utf8) {
                    out.append(path)
                } else if isFolder && name != ".git" && name != ".daybook" {
                    walk(path)
                }
            }
        }
        walk("")
        return out.sorted()
    }

    /// Whether a name is that of a temporary file (`temporaryLeftovers`); the walk of the working
    /// folder notes such names with it.
    static func isTemporaryName<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
        name.count >= temporarySuffix.count && name.reversed().starts(with: temporarySuffix.reversed())
    }

    private static let temporarySuffix = Array(AtomicFile.temporarySuffix.utf8)

    /// Symbolic links under entries/ (and entries/ itself when it is one), relative to the root.
    public func symbolicLinks() -> [String] {
        if symbolicLink(on: "entries") != nil { return ["entries"] }
        return pathsUnderEntries { _, isLink in isLink }
    }

    /// Every path under entries/ (relative to the root) whose name `wanted` takes (given its bytes
    /// and whether it is a symbolic link), sorted. Folders are gone into, symbolic links to folders
    /// are not; the kinds come from readdir, without a stat for each of 100,000 names.
    func pathsUnderEntries(where wanted: (_ name: UnsafeBufferPointer<UInt8>, _ isLink: Bool) -> Bool) -> [String] {
        var out: [String] = []
        func walk(_ rel: String) {
            guard let folder = Directory(rootPrefix + rel) else { return }
            var folders: [String] = []
            folder.forEachNameAndKind { name, isFolder, isLink in
                let path = { rel + "/" + String(decoding: name, as: UTF8.self) }
                if wanted(name, isLink) { out.append(path()) }
                if isFolder { folders.append(path()) }
            }
            folders.forEach(walk)
        }
        walk("entries")
        return out.sorted()
    }

    /// Calls `body` for every month folder of entries/ (`entries/YYYY/MM`, sorted) with the open
    /// folder and the names of the files in it (unsorted).
    func forEachEntryFolder(_ body: (_ dir: String, _ folder: Directory, _ names: [String]) -> Void) {
        for dir in monthFolders() {
            if let month = Directory(root.path + "/" + dir) { body(dir, month, month.names) }
        }
    }

    /// Every entry file (relative paths), sorted by path.
    public func entryFiles() -> [String] {
        var out: [String] = []
        forEachEntryFolder { dir, folder, names in
            out += names.sorted().filter { folder.stamp($0) != nil }.map { dir + "/" + $0 }.filter(Diary.isEntryPath)
        }
        return out
    }

    /// Conflict copies left by sync: `<id>.conflict-<hash>.md` and the like beside entries, stroke
    /// files and attachments, and `codebook.conflict-<hash>.yml` beside the diary's settings.
    public func conflictCopies() -> [String] {
        let fm = FileManager.default
        let marker = Array(".conflict-".utf8)
        let out = ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.contains(".conflict-") }
        return (out + pathsUnderEntries { name, _ in
            name.count >= marker.count && (0...(name.count - marker.count)).contains { name[$0..<($0 + marker.count)].elementsEqual(marker) }
        }).sorted()
    }

    public var parser: EntryParser { EntryParser(config: config, moodScale: templateMoodScales.scale(of:)) }

    /// Reads one entry file.
    public func readEntry(_ rel: String) -> EntryParser.Outcome {
        readEntry(rel, digest: false).outcome
    }

    /// Reads one entry file and, when asked, the digest of the bytes parsed (`EntryCache.digest`).
    func readEntry(_ rel: String, digest: Bool) -> (outcome: EntryParser.Outcome, digest: [UInt8]?) {
        let bytes: [UInt8]
        do {
            guard let read = try fileBytes(rel) else { return (unreadable(rel), nil) }
            bytes = read
        } catch let e as DaybookError {
            return (EntryParser.Outcome(entry: nil, problems: [e]), nil)
        } catch { return (unreadable(rel), nil) }
        // The reader ends its bytes with a NUL for the stroke parser: it is not the entry's.
        return bytes.withUnsafeBufferPointer { parseEntry(rel, UnsafeBufferPointer(rebasing: $0.dropLast()), digest: digest, ink: true) }
    }

    /// Reads one entry file into `reader`'s buffer from its folder's descriptor, as the cold parse
    /// reads thousands. `stamp` is the stamp the walk took (its size saves a read), or
    /// `FileStamp.unknown` when the walk took none: the reader then takes it from the opened file.
    /// `digest` says of the stamp whether the bytes parsed are digested (`EntryCache.digest`).
    /// `ink` false says the walk found no stroke file beside it, so none is opened: the walk's
    /// stamps are what the cache records, so a stroke file that comes after it is seen next time.
    /// The stamp comes back, unknown when the file could not be read. The entry's body may be
    /// empty: the scan keeps none.
    func readEntry(_ rel: String, stamp: FileStamp, digest: (FileStamp) -> Bool, ink: Bool, reader: FileBytes)
        -> (outcome: EntryParser.Outcome, digest: [UInt8]?, stamp: FileStamp) {
        let taken = stamp == .unknown
        guard reader.read(rel, in: rootPrefix, size: taken ? nil : stamp.size, stamping: taken) else { return (unreadable(rel), nil, stamp) }
        let stamp = reader.stamp ?? stamp
        let (outcome, digested) = parseEntry(rel, reader.bytes, digest: digest(stamp), ink: ink, keepBody: false)
        return (outcome, digested, stamp)
    }

    private func unreadable(_ rel: String) -> EntryParser.Outcome {
        EntryParser.Outcome(entry: nil, problems: [.io("cannot read the file", at: SourceLocation(path: displayPath(rel)))])
    }

    /// The entry of these bytes of file `rel`, with its stroke file's codings (`ink`: look for one).
    /// `keepBody` false: the entry's body may come back empty (`EntryParser.parse(bytes:keepBody:)`).
    private func parseEntry(_ rel: String, _ bytes: UnsafeBufferPointer<UInt8>, digest: Bool, ink: Bool, keepBody: Bool = true)
        -> (outcome: EntryParser.Outcome, digest: [UInt8]?) {
        let inkRel = ink ? StrokeFile.path(ofEntry: rel) : ""
        // Not through a link: the entry's own path was checked (or walked without links), and
        // the stroke file is beside it, so only its last part can be one.
        let inkBytes = ink ? StrokeFile.read(path: rootPrefix + inkRel, followingLinks: false) : nil
        var outcome = parser.parse(bytes: bytes, relativePath: rel, displayPath: displayPath(rel), hasInk: inkBytes != nil, keepBody: keepBody)
        addInk(inkBytes, to: &outcome, inkPath: inkRel)
        return (outcome, digest ? EntryCache.digest(entry: bytes, ink: inkBytes) : nil)
    }

    /// The body of an entry file, split off without parsing the front matter; throws what keeps
    /// it from being read (no file, not UTF-8, no front matter). Split at the bytes and validated
    /// there, without a String for every line; a file the bytes cannot settle (a fence line with
    /// characters beyond ASCII, any problem) is read as text, which also words the problem.
    public func entryBody(_ rel: String) throws -> String {
        let display = displayPath(rel)
        guard var bytes = try fileBytes(rel) else {
            throw DaybookError.io("cannot read the file", at: SourceLocation(path: display))
        }
        bytes.removeLast() // the reader's NUL
        if let cut = bytes.withUnsafeBufferPointer(EntryText.cut) { return cut.body }
        let data = Data(bytes)
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        return try EntryText(text, path: display).body
    }

    /// Reads an entry from its text (an editor's unsaved buffer) as `readEntry` reads its file:
    /// with the highlighter codings of its stroke file and the places of its codings.
    public func readEntry(_ rel: String, text: EntryText) -> EntryParser.Outcome {
        let inkRel = StrokeFile.path(ofEntry: rel)
        let inkBytes = StrokeFile.read(path: rootPrefix + inkRel, followingLinks: false)
        var outcome = parser.parse(text, relativePath: rel, displayPath: displayPath(rel), hasInk: inkBytes != nil)
        addInk(inkBytes, to: &outcome, inkPath: inkRel)
        return outcome
    }

    private func addInk(_ inkBytes: [UInt8]?, to outcome: inout EntryParser.Outcome, inkPath inkRel: String) {
        // Highlighter codes are codings of the entry; a broken stroke file costs them, not the entry.
        if let inkBytes, outcome.entry != nil {
            let ink = StrokeFileParser(path: displayPath(inkRel), skipPoints: true).parse(bytes: inkBytes)
            if let file = ink.file { outcome.entry?.codings += file.codings }
            else if let first = ink.problems.first {
                outcome.problems.append(.input("the stroke file is broken, its codings are left out (daybook check lists every problem): " + first.message, at: first.location))
            }
        }
        if let e = outcome.entry, !e.codings.isEmpty {
            outcome.entry?.anchors = QuoteAnchor.locate(e.codings, in: e.body)
        }
        // What reads of an entry with problems gets the same, for an editor (`Outcome.partial`).
        if var p = outcome.partial {
            if let file = inkBytes.flatMap({ StrokeFileParser(path: displayPath(inkRel), skipPoints: true).parse(bytes: $0).file }) { p.codings += file.codings }
            if !p.codings.isEmpty { p.anchors = QuoteAnchor.locate(p.codings, in: p.body) }
            outcome.partial = p
        }
    }
}
