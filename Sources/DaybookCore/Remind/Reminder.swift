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
    /// Tell by the diary's reminder log (`ReminderLog`), which the next daybook command shows,
    /// where no notifier reaches the user.
    public var log = false

    /// How the reminder tells: `notify-send`, `mail ADDRESS` or `log`.
    public var telling: String { log ? "log" : mail.map { "mail \($0)" } ?? "notify-send" }

    public init(diary: String, binary: String, at time: String, mail: String?, log: Bool = false) throws {
        for (what, value) in [("the diary's path", diary), ("daybook's path", binary), ("--mail", mail ?? "")]
        where value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw DaybookError.usage("\(what) holds a control character (a line break?): \(value.debugDescription); a reminder cannot name it")
        }
        if let mail, mail.isEmpty || mail.hasPrefix("-") || mail.contains(where: \.isWhitespace) {
            throw DaybookError.usage("--mail \(mail): not a mail address (no spaces, not starting with -)")
        }
        (self.diary, self.binary, self.mail, self.log) = (diary, binary, mail, log && mail == nil)
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
    /// or cron reports it with what daybook said on stderr. A notification or mail that fails
    /// fails the job (exit 3, saying so on stderr), so a reminder that cannot tell is never
    /// silent. With `log`, `due --remind-log` writes the diary's reminder log itself (no shell tool
    /// is needed). `remind test` sets DAYBOOK_REMIND_TEST to hear whether it told.
    public var script: String {
        let told = "[ -z \"$DAYBOOK_REMIND_TEST\" ] || echo told"
        if log {
            return "out=$(\(Reminder.shellQuoted(binary)) --diary \(Reminder.shellQuoted(diary)) due --remind-log); status=$?; "
                + "if [ \"$status\" -eq 1 ]; then \(told); fi; [ \"$status\" -le 1 ]"
        }
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
        let failed = "echo \(Reminder.shellQuoted("daybook: the reminder could not tell (\(telling) failed)")) >&2; exit 3"
        return "\(due); if [ \"$status\" -eq 1 ]; then { \(tell); } || { \(failed); }; \(told); fi; [ \"$status\" -le 1 ]"
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
    static let logComment = "# daybook-tell: log"

    var header: String {
        "\(Reminder.written)\n\(Reminder.diaryComment)\(diary)\n" + (mail.map { "\(Reminder.mailComment)\($0)\n" } ?? "")
            + (log ? Reminder.logComment + "\n" : "")
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
    var cronMarker: String { "# \(name) (daybook remind, \(telling)): \(diary)" }

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

    /// The command the installed reminder runs, as /bin/sh gets it: from a crontab's line (its
    /// five time fields off, `\%` back to `%`), or from a service unit's `ExecStart=/bin/sh -c "…"`
    /// (systemd's quoting undone). Nil when it is not daybook's form.
    public static func command(cronLine line: String) -> String? {
        let f = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard f.count == 6 else { return nil }
        return String(f[5]).replacingOccurrences(of: "\\%", with: "%")
    }

    /// The command of the reminder `name` in a crontab's text (the line after its marker).
    public static func command(named name: String, crontab: String) -> String? {
        let lines = crontab.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let i = lines.firstIndex(where: { CronMarker($0)?.name == name }), i + 1 < lines.count else { return nil }
        return command(cronLine: lines[i + 1])
    }

    public static func command(serviceUnit text: String) -> String? {
        let prefix = "ExecStart="
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        var words: [String] = [], word = "", quoted = false, started = false
        var chars = Array(line.dropFirst(prefix.count))[...]
        while let c = chars.popFirst() {
            switch c {
            case "\"": quoted.toggle(); started = true
            case "\\" where quoted: if let n = chars.popFirst() { word.append(n) }
            case "$" where chars.first == "$", "%" where chars.first == "%": word.append(c); chars.removeFirst()
            case " " where !quoted: if started || !word.isEmpty { words.append(word) }; word = ""; started = false
            default: word.append(c); started = true
            }
        }
        if started || !word.isEmpty { words.append(word) }
        guard words.count == 3, words[0] == "/bin/sh", words[1] == "-c" else { return nil }
        return words[2]
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
        public var log = false

        /// `notify-send`, `mail ADDRESS` or `log`.
        public var telling: String { log ? "log" : mail.map { "mail \($0)" } ?? "notify-send" }

        public var json: JSONValue {
            .object([("name", .string(name)), ("diary", .string(diary)), ("at", .string(at)), ("via", .string(via)),
                     ("mail", mail.map(JSONValue.string) ?? .null), ("log", .bool(log))])
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
                if line == logComment { found.log = true }
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
            return Installed(name: m.name, diary: m.diary, at: at, via: "cron", mail: m.mail, log: m.log)
        }
    }
}

/// `# daybook-remind-HASH (daybook remind, notify-send|mail ADDRESS): DIARY`
struct CronMarker {
    var name: String, mail: String?, diary: String, log: Bool

    init?(_ line: String) {
        guard line.hasPrefix("# daybook-remind-"), let open = line.range(of: " (daybook remind, "),
              let close = line.range(of: "): ", range: open.upperBound..<line.endIndex) else { return nil }
        name = String(line[line.index(line.startIndex, offsetBy: 2)..<open.lowerBound])
        let how = line[open.upperBound..<close.lowerBound]
        mail = how.hasPrefix("mail ") ? String(how.dropFirst(5)) : nil
        log = how == "log"
        diary = String(line[close.upperBound...])
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
