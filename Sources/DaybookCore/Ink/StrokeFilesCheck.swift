// `check`: every stroke file parses and validates, and sits beside an entry.
import Foundation

struct StrokeFilesCheck: DiaryCheck {
    /// Every `*.strokes.json` under entries/ (relative paths, sorted).
    func strokeFiles(_ diary: Diary) -> [String] {
        let suffix = Array(".strokes.json".utf8)
        return diary.pathsUnderEntries { name, _ in name.count >= suffix.count && name.suffix(suffix.count).elementsEqual(suffix) }
    }

    func problems(in diary: Diary, entries: [Entry]) throws -> [Diagnostic] {
        var out: [Diagnostic] = []
        for rel in strokeFiles(diary) {
            let display = diary.displayPath(rel)
            let entry = String(rel.dropLast(".strokes.json".count)) + ".md"
            if !FileManager.default.fileExists(atPath: diary.url(entry).path) {
                out.append(Diagnostic(.warning, "a stroke file with no entry beside it (\((entry as NSString).lastPathComponent) is missing)",
                                      at: SourceLocation(path: display)))
            }
            guard let data = FileManager.default.contents(atPath: diary.url(rel).path) else {
                out.append(Diagnostic(.error, "cannot read the stroke file", at: SourceLocation(path: display)))
                continue
            }
            out += StrokeFileParser(path: display).parse(data).problems.map { Diagnostic($0, severity: .error) }
        }
        return out
    }
}
