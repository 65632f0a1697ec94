// Attachments: files copied into an entry's folder and linked at the end of its body.
import Foundation

public enum Attachments {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "heic", "avif", "bmp", "tif", "tiff"]

    /// The attachment folder of an entry file (`entries/YYYY/MM/<id>`).
    public static func folder(ofEntry rel: String) -> String { String(rel.dropLast(3)) }

    /// Whether a path (relative to the diary) names a file in an entry's attachment folder:
    /// `entries/YYYY/MM/<id>/<name>`, the name not hidden (such files are never listed).
    public static func isAttachmentPath(_ rel: String) -> Bool {
        let parts = rel.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[0] == "entries" && !parts[3].isEmpty && Diary.isEntryFileName(parts[3] + ".md")
            && !parts[4].isEmpty && !parts[4].hasPrefix(".")
    }

    /// The files in an entry's attachment folder, by name. Symbolic links are left out (never
    /// followed: one may lead out of the diary; `check` lists them), and so is a linked folder.
    public static func files(ofEntry rel: String, in diary: Diary) -> [String] {
        let folder = folder(ofEntry: rel)
        guard diary.symbolicLink(on: folder) == nil else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: diary.url(folder).path)) ?? [])
            .filter { !$0.hasPrefix(".") && diary.symbolicLink(on: folder + "/" + $0) == nil }.sorted()
    }

    /// A file name that stays inside the attachment folder: the last path component, with
    /// separators and leading dots made harmless.
    public static func safeName(_ url: URL) throws -> String {
        var name = url.lastPathComponent.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "")
        while name.hasPrefix(".") { name.removeFirst() }
        guard !name.isEmpty else { throw DaybookError.usage("`\(url.path)` has no usable file name") }
        return name
    }

    /// Copies files into the entry's attachment folder (a taken name gets `-2`, `-3`, …) and
    /// returns the names used.
    public static func copy(_ files: [URL], entryPath rel: String, in change: Change) throws -> [String] {
        let folder = folder(ofEntry: rel)
        var used: [String] = []
        for file in files {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDir), !isDir.boolValue else {
                throw DaybookError.input("no file to attach", at: SourceLocation(path: file.path))
            }
            let name = try safeName(file)
            var candidate = name
            var n = 1
            let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
            while FileManager.default.fileExists(atPath: change.diary.url(folder + "/" + candidate).path) || used.contains(candidate) {
                n += 1
                candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            }
            try change.copy(file, to: folder + "/" + candidate)
            used.append(candidate)
        }
        return used
    }

    /// The Markdown link to an attachment: an image for images, a plain link otherwise.
    public static func link(name: String, id: String) -> String {
        let target = (id + "/" + name).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "()"))) ?? id + "/" + name
        let label = name.replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: "[", with: "\\[")
        let isImage = imageExtensions.contains((name as NSString).pathExtension.lowercased())
        return (isImage ? "!" : "") + "[\(label)](\(target))"
    }

    /// What goes with an attachment's link: words after it on its line (an audio file's
    /// duration), and lines under it (its transcript), set off by a blank line.
    public struct Note: Sendable {
        public var suffix: String?
        public var lines: [String]
        public init(suffix: String? = nil, lines: [String] = []) { self.suffix = suffix; self.lines = lines }
    }

    /// The body with links to `names` added at its end, on lines of their own; `notes` by the
    /// index of the name.
    public static func appendLinks(_ names: [String], id: String, to body: String, notes: [Int: Note] = [:]) -> String {
        guard !names.isEmpty else { return body }
        var b = body
        let ending = b.contains("\r\n") ? "\r\n" : "\n"
        if !b.isEmpty && !b.hasSuffix("\n") { b += ending }
        let lastLine = b.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let lastIsLink = lastLine.hasPrefix("[") || lastLine.hasPrefix("![")
        if !b.isEmpty && !b.hasSuffix(ending + ending) && !lastIsLink { b += ending }
        for (i, name) in names.enumerated() {
            b += link(name: name, id: id) + (notes[i]?.suffix ?? "") + ending
            if let lines = notes[i]?.lines, !lines.isEmpty {
                b += ending + lines.joined(separator: ending) + ending
                if i + 1 < names.count { b += ending }
            }
        }
        return b
    }
}
