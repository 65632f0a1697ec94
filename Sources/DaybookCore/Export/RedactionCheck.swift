// `export --redact` checks its own output before it lets it stand: every file it wrote, every
// file inside an archive it wrote (and inside archives within), every file name, searched for every
// name of the redaction file in every spelling it knows (Redaction.forbiddenForms).
import Foundation
import ZIPFoundation

public enum RedactionCheck {
    /// A name found in the output, and where: a file, or `archive.zip: member`.
    public struct Leak: Equatable {
        public var name: String
        public var place: String
    }

    /// Searches text written to a stream.
    public static func scan(text: String, as place: String, redaction: Redaction) -> [Leak] {
        redaction.leaks(in: text).map { Leak(name: $0, place: place) }
    }

    /// Searches a file or a folder (recursively, file names included); an archive is opened and
    /// every member searched (its name and its content).
    public static func scan(_ url: URL, shownAs shown: String, redaction: Redaction) throws -> [Leak] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else { return [] }
        guard isDir.boolValue else {
            return try scan(data: Data(contentsOf: url, options: .mappedIfSafe), shownAs: shown, redaction: redaction)
        }
        var leaks: [Leak] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() {
            let place = shown + "/" + name
            leaks += redaction.leaks(in: name).map { Leak(name: $0, place: place + " (its name)") }
            leaks += try scan(url.appendingPathComponent(name), shownAs: place, redaction: redaction)
        }
        return leaks
    }

    static func scan(data: Data, shownAs shown: String, redaction: Redaction) throws -> [Leak] {
        guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
            return redaction.leaks(in: String(decoding: data, as: UTF8.self)).map { Leak(name: $0, place: shown) }
        }
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw DaybookError.io("cannot open the archive it wrote to check it: \(error)", at: SourceLocation(path: shown))
        }
        var leaks: [Leak] = []
        for member in archive {
            let place = shown + ": " + member.path
            leaks += redaction.leaks(in: member.path).map { Leak(name: $0, place: place + " (its name)") }
            guard member.type == .file else { continue }
            var content = Data()
            do { _ = try archive.extract(member, skipCRC32: false) { content.append($0) } } catch {
                throw DaybookError.io("cannot read \(member.path) in the archive it wrote to check it: \(error)", at: SourceLocation(path: shown))
            }
            leaks += try scan(data: content, shownAs: place, redaction: redaction)
        }
        return leaks
    }
}
