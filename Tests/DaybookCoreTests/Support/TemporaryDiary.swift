// One diary in a temporary folder for a unit test: made, opened on the tests' fixed clock, removed.
import XCTest
@testable import DaybookCore

/// The fixture every unit test that needs a diary on disk uses: a fresh folder, a diary made in it
/// (or in a folder inside it), opened on a fixed clock and time zone so that dates read the same on
/// every machine, and removed again with the process-wide setting the tests change (the racy window).
final class TemporaryDiary {
    /// The clock and time zone the tests read dates against: the day after the example diary's
    /// last entry, in a zone with daylight-saving time.
    static let environment = ["DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "TZ": "Europe/Vienna"]
    /// `FileStamp.racyWindow` as daybook runs with it.
    static let racyWindow = 2_000_000_000

    /// The temporary folder; `remove()` deletes it.
    let folder: URL
    /// The diary's root: `folder`, or the folder inside it that `inside` named.
    let root: URL
    let environment: [String: String]

    /// How a diary is made.
    struct Options {
        /// The folder inside the temporary one that is the diary's root (nil: the temporary folder).
        var inside: String?
        /// The diary's name in daybook.yml.
        var name: String?
        /// false: only the folder is made, no diary.
        var create = true
        /// 0 makes every file settled at once, so that the caches take what a test just wrote (as
        /// they would two seconds later); nil keeps daybook's window.
        var racyWindow: Int?
        var environment = TemporaryDiary.environment
        /// Folders made in the diary (such as a month's, `entries/2026/11`).
        var folders: [String] = []
    }

    /// Makes the folder (its name starts with `label`) and the diary as `options` say.
    init(_ label: String, _ options: Options = Options()) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-\(label)-\(UUID().uuidString)")
        self.folder = folder
        root = options.inside.map { folder.appendingPathComponent($0) } ?? folder
        environment = options.environment
        if let racyWindow = options.racyWindow { FileStamp.racyWindow = racyWindow }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if options.create { try Diary.create(at: root, name: options.name) }
        for rel in options.folders { try makeFolders(rel) }
    }

    /// Opens the diary as a command run in `workingDirectory` (the diary's root by default) would.
    func open(workingDirectory: URL? = nil) throws -> Diary {
        try Diary.open(root, environment: environment, workingDirectory: workingDirectory ?? root)
    }

    /// `rel`, a path in the diary.
    func url(_ rel: String) -> URL { root.appendingPathComponent(rel) }

    /// Makes the folders `rels` of the diary (and their parents).
    func makeFolders(_ rels: String...) throws {
        for rel in rels { try FileManager.default.createDirectory(at: url(rel), withIntermediateDirectories: true) }
    }

    /// Deletes the folder and puts back the racy window.
    func remove() {
        FileStamp.racyWindow = TemporaryDiary.racyWindow
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A test class each of whose tests gets a `TemporaryDiary` of its own, made as `options` say.
/// A class that prepares more calls `super.setUpWithError()` first.
class DiaryTestCase: XCTestCase {
    /// How each test's diary is made; a test class overrides it to change what it needs.
    class var options: TemporaryDiary.Options { TemporaryDiary.Options() }

    var fixture: TemporaryDiary!
    /// The temporary folder.
    var tmp: URL!
    /// The diary, opened (nil when `options.create` is false).
    var diary: Diary!

    override func setUpWithError() throws {
        fixture = try TemporaryDiary(String(describing: Self.self), Self.options)
        tmp = fixture.folder
        if Self.options.create { diary = try fixture.open() }
    }

    override func tearDownWithError() throws { fixture.remove() }

    /// The diary opened again, as the next command would open it.
    func open() throws -> Diary { try fixture.open() }
}
