"""`daybook remind` on the built binary, in a temporary HOME/XDG_CONFIG_HOME with PATH holding only fake
systemctl, crontab, notify-send and mail that record what they were asked: the user's real systemd and
crontab are never touched. The written units are checked with `systemd-analyze verify` where it exists,
and the service's command is run for real by /bin/sh."""
import os
import pathlib
import shutil
import stat
import subprocess

import pytest

ODD = "My 'odd' \"diary\" $HOME `x` 100% \\ end"

FAKES = {
    "systemctl": """#!/bin/sh
printf '%s|' "$@" >> "$FAKE_LOG/systemctl"; echo >> "$FAKE_LOG/systemctl"
if [ -e "$FAKE_LOG/no-manager" ]; then echo "Failed to connect to bus: No medium found" >&2; exit 1; fi
if [ "$2" = is-active ]; then if [ -e "$FAKE_LOG/inactive" ]; then echo inactive; exit 3; fi; echo active; fi
exit 0
""",
    "crontab": """#!/bin/sh
printf '%s|' "$@" >> "$FAKE_LOG/crontab-calls"; echo >> "$FAKE_LOG/crontab-calls"
case "$1" in
  -l) if [ -e "$FAKE_LOG/crontab" ]; then /bin/cat "$FAKE_LOG/crontab"; else echo "no crontab for tester" >&2; exit 1; fi ;;
  -) /bin/cat > "$FAKE_LOG/crontab" ;;
  *) exit 2 ;;
esac
""",
    "notify-send": """#!/bin/sh
for a in "$@"; do printf '%s\\n--\\n' "$a"; done >> "$FAKE_LOG/notify-send"
""",
    "mail": """#!/bin/sh
printf '%s|' "$@" >> "$FAKE_LOG/mail"; echo >> "$FAKE_LOG/mail"; /bin/cat >> "$FAKE_LOG/mail"
""",
    "id": """#!/bin/sh
echo 1000
""",
}


class Remind:
    def __init__(self, diary, tools):
        self.diary = diary
        self.tmp = diary.tmp
        self.bin = self.tmp / "fakebin"
        self.bin.mkdir()
        self.log = self.tmp / "log"
        self.log.mkdir()
        for name in tools:
            p = self.bin / name
            p.write_text(FAKES[name])
            p.chmod(p.stat().st_mode | stat.S_IXUSR)
        self.config = self.tmp / "config"
        self.units = self.config / "systemd" / "user"
        self.env = {"PATH": str(self.bin), "XDG_CONFIG_HOME": str(self.config), "FAKE_LOG": str(self.log)}

    def run(self, *args, **kw):
        return self.diary.run(*args, env=self.env, **kw)

    def calls(self, tool):
        f = self.log / tool
        return [line.rstrip("|").split("|") for line in f.read_text().splitlines()] if f.exists() else []

    def unit_files(self):
        return sorted(p.name for p in self.units.glob("*")) if self.units.exists() else []

    def script(self):
        """The shell command of the service's ExecStart, as systemd hands it to /bin/sh -c."""
        (service,) = self.units.glob("*.service")
        (line,) = [l for l in service.read_text().splitlines() if l.startswith("ExecStart=")]
        prefix = 'ExecStart=/bin/sh -c "'
        assert line.startswith(prefix) and line.endswith('"'), line
        quoted, out, i = line[len(prefix):-1], "", 0
        while i < len(quoted):
            c = quoted[i]
            if c == "\\":
                out += quoted[i + 1]
                i += 2
                continue
            assert c != '"', line
            if c in "$%":
                assert quoted[i + 1] == c, f"an unescaped {c} in {line}"
                i += 1
            out += c
            i += 1
        return out


def sh_quoted(s):
    return "'" + s.replace("'", "'\\''") + "'"


@pytest.fixture
def odd_diary(home):
    home.path = home.tmp / ODD
    home.env["DAYBOOK_DIR"] = str(home.path)
    return home.init()


def verify(*units):
    tool = shutil.which("systemd-analyze")
    if not tool:
        return "skipped"
    p = subprocess.run([tool, "verify", *map(str, units)], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "HOME": str(pathlib.Path(units[0]).parent), "LANG": "C.UTF-8"})
    problems = [l for l in (p.stdout + p.stderr).splitlines() if str(units[0].parent) in l or "daybook-remind" in l]
    assert p.returncode == 0 and not problems, p.stdout + p.stderr
    return "verified"


def test_install_writes_a_timer_and_service_and_enables_them(odd_diary):
    r = Remind(odd_diary, ["systemctl", "crontab", "notify-send"])
    res = r.run("remind", "install", "--at", "07:05")
    assert res.rc == 0, res
    files = r.unit_files()
    assert len(files) == 2 and files[0].endswith(".service") and files[1].endswith(".timer"), files
    name = files[0][:-len(".service")]
    assert name.startswith("daybook-remind-") and len(name) == len("daybook-remind-") + 12
    timer = (r.units / f"{name}.timer").read_text()
    assert "\nOnCalendar=*-*-* 07:05:00\n" in timer and "\nPersistent=true\n" in timer and "WantedBy=timers.target" in timer
    assert f"# daybook-diary: {odd_diary.path}\n" in timer
    script = r.script()
    assert script.startswith(f"out=$({sh_quoted(odd_diary.bin)} --diary {sh_quoted(str(odd_diary.path))} due)"), script
    assert r.calls("systemctl") == [["--user", "daemon-reload"], ["--user", "enable", "--now", f"{name}.timer"]]
    assert r.calls("crontab-calls") == [], "systemd was there: cron is left alone"
    assert verify(r.units / f"{name}.service", r.units / f"{name}.timer") in ("verified", "skipped")

    ls = r.run("remind", "ls")
    assert ls.rc == 0 and name in ls.out and "07:05" in ls.out and "systemd" in ls.out and str(odd_diary.path) in ls.out, ls
    assert r.run("remind").out == ls.out, "`remind` alone is `remind ls`"
    assert r.run("remind", "ls", "--json").json() == [
        {"name": name, "diary": str(odd_diary.path), "at": "07:05", "via": "systemd", "mail": None, "log": False,
         "can_fire": True, "problem": None}]
    assert "can fire" in ls.out
    # A timer that is not active cannot fire, and ls says so with what to run.
    (r.log / "inactive").touch()
    ls = r.run("remind", "ls")
    assert f"cannot fire: the timer is not active (inactive): systemctl --user enable --now {name}.timer" in ls.out, ls
    (r.log / "inactive").unlink()

    # Installing again replaces it (one reminder a diary).
    assert r.run("remind", "install", "--at", "21:00").rc == 0
    assert r.unit_files() == files and "OnCalendar=*-*-* 21:00:00" in (r.units / f"{name}.timer").read_text()

    res = r.run("remind", "uninstall")
    assert res.rc == 0, res
    assert r.unit_files() == []
    assert r.calls("systemctl")[-2:] == [["--user", "disable", "--now", f"{name}.timer"], ["--user", "daemon-reload"]]
    assert r.run("remind", "ls").out == ""
    again = r.run("remind", "uninstall")
    assert again.rc == 1 and "no reminder" in again.err, again


def test_the_service_command_notifies_only_when_due_exits_1(odd_diary):
    """The one command the service runs, with a stub in place of the daybook binary (at a path with
    spaces and quotes too) that records its arguments and exits 0, 1 or 2: the three outcomes of `due`,
    an error among them. The real `due` is the next test."""
    r = Remind(odd_diary, ["systemctl", "notify-send", "id"])
    assert r.run("remind", "install").rc == 0
    script = r.script()
    stub_dir = odd_diary.tmp / "stub dir 'q'"
    stub_dir.mkdir()
    stub = stub_dir / "daybook"
    stub.write_text('#!/bin/sh\nfor a in "$@"; do printf \'%s\\n\' "$a"; done > "$FAKE_LOG/stub-args"\n'
                    'echo "memo: overdue since 2026-11-20 (3 days)"\necho "daily: due today"\nexit "$STUB_EXIT"\n')
    stub.chmod(0o755)
    quoted = sh_quoted(odd_diary.bin)
    assert script.count(quoted) == 1
    script = script.replace(quoted, sh_quoted(str(stub)))

    def run(status):
        (r.log / "notify-send").unlink(missing_ok=True)
        env = {"PATH": str(r.bin), "FAKE_LOG": str(r.log), "STUB_EXIT": str(status), "HOME": str(odd_diary.home)}
        return subprocess.run(["/bin/sh", "-c", script], env=env, capture_output=True, text=True)

    p = run(1)
    assert p.returncode == 0, p.stderr
    assert (r.log / "stub-args").read_text().splitlines() == ["--diary", str(odd_diary.path), "due"]
    shown = (r.log / "notify-send").read_text().split("\n--\n")
    assert shown[:4] == ["-a", "daybook", "daybook: an entry is overdue",
                         "memo: overdue since 2026-11-20 (3 days)\ndaily: due today"], shown
    p = run(0)
    assert p.returncode == 0 and not (r.log / "notify-send").exists()
    p = run(2)
    assert p.returncode != 0 and not (r.log / "notify-send").exists(), "an error of due fails the service"


def test_the_service_command_with_the_real_due_of_a_scheduled_diary(odd_diary):
    """The installed command, run as systemd runs it, with the real binary: a diary whose schedule owes
    yesterday's entry gets a notification that says so; once it is written, none."""
    with open(odd_diary.path / "daybook.yml", "a") as f:
        f.write("schedule:\n  daily: {every: day, from: 2026-11-20}\n")
    r = Remind(odd_diary, ["systemctl", "notify-send", "id"])
    assert r.run("remind", "install").rc == 0
    env = {"PATH": str(r.bin), "FAKE_LOG": str(r.log), "HOME": str(odd_diary.home),
           "DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "TZ": "Europe/Vienna", "GIT_CONFIG_NOSYSTEM": "1"}
    p = subprocess.run(["/bin/sh", "-c", r.script()], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    shown = (r.log / "notify-send").read_text()
    assert "daily" in shown and "overdue since 2026-11-20 (1 day missed)" in shown, shown
    (r.log / "notify-send").unlink()
    odd_diary.ok("new", "--template", "daily", "--no-edit", "--date", "2026-11-20 21:00", "Late", "-m", "x",
                 env={"DAYBOOK_NOW": "2026-11-21T12:00:00+01:00"})
    p = subprocess.run(["/bin/sh", "-c", r.script()], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert not (r.log / "notify-send").exists()


def test_mail_instead_of_a_notification(odd_diary):
    r = Remind(odd_diary, ["systemctl", "mail"])
    assert r.run("remind", "install", "--mail", "me@example.org").rc == 0
    assert "# daybook-mail: me@example.org" in next(r.units.glob("*.timer")).read_text()
    stub = odd_diary.tmp / "due-stub"
    stub.write_text('#!/bin/sh\necho "memo: overdue since 2026-11-20 (100% late)"\nexit 1\n')
    stub.chmod(0o755)
    script = r.script().replace(sh_quoted(odd_diary.bin), sh_quoted(str(stub)))
    p = subprocess.run(["/bin/sh", "-c", script], env={"PATH": str(r.bin), "FAKE_LOG": str(r.log)}, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (r.log / "mail").read_text() == "-s|daybook: an entry is overdue|me@example.org|\nmemo: overdue since 2026-11-20 (100% late)\n"
    assert r.run("remind", "ls", "--json").json()[0]["mail"] == "me@example.org"
    assert r.run("remind", "install", "--mail", "-oX").rc == 2


def test_without_a_user_manager_and_without_cron_nothing_is_installed_and_it_says_what_to_do(diary):
    """Issue 43: units that no user manager reads would never run; `install` used to write them, warn and exit 0."""
    r = Remind(diary, ["systemctl", "notify-send"])
    (r.log / "no-manager").touch()
    res = r.run("remind", "install")
    assert res.rc == 1, res
    assert "No medium found" in res.err and "no reminder installed" in res.err and "loginctl enable-linger" in res.err, res
    assert r.unit_files() == []
    assert r.run("remind", "ls").out == ""


def test_without_a_user_manager_cron_is_used(diary):
    r = Remind(diary, ["systemctl", "crontab", "notify-send", "id"])
    (r.log / "no-manager").touch()
    res = r.run("remind", "install", "--at", "20:00")
    assert res.rc == 0, res
    assert "no systemd user manager answered" in res.err and "installed a crontab line" in res.err, res
    assert r.unit_files() == []
    assert "\n0 20 * * * /bin/sh -c " in (r.log / "crontab").read_text()
    ls = r.run("remind", "ls")
    assert "20:00  cron  notify" in ls.out and "can fire" in ls.out, ls


def scheduled_overdue(diary):
    with open(diary.path / "daybook.yml", "a") as f:
        f.write("schedule:\n  daily: {every: day, from: 2026-11-20}\n")


def test_a_notification_that_fails_fails_the_job_and_remind_test_says_so(diary):
    scheduled_overdue(diary)
    r = Remind(diary, ["crontab", "notify-send", "id"])
    assert r.run("remind", "install").rc == 0
    res = r.run("remind", "test")
    assert res.rc == 0 and "something is overdue, and it told you" in res.err, res
    assert "overdue since 2026-11-20" in (r.log / "notify-send").read_text()
    # notify-send fails (no session bus, say): the job fails, saying why.
    (r.bin / "notify-send").write_text("#!/bin/sh\necho 'Cannot autolaunch D-Bus without X11 $DISPLAY' >&2\nexit 1\n")
    res = r.run("remind", "test")
    assert res.rc == 2 and "telling failed" in res.err and "could not tell (notify-send failed)" in res.err, res
    # Nothing overdue: it ran and told nothing.
    diary.ok("new", "--template", "daily", "--no-edit", "--date", "2026-11-20 21:00", "Late", "-m", "x")
    diary.ok("new", "--template", "daily", "--no-edit", "--date", "2026-11-21 09:00", "Today", "-m", "x")
    res = r.run("remind", "test")
    assert res.rc == 0 and "nothing is overdue" in res.err, res


def test_without_notify_send_the_reminder_tells_by_the_next_command(diary):
    scheduled_overdue(diary)
    r = Remind(diary, ["crontab", "id"])
    res = r.run("remind", "install", "--at", "20:00")
    assert res.rc == 0, res
    assert "notify-send is not installed" in res.err and "reminders.log" in res.err, res
    assert "(daybook remind, log)" in (r.log / "crontab").read_text()
    assert r.run("remind", "ls", "--json").json()[0]["log"] is True
    # The line cron runs, run for real with the real binary.
    res = r.run("remind", "test")
    assert res.rc == 0 and "it told you" in res.err, res
    log = diary.path / ".daybook" / "reminders.log"
    assert "a reminder fired at 2026-11-21 12:00: daily" in log.read_text() and "overdue since 2026-11-20" in log.read_text()
    # The next daybook command says it, once.
    shown = diary.run("ls")  # exit 1: no entries
    assert "daybook: a reminder fired at 2026-11-21 12:00: daily  overdue since 2026-11-20" in shown.err, shown
    assert not log.exists()
    assert "reminder fired" not in diary.run("ls").err


def test_mail_without_a_mailer_is_refused_at_install(diary):
    r = Remind(diary, ["crontab", "id"])
    res = r.run("remind", "install", "--mail", "me@example.org")
    assert res.rc == 1 and "neither mail nor sendmail" in res.err, res
    assert not (r.log / "crontab").exists()


def test_remind_test_without_a_reminder(diary):
    r = Remind(diary, ["crontab"])
    res = r.run("remind", "test")
    assert res.rc == 1 and "no reminder is installed" in res.err, res


def test_cron_where_there_is_no_systemd_keeps_every_other_line(odd_diary):
    r = Remind(odd_diary, ["crontab", "notify-send", "id"])
    mine = "MAILTO=me@example.org\n# my backup\n0 3 * * * /usr/local/bin/backup --all\n"
    (r.log / "crontab").write_text(mine)
    res = r.run("remind", "install", "--at", "6:45")
    assert res.rc == 0, res
    text = (r.log / "crontab").read_text()
    assert text.startswith(mine), text
    added = text[len(mine):].splitlines()
    assert len(added) == 2, text
    assert added[0].startswith("# daybook-remind-") and added[0].endswith(f"(daybook remind, notify-send): {odd_diary.path}")
    assert added[1].startswith("45 6 * * * /bin/sh -c '"), added[1]
    assert r.unit_files() == []
    # Installing again replaces the line; the user's lines stay.
    assert r.run("remind", "install", "--at", "20:30").rc == 0
    text = (r.log / "crontab").read_text()
    assert text.startswith(mine) and text.count("daybook-remind-") == 1 and "\n30 20 * * * " in text, text

    ls = r.run("remind", "ls")
    assert ls.rc == 0 and "20:30  cron  notify" in ls.out and str(odd_diary.path) in ls.out, ls

    # The line runs as cron runs it: `%` unescaped, then /bin/sh.
    line = text.splitlines()[-1]
    command = line.split(" ", 5)[5].replace("\\%", "%")
    stub = odd_diary.tmp / "stub"
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$FAKE_LOG/stub-args"\necho "memo: overdue"\nexit 1\n')
    stub.chmod(0o755)
    command = command.replace(sh_quoted(odd_diary.bin).replace("'", "'\\''"), sh_quoted(str(stub)).replace("'", "'\\''"))
    p = subprocess.run(["/bin/sh", "-c", command], env={"PATH": str(r.bin), "FAKE_LOG": str(r.log)}, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (r.log / "stub-args").read_text().splitlines() == ["--diary", str(odd_diary.path), "due"]
    assert "memo: overdue" in (r.log / "notify-send").read_text()

    res = r.run("remind", "uninstall")
    assert res.rc == 0, res
    assert (r.log / "crontab").read_text() == mine


def test_an_unreadable_crontab_is_never_replaced(diary):
    r = Remind(diary, ["crontab"])
    (r.bin / "crontab").write_text("#!/bin/sh\n[ \"$1\" = -l ] && { echo 'crontab: permission denied' >&2; exit 1; }\n/bin/cat > \"$FAKE_LOG/written\"\n")
    res = r.run("remind", "install")
    assert res.rc == 2 and "permission denied" in res.err, res
    assert not (r.log / "written").exists()


def test_no_systemd_and_no_cron_is_an_error(diary):
    r = Remind(diary, ["notify-send"])
    res = r.run("remind", "install")
    assert res.rc == 2 and "systemctl" in res.err and "crontab" in res.err, res
    assert r.unit_files() == []


@pytest.mark.parametrize("at", ["25:00", "12:60", "7", "noon", "12:5", "-1:00"])
def test_a_time_that_is_not_hh_mm_is_refused(diary, at):
    r = Remind(diary, ["systemctl"])
    res = r.run("remind", "install", f"--at={at}")
    assert res.rc == 2 and "--at" in res.err, res
    assert r.unit_files() == [] and r.calls("systemctl") == []
