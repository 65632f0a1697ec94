// Every command daybook lists in --help has a man page that groff reads without warnings.
import XCTest

final class DocumentationTests: CLITestCase {
    var packageRoot: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    func testEveryCommandHasAManPage() throws {
        let help = try run(["--help"]).out
        guard let start = help.range(of: "SUBCOMMANDS:") else { return XCTFail("no SUBCOMMANDS in --help:\n\(help)") }
        let section = help[start.upperBound...].components(separatedBy: "\n\n").first ?? ""
        let commands = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "help" }
        XCTAssertGreaterThan(commands.count, 5)
        for c in commands {
            let page = packageRoot.appendingPathComponent("man/man1/daybook-\(c).1")
            XCTAssertTrue(FileManager.default.fileExists(atPath: page.path), "no man page for `\(c)`: \(page.path)")
        }
    }

    func testManPagesRenderCleanly() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/groff") else { throw XCTSkip("groff is not installed") }
        let sections = ["man1", "man5"]
        let pages = try sections.flatMap { section in
            try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("man/\(section)").path)
                .map { "\(section)/\($0)" }
        }
        XCTAssertTrue(pages.contains("man1/daybook.1"))
        for page in pages {
            XCTAssertTrue(page.hasSuffix("." + page.dropFirst(3).prefix(1)), "\(page) is in the wrong section's folder")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
            p.arguments = ["-man", "-Tutf8", "-ww", "-z", packageRoot.appendingPathComponent("man/\(page)").path]
            let err = Pipe()
            p.standardError = err
            try p.run()
            let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(warnings, "", page)
        }
    }
}
