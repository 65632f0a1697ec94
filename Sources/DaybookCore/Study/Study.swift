// A diary study: `study.yml` naming the participants' diaries, their attributes and the protocol.
import Foundation
import Yams

/// One participant: where their diary comes from, where its copy lives in the study folder, and
/// the attributes the study gave them (site, condition, age group, …).
public struct Participant: Equatable, Sendable {
    public var id: String
    /// The diary as written in study.yml: a path (relative to the study folder) or a git URL.
    public var diary: String
    /// The branch to follow (default: the remote's default branch).
    public var branch: String?
    /// In the order study.yml lists them; values are scalars (text, numbers, true/false).
    public var attributes: [(key: String, value: JSONValue)]
    /// Where the participant is declared, for messages.
    public var location: SourceLocation

    public init(id: String, diary: String, branch: String? = nil, attributes: [(key: String, value: JSONValue)] = [],
                location: SourceLocation = SourceLocation(path: Study.fileName)) {
        self.id = id
        self.diary = diary
        self.branch = branch
        self.attributes = attributes
        self.location = location
    }

    public func attribute(_ key: String) -> JSONValue? { attributes.first { $0.key == key }?.value }

    public static func == (a: Participant, b: Participant) -> Bool {
        a.id == b.id && a.diary == b.diary && a.branch == b.branch && a.location == b.location
            && a.attributes.map(\.key) == b.attributes.map(\.key) && a.attributes.map(\.value) == b.attributes.map(\.value)
    }
}

public struct Study: Sendable {
    public static let fileName = "study.yml"
    /// The folder, under the study folder, that holds each participant's copy.
    public static let participantsFolder = "participants"

    public var folder: URL
    public var name: String?
    /// The protocol's writing goal; nil: each diary's own `streak.goal`.
    public var goal: WritingGoal?
    /// The protocol's first and last day; nil: from each participant's first entry, up to today.
    public var start: LocalDay?
    public var end: LocalDay?
    public var participants: [Participant] = []

    public init(folder: URL) { self.folder = folder }

    /// The folder of a participant's copy of their diary.
    public func copy(of p: Participant) -> URL {
        folder.appendingPathComponent(Study.participantsFolder).appendingPathComponent(p.id)
    }

    /// The study folder: `explicit` when given, else the nearest folder at or above `cwd` that
    /// holds a study.yml; nil when there is none.
    public static func locate(explicit: String?, workingDirectory cwd: URL) -> URL? {
        if let explicit {
            let url = Diary.absolute(explicit, cwd)
            // `daybook study sync path/to/study.yml` names the folder too.
            return url.lastPathComponent == fileName ? url.deletingLastPathComponent() : url
        }
        var dir = cwd.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(fileName).path) { return dir }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    /// Reads `folder/study.yml`; `display` is how messages name the file.
    public static func load(_ folder: URL, display: String) throws -> Study {
        let file = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw DaybookError.input("no \(fileName) in \(folder.path): a study is a folder with a \(fileName) naming the participants' diaries (see man daybook-study)")
        }
        guard let text = String(validatingUTF8Data: data) else { throw EntryParser.utf8Error(data, path: display) }
        var study = try parse(text, path: display)
        study.folder = folder
        return study
    }

    static let knownKeys = ["name", "protocol", "participants"]
    static let participantKeys = ["diary", "branch", "attributes"]

    /// Parses the text of study.yml; `path` names the file in errors.
    public static func parse(_ text: String, path: String) throws -> Study {
        var study = Study(folder: URL(fileURLWithPath: "."))
        func fail(_ node: Node, _ message: String) -> DaybookError { .input(message, at: YAML.location(of: node, path: path)) }
        func mapping(_ node: Node, _ what: String, allowed: [String]?) throws -> Node.Mapping {
            guard case let .mapping(m) = node else { throw fail(node, "\(what) must be a mapping") }
            if let allowed {
                for (k, _) in m where !allowed.contains(k.string ?? "") {
                    let key = k.string ?? "?"
                    let close = allowed.min { editDistance($0, key) < editDistance($1, key) } ?? ""
                    let hint = editDistance(close, key) <= 2 ? " (did you mean `\(close)`?)" : " (known: \(allowed.joined(separator: ", ")))"
                    throw fail(k, "unknown key `\(key)` in \(what)\(hint)")
                }
            }
            return m
        }
        func day(_ node: Node, _ key: String) throws -> LocalDay {
            guard let s = node.string, let d = LocalDay.parse(Substring(s)) else { throw fail(node, "protocol.\(key) must be a date YYYY-MM-DD") }
            return d
        }
        guard let root = try YAML.compose(text, path: path) else {
            throw DaybookError.input("\(fileName) is empty: name the participants under `participants:`", at: SourceLocation(path: path, line: 1))
        }
        for (keyNode, value) in try mapping(root, fileName, allowed: knownKeys) {
            switch keyNode.string ?? "" {
            case "name":
                guard let s = value.string else { throw fail(value, "name must be text") }
                study.name = s
            case "protocol":
                for (k, v) in try mapping(value, "protocol", allowed: ["goal", "start", "end"]) {
                    switch k.string ?? "" {
                    case "goal":
                        guard let g = WritingGoal(node: v) else {
                            throw fail(v, "protocol.goal must be daily, weekdays or a list of days such as [mon, wed, fri]")
                        }
                        study.goal = g
                    case "start": study.start = try day(v, "start")
                    default: study.end = try day(v, "end")
                    }
                }
                if let s = study.start, let e = study.end, e < s { throw fail(value, "protocol.end (\(e)) is before protocol.start (\(s))") }
            default:
                study.participants = try participants(value, path: path, fail: fail, mapping: mapping)
            }
        }
        if study.participants.isEmpty {
            throw DaybookError.input("\(fileName) names no participant: list them under `participants:`", at: YAML.location(of: root, path: path))
        }
        return study
    }

    private static func participants(_ node: Node, path: String, fail: (Node, String) -> DaybookError,
                                     mapping: (Node, String, [String]?) throws -> Node.Mapping) throws -> [Participant] {
        var out: [Participant] = []
        for (idNode, value) in try mapping(node, "participants", nil) {
            guard let id = idNode.string, isParticipantID(id) else {
                throw fail(idNode, "participant id `\(idNode.string ?? "?")` must be letters, digits, `-`, `_` or `.`, not starting with `.` (it names a folder)")
            }
            let what = "participant `\(id)`"
            var p = Participant(id: id, diary: "", location: YAML.location(of: idNode, path: path))
            // `p01: ../diaries/p01` is short for `p01: {diary: ../diaries/p01}`.
            if let s = value.scalar?.string, case .scalar = value {
                p.diary = s
            } else {
                for (k, v) in try mapping(value, what, participantKeys) {
                    switch k.string ?? "" {
                    case "diary":
                        guard let s = v.string, !s.isEmpty else { throw fail(v, "\(what): diary must be a path or a git URL") }
                        p.diary = s
                    case "branch":
                        guard let s = v.string, !s.isEmpty else { throw fail(v, "\(what): branch must be a branch name") }
                        p.branch = s
                    default:
                        for (ak, av) in try mapping(v, "\(what): attributes", nil) {
                            guard let key = ak.string, !key.isEmpty else { throw fail(ak, "\(what): an attribute needs a name") }
                            guard case .scalar = av else {
                                throw fail(av, "\(what): attribute `\(key)` must be one value (text, a number, true or false), not a list or mapping")
                            }
                            p.attributes.append((key, YAML.value(av)))
                        }
                    }
                }
            }
            guard !p.diary.isEmpty else { throw fail(idNode, "\(what) has no diary: give its path or git URL as `diary:`") }
            out.append(p)
        }
        return out
    }

    static func isParticipantID(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix(".") && s.count <= 100
            && s.unicodeScalars.allSatisfy { ($0.isASCII && (CharacterSet.alphanumerics.contains($0))) || "-_.".unicodeScalars.contains($0) }
    }

    /// Every attribute name in use, in order of first appearance.
    public var attributeNames: [String] {
        var seen = Set<String>()
        return participants.flatMap { $0.attributes.map(\.key) }.filter { seen.insert($0).inserted }
    }

    /// The URL or absolute path libgit2 clones from: a URL as written, a path taken from the study folder.
    public func source(of p: Participant) -> String {
        let s = p.diary
        if s.contains("://") || Study.isSCPLike(s) { return s }
        return Diary.absolute(s, folder).path
    }

    /// `user@host:path`, git's short form of an SSH URL.
    static func isSCPLike(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), !s.hasPrefix("/"), !s.hasPrefix(".") else { return false }
        return !s[..<colon].contains("/") && s[..<colon].count > 1
    }
}
