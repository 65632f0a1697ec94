// The reminder's log: where a reminder that tells by log writes what it found, for the next command to say.
import Foundation

/// `.daybook/reminders.log` of a diary: one line a firing ("a reminder fired at 2026-11-21 20:00:
/// daily overdue since …"). A reminder installed where no notifier can reach the user (no
/// notify-send, a server) writes here; the next daybook command in that diary shows the lines on
/// stderr and removes them, so each is said once.
public enum ReminderLog {
    public static func url(_ diary: Diary) -> URL { diary.root.appendingPathComponent(".daybook/reminders.log") }

    /// Adds a firing: its moment and what `due` said (its lines joined with "; ").
    public static func record(_ lines: [String], in diary: Diary) throws {
        let now = diary.clock.nowLocal
        let when = "\(now.day) " + String(format: "%02d:%02d", now.hour, now.minute)
        let what = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
        let line = "a reminder fired at \(when): \(what.isEmpty ? "something is overdue" : what)\n"
        let url = self.url(diary)
        try AtomicFile.makeDirectory(url.deletingLastPathComponent())
        // Appended, not rewritten: two firings before anyone looks are both kept.
        guard let handle = FileHandle(forWritingAtPath: url.path) ?? {
            FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            return FileHandle(forWritingAtPath: url.path)
        }() else { throw DaybookError.io("cannot write the reminder log", at: SourceLocation(path: url.path)) }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
    }

    /// The lines not yet shown, oldest first; the log is emptied (renamed away first, so a firing
    /// meanwhile is not lost with it).
    public static func take(_ diary: Diary) -> [String] {
        let url = self.url(diary)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let taken = url.appendingPathExtension("shown")
        guard (try? FileManager.default.removeItem(at: taken)) != nil || !FileManager.default.fileExists(atPath: taken.path),
              rename(url.path, taken.path) == 0 else { return [] }
        defer { try? FileManager.default.removeItem(at: taken) }
        let text = (try? String(contentsOf: taken, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
