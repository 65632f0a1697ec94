// `export zip`: a backup anyone can open: entries, stroke files, attachments, settings, codebook, and the html site.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct ZipExport: ExportFormat {
    public static let name = "zip"
    public static let summary = "a ZIP backup: entries, stroke files, attachments, daybook.yml, codebook.yml, templates and the html site (-o FILE.zip)"
    public static let destination = ExportDestinationKind.file
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        guard case let .path(url) = destination else { return }
        let diary = context.diary
        let archive = try ArchiveFile(url, time: context.diary.clock.nowLocal)
        // Redacted, a text file goes in with its names replaced; attachments cannot be redacted and stay out.
        func add(_ name: String, file: URL) throws {
            guard let redaction = context.redaction else { return try archive.add(name, file: file) }
            guard let data = FileManager.default.contents(atPath: file.path), let text = String(validatingUTF8Data: data) else {
                return context.warn("left out: not UTF-8 text, so it cannot be redacted", path: name)
            }
            try archive.add(name, data: Data(redaction.text(text).utf8))
        }
        // The stroke file and attachments of entry file `source`, under `rel`'s name (attachments
        // cannot be redacted and stay out then).
        func addBeside(_ source: String, as rel: String) throws {
            let strokes = String(source.dropLast(3)) + ".strokes.json"
            // A stroke file's text keys (a note, a label) are redacted like any text file.
            if FileManager.default.fileExists(atPath: diary.url(strokes).path) { try add(String(rel.dropLast(3)) + ".strokes.json", file: diary.url(strokes)) }
            let folder = Attachments.folder(ofEntry: rel)
            var isDir: ObjCBool = false
            if context.redaction == nil, FileManager.default.fileExists(atPath: diary.url(folder).path, isDirectory: &isDir), isDir.boolValue {
                try archive.add(folder: diary.url(folder), as: folder + "/")
            }
        }
        if context.wholeDiary && context.redaction == nil {
            // A backup: every file of the diary byte for byte, entries that do not parse too.
            for rel in ZipExport.diaryFiles(diary, leaving: url) { try archive.add(rel, file: diary.url(rel)) }
        } else {
            for name in ["daybook.yml", "codebook.yml"] where FileManager.default.fileExists(atPath: diary.url(name).path) {
                try add(name, file: diary.url(name))
            }
            if FileManager.default.fileExists(atPath: diary.templatesFolder.path) {
                if context.redaction == nil { try archive.add(folder: diary.templatesFolder, as: "templates/") } else {
                    for name in TemplateLibrary.names(in: diary.templatesFolder) { try add("templates/\(name).md", file: diary.templatesFolder.appendingPathComponent(name + ".md")) }
                }
            }
            for e in entries {
                let source = context.source(e.path)
                if let redaction = context.redaction {
                    guard let data = FileManager.default.contents(atPath: diary.url(source).path), let text = String(validatingUTF8Data: data) else { continue }
                    try archive.add(e.path, data: Data(try redaction.entryText(text, path: diary.displayPath(source)).utf8))
                } else {
                    try archive.add(e.path, file: diary.url(e.path))
                }
                try addBeside(source, as: e.path)
            }
            // Entries that do not parse go in as they are; redacted, they cannot be, and stay out.
            for rel in context.unparsed {
                guard context.redaction == nil else {
                    context.warn("left out: it does not parse, so it cannot be redacted", path: diary.displayPath(rel))
                    context.leftOut.append(rel)
                    continue
                }
                try archive.add(rel, file: diary.url(rel))
                try addBeside(rel, as: rel)
            }
        }
        // The html site, built in a temporary folder; its progress is the export's progress.
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        try HTMLExport().export(entries, context: context, to: .path(site))
        try archive.add(folder: site, as: "html/")
        try archive.finish()
    }

    /// Every regular file of the diary (relative paths, sorted): not git's objects, not daybook's
    /// caches and lock, not a write's temporary leftovers, not the archive being written; a
    /// symbolic link is not followed (it would lead outside what the diary holds).
    static func diaryFiles(_ diary: Diary, leaving archive: URL) -> [String] {
        let root = diary.root.standardizedFileURL.path
        let skip = archive.standardizedFileURL.path
        var out: [String] = []
        func walk(_ rel: String) {
            let dir = rel.isEmpty ? root : root + "/" + rel
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names {
                let child = rel.isEmpty ? name : rel + "/" + name
                if rel.isEmpty && (name == ".git" || name == ".daybook") { continue }
                if name.hasSuffix(AtomicFile.temporarySuffix) { continue }
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(child)
                case S_IFREG where root + "/" + child != skip: out.append(child)
                default: break
                }
            }
        }
        walk("")
        return out.sorted()
    }
}
