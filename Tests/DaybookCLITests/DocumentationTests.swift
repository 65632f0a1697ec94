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
            let page = packageRoot.appendingPathComponent("man/daybook-\(c).1")
            XCTAssertTrue(FileManager.default.fileExists(atPath: page.path), "no man page for `\(c)`: \(page.path)")
        }
    }

    func testManPagesRenderCleanly() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/groff") else { throw XCTSkip("groff is not installed") }
        let pages = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("man").path)
        XCTAssertTrue(pages.contains("daybook.1"))
        for page in pages where page.hasSuffix(".1") || page.hasSuffix(".5") {
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
