// ~/.ssh/config as OpenSSH reads it for the settings that say where and as whom to connect
// (HostName, User, Port, IdentityFile, IdentitiesOnly), so a `Host` alias that works with `git`
// (which runs ssh) works with libgit2's SSH too.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum SSHConfig {
    /// The settings for one host as given (an alias or a name).
    struct Host: Equatable {
        var alias: String
        var hostName: String?
        var user: String?
        var port: Int?
        var identityFiles: [String] = []
        var identitiesOnly = false
        /// Whether any setting of the file applied to this host.
        var configured: Bool { hostName != nil || user != nil || port != nil || !identityFiles.isEmpty || identitiesOnly }
    }

    /// The blocks of a config file: the `Host` patterns and their settings, in order.
    struct File {
        var blocks: [(patterns: [String], settings: [(String, String)])] = []

        /// The settings for `name`: for each keyword the first value that applies, as OpenSSH takes
        /// it; every `IdentityFile` that applies, in order.
        func host(_ name: String, home: String) -> Host {
            var host = Host(alias: name)
            var seen = Set<String>()
            for block in blocks where SSHConfig.matches(block.patterns, name) {
                for (key, value) in block.settings {
                    if key == "identityfile" { host.identityFiles.append(value); continue }
                    guard !seen.contains(key) else { continue }
                    seen.insert(key)
                    switch key {
                    case "hostname": host.hostName = value
                    case "user": host.user = value
                    case "port": host.port = Int(value)
                    case "identitiesonly": host.identitiesOnly = value.lowercased() == "yes"
                    default: break
                    }
                }
            }
            let real = host.hostName.map { expand($0, host: name, home: home) } ?? name
            host.hostName = host.hostName.map { _ in real }
            host.identityFiles = host.identityFiles.map { expand($0, host: real, home: home, user: host.user) }
            return host
        }
    }

    static func parse(_ text: String, home: String) -> File {
        var file = File()
        file.blocks.append((["*"], []))  // lines before the first Host apply to every host
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let words = arguments(line)
            guard var key = words.first?.lowercased() else { continue }
            var values = Array(words.dropFirst())
            if key.hasSuffix("="), !key.dropLast().isEmpty { key.removeLast() }
            if values.first == "=" { values.removeFirst() }
            switch key {
            case "host": file.blocks.append((values, []))
            // A Match block's conditions are not evaluated here: its settings apply to no host.
            case "match": file.blocks.append(([], []))
            default:
                guard let value = values.first else { continue }
                file.blocks[file.blocks.count - 1].settings.append((key, value))
            }
        }
        return file
    }

    /// The words of a line: split at blanks and at the first `=`, double quotes keep blanks.
    static func arguments(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, sawEquals = false
        for c in line {
            if c == "\"" { quoted.toggle(); continue }
            if !quoted && (c == " " || c == "\t" || (c == "=" && !sawEquals && words.isEmpty)) {
                if c == "=" { sawEquals = true }
                if !word.isEmpty { words.append(word); word = "" }
                continue
            }
            word.append(c)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// OpenSSH's pattern lists: `*` and `?` wildcards, and a `!pattern` that excludes the host.
    static func matches(_ patterns: [String], _ name: String) -> Bool {
        var matched = false
        for pattern in patterns.flatMap({ $0.split(separator: ",").map(String.init) }) {
            let negated = pattern.hasPrefix("!")
            let glob = negated ? String(pattern.dropFirst()) : pattern
            if fnmatch(glob.lowercased(), name.lowercased(), 0) == 0 {
                if negated { return false }
                matched = true
            }
        }
        return matched
    }

    /// `~` and the `%` tokens OpenSSH expands in HostName and IdentityFile.
    static func expand(_ value: String, host: String, home: String, user: String? = nil) -> String {
        var out = value.hasPrefix("~/") ? home + value.dropFirst(1) : value
        guard out.contains("%") else { return out }
        let local = ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
        for (token, with) in [("%%", "\u{0}"), ("%h", host), ("%d", home), ("%u", local), ("%r", user ?? local)] {
            out = out.replacingOccurrences(of: token, with: with)
        }
        return out.replacingOccurrences(of: "\u{0}", with: "%")
    }

    /// An SSH URL taken apart: `ssh://[user@]host[:port]/path` (also `git+ssh://`, `ssh+git://`)
    /// or git's short form `[user@]host:path`.
    struct Target: Equatable {
        var user: String?
        var host: String
        var port: Int?
        var path: String
        /// The short form, whose path is relative to the home folder unless it starts with `/`.
        var short: Bool

        /// The URL libgit2 connects to, with the host's settings applied; the URL as it was when
        /// ~/.ssh/config says nothing about the host.
        func url(with settings: Host) -> String {
            let host = settings.hostName ?? self.host
            let user = self.user ?? settings.user  // a user in the URL wins, as on ssh's command line
            let port = self.port ?? settings.port
            var path = self.path
            if short && !path.hasPrefix("/") { path = path.hasPrefix("~") ? "/" + path : "/~/" + path }
            let hostPart = host.contains(":") ? "[\(host)]" : host
            return "ssh://" + (user.map { $0 + "@" } ?? "") + hostPart + (port.map { ":\($0)" } ?? "") + path
        }
    }

    static func target(of url: String) -> Target? {
        for scheme in ["ssh://", "git+ssh://", "ssh+git://"] where url.lowercased().hasPrefix(scheme) {
            guard let c = URLComponents(string: "ssh://" + url.dropFirst(scheme.count)), let host = c.host, !host.isEmpty else { return nil }
            return Target(user: c.user, host: host, port: c.port, path: c.percentEncodedPath, short: false)
        }
        guard !url.contains("://"), let colon = url.firstIndex(of: ":") else { return nil }
        let authority = url[..<colon]
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        let path = String(url[url.index(after: colon)...])
        if let at = authority.lastIndex(of: "@") {
            return Target(user: String(authority[..<at]), host: String(authority[authority.index(after: at)...]), port: nil, path: path, short: true)
        }
        return Target(user: nil, host: String(authority), port: nil, path: path, short: true)
    }
}
