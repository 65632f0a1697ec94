// Reminders: the time, the quoting of paths for /bin/sh, systemd and cron, the units, and editing a crontab.
import XCTest
@testable import DaybookCore

final class ReminderTests: XCTestCase {
    let odd = "/tmp/My 'odd' \"diary\" $HOME `x` 100% \\ end"

    func reminder(_ diary: String? = nil, at: String = "20:30", mail: String? = nil) throws -> Reminder {
        try Reminder(diary: diary ?? odd, binary: "/usr/local/bin/daybook", at: at, mail: mail)
    }

    func testTheTimeIsHHMMOnTheTwentyFourHourClock() throws {
        XCTAssertTrue(try Reminder.time("7:05") == (7, 5))
        XCTAssertTrue(try Reminder.time("23:59") == (23, 59))
        for bad in ["25:00", "24:00", "12:60", "12:5", "noon", "", "1:2:3", "-1:00", "١٢:٠٠"] {
            XCTAssertThrowsError(try Reminder.time(bad), bad) { XCTAssertTrue("\($0)".contains("--at"), "\($0)") }
        }
    }

    func testShellQuotingSurvivesSh() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "printf '%s' \(Reminder.shellQuoted(odd))"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), odd)
    }

    func testSystemdQuotingEscapesQuotesBackslashesDollarsAndPercents() {
        XCTAssertEqual(Reminder.systemdQuoted(#"a "b" \ $X 5%"#), #""a \"b\" \\ $$X 5%%""#)
    }

    func testTheUnits() throws {
        let r = try reminder(at: "7:05")
        XCTAssertTrue(r.timerUnit.contains("\n[Timer]\nOnCalendar=*-*-* 07:05:00\nPersistent=true\n"), r.timerUnit)
        XCTAssertTrue(r.timerUnit.contains("\n# daybook-diary: \(odd)\n"))
        XCTAssertTrue(r.timerUnit.contains("Description=daybook reminder: what is due in /tmp/My 'odd' \"diary\" $HOME `x` 100%% \\ end\n"))
        XCTAssertTrue(r.serviceUnit.contains("\nType=oneshot\nExecStart=/bin/sh -c \(Reminder.systemdQuoted(r.script))\n"))
        XCTAssertTrue(r.script.hasPrefix("out=$('/usr/local/bin/daybook' --diary \(Reminder.shellQuoted(odd)) due); status=$?"), r.script)
        XCTAssertTrue(r.script.contains("notify-send -a daybook 'daybook: an entry is overdue' \"$out\""))
        let m = try reminder(mail: "me@example.org")
        XCTAssertTrue(m.script.contains("mail -s 'daybook: an entry is overdue' 'me@example.org'") && !m.script.contains("notify-send"))
        XCTAssertTrue(m.timerUnit.contains("\n# daybook-mail: me@example.org\n"))
    }

    func testOneNameADiary() throws {
        let a = try reminder("/home/me/daybook"), b = try reminder("/home/me/daybook", at: "07:00"), c = try reminder("/home/me/daybook2")
        XCTAssertEqual(a.name, b.name)
        XCTAssertNotEqual(a.name, c.name)
        XCTAssertTrue(a.name.range(of: "^daybook-remind-[0-9a-f]{12}$", options: .regularExpression) != nil, a.name)
    }

    func testBadPathsAndAddressesAreRefused() {
        XCTAssertThrowsError(try reminder("/tmp/two\nlines"))
        XCTAssertThrowsError(try reminder(mail: "-oQ/tmp x"))
        XCTAssertThrowsError(try reminder(mail: "a b@c"))
        XCTAssertThrowsError(try reminder(mail: ""))
    }

    func testACrontabKeepsEveryOtherLine() throws {
        let mine = "MAILTO=me@example.org\n# nightly\n0 3 * * * backup --all\n"
        let r = try reminder(at: "06:45")
        let once = r.installing(into: mine)
        XCTAssertTrue(once.hasPrefix(mine), once)
        let added = once.dropFirst(mine.count).split(separator: "\n")
        XCTAssertEqual(added.count, 2)
        XCTAssertEqual(String(added[0]), "# \(r.name) (daybook remind, notify-send): \(odd)")
        XCTAssertTrue(added[1].hasPrefix("45 6 * * * /bin/sh -c '"), String(added[1]))
        let twice = try reminder(at: "21:00").installing(into: once)
        XCTAssertEqual(twice.components(separatedBy: r.name).count, 2, "replaced, not added: \(twice)")
        XCTAssertEqual(Reminder.installed(crontab: twice), [Reminder.Installed(name: r.name, diary: odd, at: "21:00", via: "cron", mail: nil)])
        let removed = Reminder.removing(r.name, from: twice)
        XCTAssertTrue(removed.removed)
        XCTAssertEqual(removed.lines.joined(separator: "\n"), mine)
        XCTAssertFalse(Reminder.removing("daybook-remind-000000000000", from: twice).removed)
        XCTAssertEqual(try reminder(at: "1:00").installing(into: ""), "# \(r.name) (daybook remind, notify-send): \(odd)\n\(try reminder(at: "1:00").cronLine)\n")
    }

    func testThePercentSignsOfAMailLineAreEscapedForCron() throws {
        let line = try reminder(mail: "me@example.org").cronLine
        XCTAssertFalse(line.replacingOccurrences(of: "\\%", with: "").contains("%"), line)
    }

    func testInstalledUnitsAreListed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try reminder(at: "08:15", mail: "me@example.org")
        try r.timerUnit.write(to: folder.appendingPathComponent(r.name + ".timer"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.appendingPathComponent("other.timer"), atomically: true, encoding: .utf8)
        XCTAssertEqual(Reminder.installed(unitFolder: folder), [Reminder.Installed(name: r.name, diary: odd, at: "08:15", via: "systemd", mail: "me@example.org")])
    }

    func testTheUnitFolderFollowsXDG() {
        XCTAssertEqual(Reminder.unitFolder(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]).path, "/x/cfg/systemd/user")
        XCTAssertEqual(Reminder.unitFolder(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path, "/h/.config/systemd/user")
        XCTAssertEqual(Reminder.unitFolder(environment: ["HOME": "/h"]).path, "/h/.config/systemd/user")
    }
}
