// Scalars daybook writes read back as the same strings.
import XCTest
import Yams
@testable import DaybookCore

final class YAMLWriterTests: XCTestCase {
    func testAwkwardStringsRoundTrip() throws {
        let samples = ["plain", "Hand written: quoted", "yes", "no", "null", "~", "123", "1.5", "2026-11-21",
                       "#hash", "- dash", "a #b", "trailing:", " lead", "quote \" and \\ back", "line\nbreak",
                       "tab\there", "emoji 🙂", "[x]", "{y}", "a, b", "@at", "`tick`", "%pct", "", "ünïcödé"]
        for s in samples {
            let written = "key: " + YAMLWriter.scalar(s)
            let node = try Yams.compose(yaml: written)
            XCTAssertEqual(node?["key"]?.string, s, "wrote \(written)")
            let flow = "key: [" + YAMLWriter.scalar(s, inFlow: true) + "]"
            XCTAssertEqual(try Yams.compose(yaml: flow)?["key"]?[0]?.string, s, "wrote \(flow)")
        }
    }

    func testPlainWhereSafe() {
        XCTAssertEqual(YAMLWriter.scalar("Clinic visit, night shift"), "Clinic visit, night shift")
        XCTAssertEqual(YAMLWriter.flowList("tags", ["a", "b/c"]), "tags: [a, b/c]")
    }
}
