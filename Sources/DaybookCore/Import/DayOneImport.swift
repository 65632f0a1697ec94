// `import dayone`: a Day One JSON export, alone or in its .zip with photos/ (which become attachments).
import Foundation
import ZIPFoundation

/// Day One writes UTC creation dates with the entry's time zone beside them: the entry is dated on
/// that zone's wall clock. Its Markdown comes backslash-escaped; `starred`, `location` and
/// `weather` are kept as fields; photos referenced as `dayone-moment://ID` become attachments.
public struct DayOneImport: ImportFormat {
    public static let name = "dayone"
    public static let summary = "a Day One JSON export, the .json or the .zip with its photos"
    public init() {}

    public func read(_ url: URL, diary: Diary, reading: ImportReading) throws -> ImportBatch {
        let batch = ImportBatch()
        var journals: [URL] = []
        var photos: URL?
        // The export being read: the unpacked archive, or the folder the journal is in.
        let root: URL
        if url.pathExtension.lowercased() == "zip" {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-import-\(UUID().uuidString)")
            batch.temporaryFolder = folder
            root = folder
            do { try FileManager.default.unzipItem(at: url, to: folder) } catch {
                throw DaybookError.input("cannot unpack the archive: \(error); nothing was imported", at: SourceLocation(path: url.path))
            }
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            journals = try files.filter { $0.pathExtension.lowercased() == "json" && !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
                .compactMap { try ImportPath.checkedSource($0, root: folder, file: url.path, record: $0.lastPathComponent, field: nil) }
            photos = files.first { $0.lastPathComponent == "photos" }
            guard !journals.isEmpty else { throw DaybookError.input("the archive holds no Day One journal (.json); nothing was imported", at: SourceLocation(path: url.path)) }
        } else {
            journals = [url]
            root = url.deletingLastPathComponent()
            let beside = url.deletingLastPathComponent().appendingPathComponent("photos")
            if FileManager.default.fileExists(atPath: beside.path) { photos = beside }
        }
        for journal in journals { try read(journal: journal, photos: photos, root: root, diary: diary, into: batch, progress: reading.progress) }
        return batch
    }

    func read(journal: URL, photos: URL?, root: URL, diary: Diary, into batch: ImportBatch, progress: (Int, Int) -> Void) throws {
        let records = try JSONRecord.entries(in: journal, of: "Day One")
        for (n, r) in records.enumerated() {
            defer { progress(n + 1, records.count) }
            let created = try r.requiredString("creationDate")
            guard let utc = LocalDateTime.parse(created, timeZone: TimeZone(identifier: "UTC") ?? diary.config.timeZone) else {
                throw r.fail("creationDate", "`\(created)` is not an ISO 8601 date-time such as 2021-03-04T05:06:07Z")
            }
            var zone = diary.config.timeZone
            if let name = try r.string("timeZone") {
                guard let z = TimeZone(identifier: name) else { throw r.fail("timeZone", "`\(name)` is not a time zone name such as Europe/Vienna") }
                zone = z
            }
            var draft = EntryDraft(date: LocalDateTime(instant: utc.instant, timeZone: zone), title: nil)
            draft.body = DayOneImport.unescape(try r.string("text") ?? "")
            draft.tags = try r.tags("tags", warnings: &batch.warnings)
            if try r.bool("starred") == true { draft.fields.append(("starred", .bool(true))) }
            if let loc = try r.object("location") { draft.fields.append(("location", DayOneImport.location(loc))) }
            if let w = try r.object("weather") { draft.fields.append(("weather", DayOneImport.weather(w))) }
            if let device = DayOneImport.device(r) { draft.fields.append(("device", device)) }
            if let modified = try r.string("modifiedDate") { draft.fields.append(("modified", .string(modified))) }
            if let uuid = try r.string("uuid") { draft.fields.append(("uuid", .string(uuid))) }
            var item = ImportedEntry(draft: draft, record: "\(journal.lastPathComponent) \(r.name)")
            // Day One's own id: the same record imported again (the .json after the .zip, whose
            // photo links differ) is recognised by it.
            if r["uuid"] != nil { item.idField = "uuid" }
            try attachPhotos(r, photos: photos, root: root, to: &item, batch: batch)
            batch.entries.append(item)
        }
    }

    /// Photos become attachments named `<md5>.<type>`; the body's `dayone-moment://ID` links point at them.
    /// Each name is one path component and each photo resolves inside the export (`ImportPath`), or nothing is imported.
    func attachPhotos(_ r: JSONRecord, photos: URL?, root: URL, to item: inout ImportedEntry, batch: ImportBatch) throws {
        guard let v = r["photos"] else { return }
        guard case let .array(list) = v else { throw r.fail("photos", "must be a list") }
        var links: [(identifier: String, name: String)] = []
        for (k, p) in list.enumerated() {
            let photo = try JSONRecord(p, file: r.file, name: "\(r.name).photos[\(k)]")
            guard let md5 = try photo.string("md5") else { continue }
            try ImportPath.component(md5, file: r.file, record: photo.name, field: "md5")
            let type = try photo.string("type") ?? "jpeg"
            try ImportPath.component(type, file: r.file, record: photo.name, field: "type")
            let identifier = try photo.string("identifier")
            if let identifier { try ImportPath.component(identifier, file: r.file, record: photo.name, field: "identifier") }
            let name = md5 + "." + type
            guard let folder = photos,
                  let source = try ImportPath.checkedSource(folder.appendingPathComponent(name), root: root, file: r.file, record: photo.name, field: "md5")
            else {
                batch.warnings.append(Diagnostic(.warning, "\(r.name): the photo \(name) is not in the export; its link is kept as it was", at: SourceLocation(path: r.file)))
                continue
            }
            item.attachments.append((name, source))
            if let identifier { links.append((identifier, name)) }
        }
        guard !item.attachments.isEmpty else { return }
        let body = item.draft.body
        let names = item.attachments.map(\.name)
        item.body = { id in
            var b = body
            for l in links { b = b.replacingOccurrences(of: "dayone-moment://\(l.identifier)", with: id + "/" + l.name) }
            // Photos the text does not show are linked at its end, as `attach` does.
            let unlinked = names.filter { !b.contains(id + "/" + $0) }
            return Attachments.appendLinks(unlinked, id: id, to: b)
        }
    }

    static func location(_ pairs: [(String, JSONValue)]) -> JSONValue {
        let map = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        var out: [(String, JSONValue)] = []
        if let name = map["placeName"] { out.append(("name", name)) }
        if let lat = map["latitude"] { out.append(("lat", lat)) }
        if let lon = map["longitude"] { out.append(("lon", lon)) }
        for (key, label) in [("localityName", "locality"), ("administrativeArea", "region"), ("country", "country")] {
            if let v = map[key] { out.append((label, v)) }
        }
        return .object(out)
    }

    /// Every weather key Day One wrote: the common four under short names first, the others
    /// (`weatherCode`, `pressureMB`, `moonPhase`, `sunriseDate`, …) in snake case, in their order.
    static func weather(_ pairs: [(String, JSONValue)]) -> JSONValue {
        let map = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        let named = [("conditionsDescription", "conditions"), ("temperatureCelsius", "temperature_c"),
                     ("relativeHumidity", "humidity"), ("windSpeedKPH", "wind_kph")]
        var out: [(String, JSONValue)] = []
        for (key, label) in named {
            if let v = map[key] { out.append((label, v)) }
        }
        for (key, value) in pairs where !named.contains(where: { $0.0 == key }) && value != .null {
            out.append((snakeCase(key), value))
        }
        return .object(out)
    }

    /// The device the entry was written on: `{name, model, type, os}` with what the record has.
    static func device(_ r: JSONRecord) -> JSONValue? {
        var out: [(String, JSONValue)] = []
        for (key, label) in [("creationDevice", "name"), ("creationDeviceModel", "model"), ("creationDeviceType", "type")] {
            if let v = r[key] { out.append((label, v)) }
        }
        let os = [r["creationOSName"]?.stringValue, r["creationOSVersion"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        if !os.isEmpty { out.append(("os", .string(os))) }
        return out.isEmpty ? nil : .object(out)
    }

    /// `pressureMB` → `pressure_mb`, `moonPhaseCode` → `moon_phase_code`.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        var previousLower = false
        for c in key {
            if c.isUppercase, previousLower { out += "_" }
            out += c.lowercased()
            previousLower = c.isLowercase || c.isNumber
        }
        return out
    }

    /// Day One escapes Markdown punctuation (`lake\.`, `\-`, `\(`). An escape is dropped where the
    /// character means nothing there, and kept where dropping it would change the text into markup:
    /// before `*`, `_`, `` ` ``, `[`, `]`, `<`, `\` anywhere, and before a block marker (`#`, `-`, `+`,
    /// `>`, `1.`) at the start of a line.
    public static func unescape(_ text: String) -> String {
        let keep: Set<Character> = ["*", "_", "`", "[", "]", "<", "\\", "|", "~"]
        var out = ""
        var chars = Array(text)
        chars.append("\0")
        var i = 0
        var lineStart = true
        while i < chars.count - 1 {
            let c = chars[i]
            let next = chars[i + 1]
            if c == "\\", next.isASCII, next.isPunctuation || next.isSymbol {
                let opensBlock = (lineStart && "#-+>".contains(next)) || (next == "." && lineIsDigits(out))
                if keep.contains(next) || opensBlock { out.append(c) }
                out.append(next)
                i += 2
                lineStart = false
                continue
            }
            out.append(c)
            if c == "\n" { lineStart = true } else if c != " " { lineStart = false }
            i += 1
        }
        return out
    }

    /// Whether the current line so far is only digits (so a `.` would make it an ordered list).
    private static func lineIsDigits(_ s: String) -> Bool {
        let line = s.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return !line.isEmpty && line.allSatisfy(\.isNumber)
    }
}
