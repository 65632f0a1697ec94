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

    /// Issue 13 item 12: a field that is a date is written as a YAML date, unquoted, and reads
    /// back as the same value; what is not a real date or time stays quoted.
    func testDatesAreWrittenAsYAMLDatesAndReadBackUnchanged() throws {
        let dates = ["2024-03-10", "2024-03-10T08:30:00", "2024-03-10 08:30:00", "2024-03-10T08:30:00.250Z",
                     "2024-03-10T08:30:00+01:00", "2024-03-10 08:30", "2024-02-29"]
        for d in dates {
            XCTAssertEqual(YAMLWriter.value(.string(d)), d)
            XCTAssertEqual(YAMLWriter.value(.array([.string(d)])), "[\(d)]")
            let node = try XCTUnwrap(try Yams.compose(yaml: "key: " + YAMLWriter.value(.string(d))))
            XCTAssertEqual(YAML.value(node), .object([("key", .string(d))]), d)
        }
        for notADate in ["2023-02-29", "2024-13-01", "2024-3-10", "2024-03-10T25:00:00", "2024-03-10T08:61",
                         "2024-03-10 08:30:00 tomorrow", "2024-03-10x", "20240310"] {
            XCTAssertEqual(YAMLWriter.value(.string(notADate)), "\"\(notADate)\"", notADate)
        }
        // A title is text, whatever it looks like: other tools would read it as a date.
        XCTAssertEqual(YAMLWriter.scalar("2024-03-10"), "\"2024-03-10\"")
    }

    func testPlainWhereSafe() {
        XCTAssertEqual(YAMLWriter.scalar("Clinic visit, night shift"), "Clinic visit, night shift")
        XCTAssertEqual(YAMLWriter.flowList("tags", ["a", "b/c"]), "tags: [a, b/c]")
    }
}
