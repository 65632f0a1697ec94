// What a command has read stays until the process ends.
import Foundation

/// Values kept until the process exits: freeing 100,000 entries one by one costs more than
/// listing them, and the end of the process gives the memory back at once. The peak is the same.
public enum UntilExit {
    nonisolated(unsafe) private static var kept: [Any] = []
    /// False in a process that runs for long and reads again and again (`daybook serve`, the
    /// language server): there, what a request read is freed when the request is done.
    nonisolated(unsafe) public static var isEnabled = true
    /// `study` reads its participants' diaries on every core, each keeping what it read.
    private static let lock = NSLock()

    public static func keep(_ value: Any) {
        guard isEnabled else { return }
        lock.lock()
        kept.append(value)
        lock.unlock()
    }
}
