// `daybook remind install|ls|uninstall`: a daily `daybook due` as a systemd user timer, else a crontab line.
import ArgumentParser
import DaybookCore
import Foundation

struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Install, list and remove a daily reminder that runs `daybook due`.",
        discussion: """
        The reminder is a systemd user timer where systemctl is on PATH, else a crontab line; it \
        shows a desktop notification (notify-send), or mails with --mail, when `due` finds \
        something overdue. `daybook remind` alone is `remind ls`. See `man daybook-remind`.
        """,
        subcommands: [RemindInstall.self, RemindLs.self, RemindTest.self, RemindUninstall.self],
        defaultSubcommand: RemindLs.self)
}

/// What the reminder commands share: where units go, and running systemctl and crontab.
enum RemindSystem {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var unitFolder: URL { Reminder.unitFolder(environment: environment) }

    /// The diary's absolute path, with links resolved, so one diary has one reminder.
    static func diaryPath(_ diary: Diary) -> String { diary.root.resolvingSymlinksInPath().standardizedFileURL.path }

    /// The daybook binary as it was started (a link on PATH stays a link, so an upgrade that
    /// moves the real file keeps the reminder working), made absolute; else the file itself.
    static var binaryPath: String? {
        let argv0 = CommandLine.arguments.first ?? ""
        if argv0.contains("/") {
            let url = argv0.hasPrefix("/") ? URL(fileURLWithPath: argv0)
                : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(argv0)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.standardizedFileURL.path }
        } else if !argv0.isEmpty, let found = Spawn.find(argv0), found.hasPrefix("/") {
            return URL(fileURLWithPath: found).standardizedFileURL.path
        }
        return Bundle.main.executableURL.map(\.path).flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    static func systemctl(_ args: String...) throws -> Spawn.Outcome { try Spawn.run(["systemctl", "--user"] + args) }

    /// The user's crontab; empty when there is none yet. Any other failure is an error, so a
    /// crontab that could not be read is never replaced.
    static func readCrontab() throws -> String {
        let r = try Spawn.run(["crontab", "-l"])
        if r.succeeded { return String(decoding: r.out, as: UTF8.self) }
        if String(decoding: r.err, as: UTF8.self).lowercased().contains("no crontab") { return "" }
        throw DaybookError.io("cannot read the crontab (crontab -l: \(r.complaint)); it was left as it is")
    }

    /// Whether the way `telling` names can reach the user from here: notify-send or a mailer on
    /// PATH (sendmail also in /usr/sbin and /usr/lib, where the script looks); the log always can.
    static func canTell(mail: String?, log: Bool) -> Bool {
        if log { return true }
        if mail != nil {
            return Spawn.find("mail") != nil || Spawn.find("sendmail") != nil
                || ["/usr/sbin/sendmail", "/usr/lib/sendmail"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        }
        return Spawn.find("notify-send") != nil
    }

    static func writeCrontab(_ text: String) throws {
        let r = try Spawn.run(["crontab", "-"], input: Data(text.utf8))
        guard r.succeeded else { throw DaybookError.io("cannot write the crontab (crontab -: \(r.complaint))") }
    }
}

struct RemindInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Run `daybook due` every day at a time and notify (or mail) when an entry is overdue.")

    @Option(help: ArgumentHelp("The time of day, HH:MM on the 24-hour clock.", valueName: "HH:MM")) var at = "20:30"
    @Option(help: ArgumentHelp("Mail what is overdue to this address (with mail, else sendmail) instead of a desktop notification.", valueName: "address"))
    var mail: String?
    @Flag(help: "Tell by the diary's reminder log, which the next daybook command shows (where no notification reaches you).")
    var log = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if log && mail != nil { throw ValidationError("choose --mail or --log") }
    }

    func run() throws {
        let diary = try global.openDiary()
        guard let binary = RemindSystem.binaryPath else {
            throw DaybookError.io("cannot tell where the daybook binary is, to name it in the reminder")
        }
        // The way of telling is checked now: a reminder that fires and cannot tell is no reminder.
        var byLog = log
        if let mail, !RemindSystem.canTell(mail: mail, log: false) {
            throw DaybookError.nothing("daybook: cannot mail \(mail): neither mail nor sendmail is installed (apt install mailutils, or a sendmail); nothing installed. Use --log to be told by the next daybook command instead")
        }
        if mail == nil, !log, !RemindSystem.canTell(mail: nil, log: false) {
            byLog = true
            Terminal.message("daybook: notify-send is not installed (apt install libnotify-bin for desktop notifications): the reminder writes what is overdue to \(diary.displayPath(".daybook/reminders.log")), and the next daybook command in this diary shows it")
        }
        let reminder = try Reminder(diary: RemindSystem.diaryPath(diary), binary: binary, at: at, mail: mail, log: byLog)
        let how = reminder.log ? "writes to the reminder log" : reminder.mail.map { "mails \($0)" } ?? "shows a notification"
        if Spawn.find("systemctl") != nil, try installUnits(reminder, how: how) {
            return
        } else if Spawn.find("crontab") != nil {
            try RemindSystem.writeCrontab(reminder.installing(into: try RemindSystem.readCrontab()))
            global.confirm("installed a crontab line (\(reminder.name)): every day at \(reminder.at), `daybook due` \(how) when an entry is overdue")
        } else if Spawn.find("systemctl") != nil {
            throw DaybookError.nothing("daybook: no reminder installed: no systemd user manager answers here (a container, or an SSH login without lingering) and there is no cron (crontab). Run `loginctl enable-linger $USER` and log in again, or install cron, then run `daybook remind install` again; or have another scheduler run `\(binary) --diary \(reminder.diary) due` every day (exit 1: something is overdue)")
        } else {
            throw DaybookError.usage("cannot install a reminder: neither systemd (systemctl) nor cron (crontab) is on PATH; have another scheduler run `\(binary) --diary \(reminder.diary) due` (exit 1: something is overdue)")
        }
    }

    /// Installs the timer; false (the units removed again) when no user manager answers, so that
    /// cron is tried: units that no manager reads would never run (issue 43).
    func installUnits(_ reminder: Reminder, how: String) throws -> Bool {
        let folder = RemindSystem.unitFolder
        try AtomicFile.makeDirectory(folder)
        let timer = reminder.name + ".timer"
        let units = [reminder.name + ".service", timer].map { folder.appendingPathComponent($0) }
        try AtomicFile.write(reminder.serviceUnit, to: units[0])
        try AtomicFile.write(reminder.timerUnit, to: units[1])
        let written = "wrote \(folder.path)/\(reminder.name).{service,timer}: every day at \(reminder.at), `daybook due` \(how) when an entry is overdue"
        let reload = try RemindSystem.systemctl("daemon-reload")
        guard reload.succeeded else {
            for u in units { try? FileManager.default.removeItem(at: u) }
            Terminal.message("daybook: no systemd user manager answered (systemctl --user daemon-reload: \(reload.complaint)); a timer would never run")
            return false
        }
        let enable = try RemindSystem.systemctl("enable", "--now", timer)
        guard enable.succeeded else {
            throw DaybookError.io("\(written), but systemctl --user enable --now \(timer) failed (\(enable.complaint)); run it again once that is fixed")
        }
        global.confirm("\(written); enabled \(timer) (systemctl --user list-timers shows it)")
        return true
    }
}

struct RemindLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the reminders installed, for every diary: name, time, systemd or cron, how it tells, diary.")

    @Flag(help: "A JSON array of {name, diary, at, via, mail, log, can_fire, problem}.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        Terminal.configure(color: global.color)
        var found = Reminder.installed(unitFolder: RemindSystem.unitFolder)
        if Spawn.find("crontab") != nil { found += Reminder.installed(crontab: try RemindSystem.readCrontab()) }
        let problems = try found.map(RemindLs.problem)
        if json {
            return Terminal.out(JSONValue.array(zip(found, problems).map { r, p in
                guard case var .object(o) = r.json else { return r.json }
                o += [("can_fire", .bool(p == nil)), ("problem", p.map(JSONValue.string) ?? .null)]
                return .object(o)
            }).serialized(pretty: true))
        }
        for (r, p) in zip(found, problems) {
            let tell = r.log ? "log" : r.mail.map { "mail \($0)" } ?? "notify"
            Terminal.out("\(Terminal.bold(r.name))  \(r.at)  \(r.via)  \(tell)  \(r.diary)  \(p.map { "cannot fire: " + $0 } ?? "can fire")")
        }
    }

    /// Why the reminder cannot fire and tell, or nil: its timer is not active (no user manager,
    /// or disabled), or its way of telling is not installed here.
    static func problem(_ r: Reminder.Installed) throws -> String? {
        if r.via == "systemd" {
            guard Spawn.find("systemctl") != nil else { return "systemctl is not on PATH" }
            let active = try RemindSystem.systemctl("is-active", r.name + ".timer")
            let state = String(decoding: active.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard active.succeeded, state == "active" else {
                return "the timer is not active (\(state.isEmpty ? active.complaint : state)): systemctl --user enable --now \(r.name).timer"
            }
        }
        guard RemindSystem.canTell(mail: r.mail, log: r.log) else {
            return r.mail != nil ? "neither mail nor sendmail is installed" : "notify-send is not installed (daybook remind install --log tells by the next command)"
        }
        return nil
    }
}

struct RemindTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run this diary's reminder now, as its timer or cron line would, and say what happened.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let path = RemindSystem.diaryPath(diary)
        let name = Reminder.name(diary: path)
        // What is installed runs, not what would be installed now: a stale binary path shows.
        var command: String?, via = ""
        let service = RemindSystem.unitFolder.appendingPathComponent(name + ".service")
        if let text = try? String(contentsOf: service, encoding: .utf8) {
            command = Reminder.command(serviceUnit: text)
            via = "the systemd service \(service.path)"
        } else if Spawn.find("crontab") != nil, let c = Reminder.command(named: name, crontab: try RemindSystem.readCrontab()) {
            command = c
            via = "the crontab line"
        }
        guard let command else { throw DaybookError.nothing("daybook: no reminder is installed for \(path) (daybook remind install)") }
        // Only so the script says whether it told (a timer's or cron's run says nothing on success).
        setenv("DAYBOOK_REMIND_TEST", "1", 1)
        let r = try Spawn.run(["/bin/sh", "-c", command])
        let out = String(decoding: r.out, as: UTF8.self)
        let err = String(decoding: r.err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch r.status {
        case .some(0) where out.contains("told"):
            global.confirm("daybook: ran \(via): something is overdue, and it told you")
        case .some(0):
            global.confirm("daybook: ran \(via): nothing is overdue, so it told nothing (it tells only when `daybook due` exits 1)")
        case .some(3):
            throw DaybookError.io("ran \(via): something is overdue, but telling failed: \(err); the job fails so (see daybook remind ls)")
        default:
            throw DaybookError.io("ran \(via): it failed (\(r.complaint))")
        }
    }
}

struct RemindUninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove this diary's reminder: stop and disable the timer and delete its units, or remove its crontab line.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        let path = RemindSystem.diaryPath(diary)
        let name = Reminder.name(diary: path)
        let folder = RemindSystem.unitFolder
        let units = [name + ".timer", name + ".service"].map { folder.appendingPathComponent($0) }
        var removed: [String] = []
        if units.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            if Spawn.find("systemctl") != nil {
                let disable = try RemindSystem.systemctl("disable", "--now", name + ".timer")
                if !disable.succeeded { Terminal.message("daybook: warning: systemctl --user disable --now \(name).timer: \(disable.complaint)") }
            }
            for u in units where FileManager.default.fileExists(atPath: u.path) { try FileManager.default.removeItem(at: u) }
            if Spawn.find("systemctl") != nil { _ = try? RemindSystem.systemctl("daemon-reload") }
            removed.append("the systemd units \(folder.path)/\(name).{service,timer}")
        }
        if Spawn.find("crontab") != nil {
            let crontab = try RemindSystem.readCrontab()
            let edited = Reminder.removing(name, from: crontab)
            if edited.removed {
                try RemindSystem.writeCrontab(edited.lines.joined(separator: "\n"))
                removed.append("the crontab line")
            }
        }
        guard !removed.isEmpty else { throw DaybookError.nothing("daybook: no reminder is installed for \(path)") }
        global.confirm("removed the reminder of \(path) (\(name)): \(removed.joined(separator: " and "))")
    }
}
