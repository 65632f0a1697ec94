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
        for name in ["daybook.yml", "codebook.yml"] where FileManager.default.fileExists(atPath: diary.url(name).path) {
            try archive.add(name, file: diary.url(name))
        }
        if FileManager.default.fileExists(atPath: diary.templatesFolder.path) {
            try archive.add(folder: diary.templatesFolder, as: "templates/")
        }
        for e in entries {
            try archive.add(e.path, file: diary.url(e.path))
            let strokes = String(e.path.dropLast(3)) + ".strokes.json"
            if FileManager.default.fileExists(atPath: diary.url(strokes).path) { try archive.add(strokes, file: diary.url(strokes)) }
            let folder = Attachments.folder(ofEntry: e.path)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: diary.url(folder).path, isDirectory: &isDir), isDir.boolValue {
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
