// A progress bar on stderr for long work, drawn only when stderr is a terminal (SPEC §3).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(_ label: String, enabled: Bool = Terminal.stderrIsTerminal && !Terminal.isHoldingMessages) {
        self.label = label
        self.enabled = enabled
    }

    /// Redraws at most ten times a second, and always at the end.
    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        fputs("\r\(label) [\(bar)] \(done)/\(total)", stderr)
        drawn = true
    }

    /// Clears the bar's line, so the messages that follow start on a clean line.
    func finish() {
        guard drawn else { return }
        fputs("\r\u{1B}[K", stderr)
        drawn = false
    }
}
