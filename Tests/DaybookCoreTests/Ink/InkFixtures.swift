// Where the ink tests' fixture files and golden SVGs live (outside the test target, so SwiftPM
// does not ask to declare them as resources).
import Foundation
@testable import DaybookCore

enum InkFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Ink")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}

/// A small seeded generator, so property tests are the same on every run.
typealias InkSeededGenerator = SplitMix64
