// `export zip`: a backup anyone can open: entries, stroke files, attachments, settings, codebook, and the html site.
import Foundation

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
            let strokes = String(source.dropLast(3)) + ".strokes.json"
            // A stroke file's text keys (a note, a label) are redacted like any text file.
            if FileManager.default.fileExists(atPath: diary.url(strokes).path) { try add(String(e.path.dropLast(3)) + ".strokes.json", file: diary.url(strokes)) }
            let folder = Attachments.folder(ofEntry: e.path)
            var isDir: ObjCBool = false
            if context.redaction == nil, FileManager.default.fileExists(atPath: diary.url(folder).path, isDirectory: &isDir), isDir.boolValue {
                try archive.add(folder: diary.url(folder), as: folder + "/")
            }
        }
        // The html site, built in a temporary folder; its progress is the export's progress.
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        try HTMLExport().export(entries, context: context, to: .path(site))
        try archive.add(folder: site, as: "html/")
        try archive.finish()
    }
}
