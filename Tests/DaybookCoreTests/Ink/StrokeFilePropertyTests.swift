// Property tests: random valid stroke files round-trip (JSON and InkML); random breakages are refused with a reason.
import XCTest
@testable import DaybookCore

final class StrokeFilePropertyTests: XCTestCase {
    let iterations = 300

    /// A random valid stroke file: channels x, y and a prefix of the others, some points stopping early.
    func randomFile(_ g: inout InkSeededGenerator) -> StrokeFile {
        let optional = ["t", "force", "azimuth", "altitude"]
        let channels = ["x", "y"] + optional.prefix(Int.random(in: 0...4, using: &g))
        var file = StrokeFile(channels: Array(channels))
        if Bool.random(using: &g) {
            file.canvas = .init(width: Double(Int.random(in: 1...2000, using: &g)), height: Double(Int.random(in: 1...2000, using: &g)) / 4,
                                unit: ["pt", "px", nil].randomElement(using: &g) ?? nil)
        }
        for _ in 0..<Int.random(in: 1...5, using: &g) {
            var s = Stroke(tool: Stroke.Tool.allCases.randomElement(using: &g) ?? .pen, points: PointList(channels: file.channels))
            if Bool.random(using: &g) {
                let hex = (0..<(Bool.random(using: &g) ? 6 : 8)).map { _ in "0123456789abcdef".randomElement(using: &g).map(String.init) ?? "0" }.joined()
                s.color = "#" + hex
            }
            if Bool.random(using: &g) { s.width = [1, 2.5, 14, 0.35, Double.random(in: 0.01...40, using: &g)].randomElement(using: &g) }
            if Bool.random(using: &g) { s.start = String(format: "2026-%02d-%02dT%02d:%02d:%02d.%03d+01:00", Int.random(in: 1...12, using: &g), Int.random(in: 1...28, using: &g), Int.random(in: 0...23, using: &g), Int.random(in: 0...59, using: &g), Int.random(in: 0...59, using: &g), Int.random(in: 0...999, using: &g)) }
            if Bool.random(using: &g) { s.code = ["frustration", "trust", "emotions/relief", "work-around_2"].randomElement(using: &g) }
            for p in 0..<Int.random(in: 1...30, using: &g) {
                var row: [Double] = [Double.random(in: -500...5000, using: &g), Double(Int.random(in: -100...100000, using: &g)) / 100]
                for c in channels.dropFirst(2) {
                    switch c {
                    case "t": row.append(Double(p * Int.random(in: 1...20, using: &g)))
                    case "force": row.append(Double.random(in: 0...1, using: &g))
                    case "azimuth": row.append(Double.random(in: 0...(2 * .pi), using: &g))
                    default: row.append(Double.random(in: 0...(.pi / 2), using: &g))
                    }
                }
                s.points.append(Array(row.prefix(Int.random(in: 2...row.count, using: &g))))
            }
            file.strokes.append(s)
        }
        return file
    }

    func testRandomValidFilesRoundTripThroughTheWriter() throws {
        var g = InkSeededGenerator(seed: 20261121)
        for i in 0..<iterations {
            let file = randomFile(&g)
            let text = StrokeFileWriter.text(file)
            let outcome = StrokeFileParser(path: "r.json").parse(Data(text.utf8))
            XCTAssertEqual(outcome.problems, [], "iteration \(i)")
            XCTAssertEqual(outcome.file, file, "iteration \(i):\n\(text)")
            XCTAssertEqual(StrokeFileWriter.text(try XCTUnwrap(outcome.file)), text, "writing is deterministic")
            XCTAssertEqual(text.split(separator: "\n").filter { $0.hasPrefix("{\"tool\"") }.count, file.strokes.count, "one stroke per line")
        }
    }

    func testRandomValidFilesRoundTripThroughInkML() throws {
        var g = InkSeededGenerator(seed: 7)
        for i in 0..<iterations {
            let file = randomFile(&g)
            let inkml = InkMLWriter.text(file)
            let (back, warnings) = try InkMLReader(path: "r.inkml").read(Data(inkml.utf8))
            XCTAssertEqual(warnings, [], "iteration \(i)")
            XCTAssertEqual(back.channels, file.channels, "iteration \(i)")
            XCTAssertEqual(back.strokes, file.strokes, "iteration \(i):\n\(inkml)")
        }
    }

    /// Each breakage, and a word the reason must contain.
    let breakages: [(String, (String) -> String?)] = [
        ("unknown tool", { $0.replacingFirst(#/"tool": "\w+"/#, with: #""tool": "crayon""#) }),
        ("not a colour", { $0.replacingFirst(#/\{"tool"/#, with: ##"{"color": "#12345", "tool""##) }),
        ("channels", { $0.replacingFirst(#/"points": \[\[/#, with: #""points": [[1, 2, 3, 4, 5, 6, 7, "#) }),
        ("needs x and y", { $0.replacingFirst(#/"points": \[\[/#, with: #""points": [[5], ["#) }),
        ("NaN", { $0.replacingFirst(#/"points": \[\[/#, with: #""points": [[NaN, "#) }),
        ("version 2", { $0.replacingFirst(#/"version": 1/#, with: #""version": 2"#) }),
        ("above 0", { $0.replacingFirst(#/\{"tool"/#, with: #"{"width": -3, "tool""#) }),
        ("not a code name", { $0.replacingFirst(#/\{"tool"/#, with: #"{"code": "no spaces here", "tool""#) }),
        ("named twice", { $0.replacingFirst(#/"channels": \["x"/#, with: #""channels": ["y""#) }),
        ("at least one point", { $0.replacingFirst(#/"points": \[\[.*?\]\]\}/#, with: #""points": []}"#) }),
    ]

    func testRandomBrokenFilesAreRefusedWithAReason() {
        var g = InkSeededGenerator(seed: 99)
        for i in 0..<iterations {
            let text = StrokeFileWriter.text(randomFile(&g))
            let (reason, breakage) = breakages[i % breakages.count]
            guard let broken = breakage(text), broken != text else { continue }
            let outcome = StrokeFileParser(path: "b.json").parse(Data(broken.utf8))
            XCTAssertNil(outcome.file, "\(reason): \(broken)")
            XCTAssertTrue(outcome.problems.contains { $0.message.contains(reason) }, "\(reason): \(outcome.problems)")
            XCTAssertTrue(outcome.problems.allSatisfy { $0.location?.line != nil && $0.location?.column != nil })
        }
    }

    func testTruncatedFilesAreRefusedWithAPlace() {
        var g = InkSeededGenerator(seed: 3)
        for _ in 0..<iterations {
            let text = Array(StrokeFileWriter.text(randomFile(&g)).utf8)
            let cut = Int.random(in: 0..<(text.count - 3), using: &g)
            let outcome = StrokeFileParser(path: "t.json").parse(Data(text[..<cut]))
            XCTAssertNil(outcome.file, "cut at \(cut)")
            XCTAssertFalse(outcome.problems.isEmpty)
            XCTAssertTrue(outcome.problems.allSatisfy { $0.location?.line != nil })
        }
    }

    func testRandomBytesNeverCrashTheReaders() {
        var g = InkSeededGenerator(seed: 11)
        let alphabet = Array(#"{}[]",:0123456789.-+eE ntruefalsx"!'?*#TF<>/ink trace"#.utf8) + Array("'9e307 ".utf8)
        for _ in 0..<iterations {
            let bytes = (0..<Int.random(in: 0...200, using: &g)).map { _ in alphabet.randomElement(using: &g) ?? 0 }
            _ = StrokeFileParser(path: "x.json").parse(Data(bytes))
            // Also where strokes come before channels (read twice) and where points are skipped.
            _ = StrokeFileParser(path: "x.json").parse(Data(Array(#"{"strokes": "#.utf8) + bytes))
            _ = StrokeFileParser(path: "x.json", skipPoints: true).parse(Data(Array(#"{"channels": ["x", "y"], "strokes": [{"points": "#.utf8) + bytes))
            let trace = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "<", with: " ").replacingOccurrences(of: "&", with: " ")
            // Whatever InkML is accepted must make a valid stroke file.
            if let (file, _) = try? InkMLReader(path: "x.inkml").read(Data(("<ink><trace>" + trace + "</trace></ink>").utf8)) {
                XCTAssertEqual(StrokeFileParser(path: "w.json").parse(Data(StrokeFileWriter.text(file).utf8)).problems, [], trace)
            }
        }
    }
}

extension String {
    func replacingFirst(_ regex: Regex<Substring>, with replacement: String) -> String? {
        guard let m = firstMatch(of: regex) else { return nil }
        return replacingCharacters(in: m.range, with: replacement)
    }
}
