// `daybook ink`: pen strokes kept beside entries (SPEC §1.4).
import ArgumentParser
import DaybookCore
import Foundation

struct Ink: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pen strokes beside entries: add, render, list, remove and export them.",
        discussion: "An entry's strokes live in <id>.strokes.json beside it (man 5 daybook-strokes).",
        subcommands: [InkAdd.self, InkRender.self, InkLs.self, InkRm.self, InkExport.self])

    /// The entry's strokes, or exit 1 when it has none.
    static func strokes(of rel: String, in diary: Diary) throws -> StrokeFile {
        guard let (file, _) = try StrokeFile.load(entry: rel, in: diary) else {
            throw DaybookError.nothing("daybook: \(diary.displayPath(rel)) has no strokes (add some with `daybook ink add`)")
        }
        return file
    }

    /// Reads a stroke file or InkML given on the command line, printing its warnings.
    static func importing(_ path: String, global: GlobalOptions) throws -> StrokeFile {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL
        let (file, warnings) = try StrokeFile.importing(url, displayPath: path)
        Terminal.warnings(warnings)
        return file
    }

    /// Writes `bytes` to `-o PATH`, or to stdout without it.
    static func output(_ bytes: [UInt8], to path: String?, global: GlobalOptions) throws {
        guard let path else { Terminal.out(bytes: bytes); return }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: global.workingDirectory).standardizedFileURL
        // Written from the array's own memory: a copy would hold a large SVG twice.
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return try AtomicFile.write(Data(), to: url) }
            try AtomicFile.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: raw.count, deallocator: .none), to: url)
        }
        global.confirm("daybook: wrote \(path)")
    }
}
