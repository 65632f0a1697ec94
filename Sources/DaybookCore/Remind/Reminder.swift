// `remind`: a daily run of `daybook due` that notifies or mails when something is overdue, as systemd user units or a crontab line.
import Foundation

public struct Reminder: Sendable {
    /// The diary's absolute path.
    public var diary: String
    /// The daybook binary's absolute path.
    public var binary: String
    public var hour: Int
    public var minute: Int
    /// Mail to this address instead of a desktop notification.
    public var mail: String?

    public init(diary: String, binary: String, at time: String, mail: String?) throws {
        for (what, value) in [("the diary's path", diary), ("daybook's path", binary), ("--mail", mail ?? "")]
        where value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw DaybookError.usage("\(what) holds a control character (a line break?): \(value.debugDescription); a reminder cannot name it")
        }
        if let mail, mail.isEmpty || mail.hasPrefix("-") || mail.contains(where: \.isWhitespace) {
            throw DaybookError.usage("--mail \(mail): not a mail address (no spaces, not starting with -)")
        }
        (self.diary, self.binary, self.mail) = (diary, binary, mail)
        (hour, minute) = try Reminder.time(time)
    }

    /// `HH:MM` on the 24-hour clock.
    public static func time(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), let m = Int(parts[1]) else {
            throw DaybookError.usage("--at \(text): write the time as HH:MM on the 24-hour clock, e.g. 20:30")
        }
        guard h < 24 else { throw DaybookError.usage("--at \(text): the hour is 00 to 23") }
        guard m < 60 else { throw DaybookError.usage("--at \(text): the minute is 00 to 59") }
        return (h, m)
    }

    public var at: String { String(format: "%02d:%02d", hour, minute) }

    /// `daybook-remind-` and 12 hex digits of a checksum of the diary's path: one reminder a diary.
    public var name: String { Reminder.name(diary: diary) }

    public static func name(diary: String) -> String {
        var sum = Checksum64()
        sum.add(Array(diary.utf8))
        return "daybook-remind-" + String(String(sum.value, radix: 16).leftPadded(to: 16).prefix(12))
    }

    public static let subject = "daybook: an entry is overdue"

    /// What runs: `daybook --diary DIARY due`; exit 1 (something overdue) notifies or mails what it
    /// printed, exit 0 does nothing, and another status (an error) is the script's own, so systemd
    /// or cron reports it with what daybook said on stderr.
    public var script: String {
        let due = "out=$(\(Reminder.shellQuoted(binary)) --diary \(Reminder.shellQuoted(diary)) due); status=$?"
        let tell: String
        if let mail {
            let to = Reminder.shellQuoted(mail), subject = Reminder.shellQuoted(Reminder.subject)
            tell = "PATH=\"$PATH:/usr/sbin:/usr/lib\"; if command -v mail >/dev/null 2>&1; then printf '%s\\n' \"$out\" | mail -s \(subject) \(to); "
                + "else printf 'To: %s\\nSubject: %s\\n\\n%s\\n' \(to) \(subject) \"$out\" | sendmail -t; fi"
        } else {
            // From cron the notification daemon is found on the session bus of the user's login.
            tell = "[ -n \"$DBUS_SESSION_BUS_ADDRESS\" ] || export DBUS_SESSION_BUS_ADDRESS=\"unix:path=/run/user/$(id -u)/bus\"; "
                + "notify-send -a daybook \(Reminder.shellQuoted(Reminder.subject)) \"$out\""
        }
        return "\(due); if [ \"$status\" -eq 1 ]; then \(tell); fi; [ \"$status\" -le 1 ]"
    }

    /// `'text'` for /bin/sh, a quote inside as `'\''`.
    public static func shellQuoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// One word of a unit file's command line: in double quotes, `\` and `"` escaped, `$` as `$$`
    /// (no variable) and `%` as `%%` (no specifier).
    public static func systemdQuoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "$", with: "$$").replacingOccurrences(of: "%", with: "%%") + "\""
    }

    // MARK: systemd

    static let written = "# Written by `daybook remind install`; `daybook remind uninstall` removes it."
    static let diaryComment = "# daybook-diary: "
    static let mailComment = "# daybook-mail: "

    var header: String {
        "\(Reminder.written)\n\(Reminder.diaryComment)\(diary)\n" + (mail.map { "\(Reminder.mailComment)\($0)\n" } ?? "")
            + "[Unit]\nDescription=daybook reminder: what is due in \(diary.replacingOccurrences(of: "%", with: "%%"))\n"
    }

    public var serviceUnit: String {
        header + "\n[Service]\nType=oneshot\nExecStart=/bin/sh -c \(Reminder.systemdQuoted(script))\n"
    }

    public var timerUnit: String {
        header + "\n[Timer]\nOnCalendar=*-*-* \(at):00\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n"
    }

    /// The folder of the user's own systemd units: `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`.
    public static func unitFolder(environment env: [String: String]) -> URL {
        UserFolders.config(environment: env).appendingPathComponent("systemd/user")
    }

    // MARK: cron

    /// The comment above the crontab line: the name, how it tells, and the diary.
    var cronMarker: String { "# \(name) (daybook remind, \(mail.map { "mail \($0)" } ?? "notify-send")): \(diary)" }

    /// The line: cron hands it to /bin/sh, where `%` would be a line break unless escaped.
    var cronLine: String {
        "\(minute) \(hour) * * * /bin/sh -c \(Reminder.shellQuoted(script).replacingOccurrences(of: "%", with: "\\%"))"
    }

    /// `crontab` with this diary's reminder in place of any it had; every other line kept as it was.
    public func installing(into crontab: String) -> String {
        var lines = Reminder.removing(name, from: crontab).lines
        if lines.last == "" { lines.removeLast() }
        return (lines + [cronMarker, cronLine]).joined(separator: "\n") + "\n"
    }

    /// `crontab` without the reminder `name` (its marker and the line after it), and whether it had one.
    public static func removing(_ name: String, from crontab: String) -> (lines: [String], removed: Bool) {
        var out: [String] = []
        var skip = false, removed = false
        for line in crontab.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if skip { skip = false; if !line.hasPrefix("#") && !line.isEmpty { continue } }
            if let m = CronMarker(line), m.name == name { skip = true; removed = true; continue }
            out.append(line)
        }
        return (out, removed)
    }

    // MARK: what is installed

    public struct Installed: Sendable, Equatable {
        public var name: String
        public var diary: String
        /// `HH:MM`, or what the timer or line says when it is not daybook's form.
        public var at: String
        /// `systemd` or `cron`.
        public var via: String
        public var mail: String?

        public var json: JSONValue {
            .object([("name", .string(name)), ("diary", .string(diary)), ("at", .string(at)), ("via", .string(via)),
                     ("mail", mail.map(JSONValue.string) ?? .null)])
        }
    }

    /// The reminders whose units are in `folder`, by name.
    public static func installed(unitFolder folder: URL) -> [Installed] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasPrefix("daybook-remind-") && $0.hasSuffix(".timer") }.sorted().compactMap { file in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { return nil }
            var found = Installed(name: String(file.dropLast(".timer".count)), diary: "", at: "", via: "systemd")
            for line in text.split(separator: "\n").map(String.init) {
                if line.hasPrefix(diaryComment) { found.diary = String(line.dropFirst(diaryComment.count)) }
                if line.hasPrefix(mailComment) { found.mail = String(line.dropFirst(mailComment.count)) }
                if line.hasPrefix("OnCalendar=") {
                    let when = String(line.dropFirst("OnCalendar=".count))
                    found.at = when.hasPrefix("*-*-* ") && when.hasSuffix(":00") ? String(when.dropFirst(6).dropLast(3)) : when
                }
            }
            return found
        }
    }

    /// The reminders in a crontab's text.
    public static func installed(crontab: String) -> [Installed] {
        let lines = crontab.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.compactMap { i in
            guard let m = CronMarker(lines[i]) else { return nil }
            var at = "?"
            if i + 1 < lines.count {
                let f = lines[i + 1].split(separator: " ", maxSplits: 2)
                if f.count >= 2, let minute = Int(f[0]), let hour = Int(f[1]) { at = String(format: "%02d:%02d", hour, minute) }
            }
            return Installed(name: m.name, diary: m.diary, at: at, via: "cron", mail: m.mail)
        }
    }
}

/// `# daybook-remind-HASH (daybook remind, notify-send|mail ADDRESS): DIARY`
struct CronMarker {
    var name: String, mail: String?, diary: String

    init?(_ line: String) {
        guard line.hasPrefix("# daybook-remind-"), let open = line.range(of: " (daybook remind, "),
              let close = line.range(of: "): ", range: open.upperBound..<line.endIndex) else { return nil }
        name = String(line[line.index(line.startIndex, offsetBy: 2)..<open.lowerBound])
        let how = line[open.upperBound..<close.lowerBound]
        mail = how.hasPrefix("mail ") ? String(how.dropFirst(5)) : nil
        diary = String(line[close.upperBound...])
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
