// What a command has read stays until the process ends.
import Foundation

/// Values kept until the process exits: freeing 100,000 entries one by one costs more than
/// listing them, and the end of the process gives the memory back at once. The peak is the same.
public enum UntilExit {
    nonisolated(unsafe) private static var kept: [Any] = []

    public static func keep(_ value: Any) { kept.append(value) }
}
