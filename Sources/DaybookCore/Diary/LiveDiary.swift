// A diary kept open by a process that runs for long (`daybook serve`, `daybook lsp`): opened again when its settings change.
import Foundation

/// `Diary` reads daybook.yml and the templates' mood scales once, as a command that runs for a
/// moment should. A server asks this for the diary on every request instead: when daybook.yml or
/// a file in templates/ changed on disk since (size, times or inode), the diary is opened again,
/// so a `codebook: {strict: true}` or a new timezone written in an editor holds from the next request.
public final class LiveDiary {
    private var current: Diary
    private var stamp: [String: FileStamp]
    private let environment: [String: String]

    public init(_ diary: Diary, environment: [String: String]) {
        current = diary
        self.environment = environment
        stamp = LiveDiary.settingsStamp(of: diary.root)
    }

    /// The diary with its settings as they are on disk now. Settings that no longer read (a
    /// daybook.yml broken while it is being edited) throw their positioned error; the next call
    /// tries again.
    public func diary() throws -> Diary {
        let now = LiveDiary.settingsStamp(of: current.root)
        if now != stamp {
            current = try Diary.open(current.root, environment: environment, workingDirectory: current.workingDirectory)
            stamp = now
        }
        return current
    }

    /// The stamps of daybook.yml and of every file in templates/, by path.
    static func settingsStamp(of root: URL) -> [String: FileStamp] {
        var out: [String: FileStamp] = [:]
        let config = root.appendingPathComponent("daybook.yml").path
        out[config] = FileStamp.of(config)
        let templates = root.appendingPathComponent("templates").path
        out[templates] = FileStamp.of(templates)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: templates)) ?? [] {
            let path = templates + "/" + name
            out[path] = FileStamp.of(path)
        }
        return out
    }
}
