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
        subcommands: [RemindInstall.self, RemindLs.self, RemindUninstall.self],
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
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let diary = try global.openDiary()
        guard let binary = RemindSystem.binaryPath else {
            throw DaybookError.io("cannot tell where the daybook binary is, to name it in the reminder")
        }
        let reminder = try Reminder(diary: RemindSystem.diaryPath(diary), binary: binary, at: at, mail: mail)
        let how = reminder.mail.map { "mails \($0)" } ?? "shows a notification"
        if Spawn.find("systemctl") != nil {
            try installUnits(reminder, how: how)
        } else if Spawn.find("crontab") != nil {
            try RemindSystem.writeCrontab(reminder.installing(into: try RemindSystem.readCrontab()))
            global.confirm("installed a crontab line (\(reminder.name)): every day at \(reminder.at), `daybook due` \(how) when an entry is overdue")
        } else {
            throw DaybookError.usage("cannot install a reminder: neither systemd (systemctl) nor cron (crontab) is on PATH; have another scheduler run `\(binary) --diary \(reminder.diary) due` (exit 1: something is overdue)")
        }
    }

    func installUnits(_ reminder: Reminder, how: String) throws {
        let folder = RemindSystem.unitFolder
        try AtomicFile.makeDirectory(folder)
        let timer = reminder.name + ".timer"
        try AtomicFile.write(reminder.serviceUnit, to: folder.appendingPathComponent(reminder.name + ".service"))
        try AtomicFile.write(reminder.timerUnit, to: folder.appendingPathComponent(timer))
        let written = "wrote \(folder.path)/\(reminder.name).{service,timer}: every day at \(reminder.at), `daybook due` \(how) when an entry is overdue"
        let reload = try RemindSystem.systemctl("daemon-reload")
        guard reload.succeeded else {
            Terminal.message("\(written)\ndaybook: warning: no systemd user manager answered (systemctl --user daemon-reload: \(reload.complaint)); the timer is not running yet. Start it with:\n  systemctl --user daemon-reload && systemctl --user enable --now \(timer)")
            return
        }
        let enable = try RemindSystem.systemctl("enable", "--now", timer)
        guard enable.succeeded else {
            throw DaybookError.io("\(written), but systemctl --user enable --now \(timer) failed (\(enable.complaint)); run it again once that is fixed")
        }
        global.confirm("\(written); enabled \(timer) (systemctl --user list-timers shows it)")
    }
}

struct RemindLs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the reminders installed, for every diary: name, time, systemd or cron, how it tells, diary.")

    @Flag(help: "A JSON array of {name, diary, at, via, mail}.") var json = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        Terminal.configure(color: global.color)
        var found = Reminder.installed(unitFolder: RemindSystem.unitFolder)
        if Spawn.find("crontab") != nil { found += Reminder.installed(crontab: try RemindSystem.readCrontab()) }
        if json { return Terminal.out(JSONValue.array(found.map(\.json)).serialized(pretty: true)) }
        for r in found {
            Terminal.out("\(Terminal.bold(r.name))  \(r.at)  \(r.via)  \(r.mail.map { "mail \($0)" } ?? "notify")  \(r.diary)")
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
