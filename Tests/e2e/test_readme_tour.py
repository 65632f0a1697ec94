"""The README's "A short tour" as a new user meets it: every command pasted as written, in order.

How the test reads the README (keep these rules in mind when you add to the tour):
- It takes every ```sh block of the section "## A short tour", in order, and runs every line of
  them as written with `bash -e -c`, in a fresh copy of the repository's `examples/` (the folder
  the tour is pasted in: the root of a clone), with the built daybook first on PATH, a fresh HOME
  with a git identity, and an EDITOR that writes a line into the file it is given, as a person's
  editor would. A line ending in `\\` continues on the next one.
- The lines run as in one terminal session: what a line exports, and the folder it `cd`s to, carry
  over to the next line. stdin is a terminal (a pty) in which Enter has been pressed a few times,
  so `new` opens the editor and `new --template` takes the defaults for the fields not given.
- Each line must exit 0, unless it ends in a comment that says otherwise: `# … (exit 1)`.
- A line that ends in the comment `# (runs until Ctrl-C)` is skipped: servers such as
  `daybook serve` and `daybook lsp` would never end. Lines starting with `bench/` are skipped too:
  the benchmark takes minutes (it is run by hand, see bench/).
- The Quick start's first line (`./scripts/setup && swift run daybook new …`) runs as its daybook
  part, `daybook new …`, in the same fresh HOME: setup and the build have been done already, and
  `./scripts/test` is this suite itself.
- PATH starts with a fake `systemctl` that records its arguments and succeeds, so `remind install`
  writes its units into the fresh HOME and never reaches the machine's systemd (nor its crontab).
Then it checks what the text promises the commands did.
"""
import json
import os
import pathlib
import pty
import re
import shlex
import shutil
import stat
import subprocess
import zipfile

import pytest

from conftest import ROOT, daybook_binary

SKIP_MARK = re.compile(r"#\s*\(runs until Ctrl-C\)\s*$")
EXIT_MARK = re.compile(r"#.*\(exit (\d+)\)\s*$")
EDITOR_LINE = "Written in the editor."


def section(readme, title):
    """The text of a `## title` section, up to the next `## ` heading."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    assert m, f"README.md has no section `## {title}`"
    return m.group(1)


def sh_lines(text):
    """The command lines of every ```sh block, continuation lines joined, comments-only lines left out."""
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        pending = ""
        for raw in block.splitlines():
            if raw.rstrip().endswith("\\"):
                pending += raw.strip()[:-1].strip() + " "
                continue
            line = (pending + raw.strip()).strip()
            pending = ""
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


class Session:
    """One terminal session: lines run one after another, exports and the working folder kept."""

    def __init__(self, tmp, cwd):
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        (self.home / ".gitconfig").write_text("[user]\n\tname = Tour Reader\n\temail = reader@example.org\n")
        editor = tmp / "editor"
        editor.write_text(f"#!/bin/sh\nprintf '%s\\n' '{EDITOR_LINE}' >> \"$1\"\n")
        editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
        binary = pathlib.Path(daybook_binary())
        fakes = tmp / "fakebin"
        fakes.mkdir()
        self.systemctl_log = tmp / "systemctl.log"
        (fakes / "systemctl").write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> {shlex.quote(str(self.systemctl_log))}\n")
        (fakes / "systemctl").chmod(0o755)
        self.state = tmp / "state.sh"
        env = {
            "HOME": str(self.home), "PATH": f"{fakes}:{binary.parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "EDITOR": str(editor), "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", "TZ": "Europe/Vienna",
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        self.state.write_text("".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.items())
                              + f"cd {shlex.quote(str(cwd))}\n")
        self.ran = []

    def run(self, line, timeout=120):
        # The state file is read first and written again on the way out, whatever the line's status.
        save = (f"trap 'rc=$?; export -p | grep -Ev \"^declare -x (OLDPWD|PWD|SHLVL|_)=\" > {shlex.quote(str(self.state))};"
                f" printf \"cd %q\\n\" \"$PWD\" >> {shlex.quote(str(self.state))}; exit $rc' EXIT")
        script = f"source {shlex.quote(str(self.state))}\n{save}\n{line}\n"
        master, slave = pty.openpty()
        try:
            os.write(master, b"\n" * 8)  # Enter, pressed ahead, for any prompt
            p = subprocess.run(["bash", "-e", "-c", script], stdin=slave, capture_output=True, text=True,
                               env={"PATH": "/usr/bin:/bin"}, timeout=timeout)
        finally:
            os.close(slave)
            os.close(master)
        self.ran.append(line)
        return p


def expected_status(line):
    m = EXIT_MARK.search(line)
    return int(m.group(1)) if m else 0


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """Runs the Quick start and the tour once; the tests below check what they left."""
    readme = (ROOT / "README.md").read_text()
    tmp = tmp_path_factory.mktemp("tour")
    clone = tmp / "clone"
    clone.mkdir()
    shutil.copytree(ROOT / "examples", clone / "examples")
    session = Session(tmp, clone)
    failures = []

    quick = [line for line in sh_lines(section(readme, "Quick start")) if "swift run daybook" in line]
    assert quick, "the Quick start no longer writes a first entry with `swift run daybook`"
    for line in quick:
        command = "daybook " + line.split("swift run daybook", 1)[1].strip()
        p = session.run(command)
        if p.returncode != 0:
            failures.append(f"$ {command}\nexit {p.returncode}\n{p.stdout}{p.stderr}")

    lines = sh_lines(section(readme, "A short tour"))
    for line in lines:
        if SKIP_MARK.search(line) or line.startswith("bench/"):
            continue
        p = session.run(line)
        want = expected_status(line)
        if p.returncode != want:
            failures.append(f"$ {line}\nexit {p.returncode}, the README says {want}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}")
    assert not failures, "\n\n".join(failures)
    return {"clone": clone, "home": session.home, "diary": clone / "tour" / "demo", "ran": session.ran, "lines": lines,
            "bin": daybook_binary(), "systemctl": session.systemctl_log}


def daybook(tour, *args, status=(0,)):
    env = {"HOME": str(tour["home"]), "PATH": "/usr/bin:/bin", "DAYBOOK_DIR": str(tour["diary"]),
           "DAYBOOK_NOW": "2026-11-21T12:00:00+01:00", "NO_COLOR": "1", "LANG": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1"}
    p = subprocess.run([tour["bin"], *args], capture_output=True, text=True, env=env, cwd=tour["clone"])
    assert p.returncode in status, p.stderr
    return p.stdout


def entries(tour, *filters):
    return json.loads(daybook(tour, "ls", "--json", *filters, status=(0, 1)))  # 1: nothing matches


def git(tour, *args, cwd=None):
    env = {"HOME": str(tour["home"]), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], capture_output=True, text=True, env=env, cwd=cwd or tour["diary"],
                          check=True).stdout


def test_every_line_of_the_tour_ran(tour):
    assert len(tour["lines"]) >= 40, tour["lines"]
    assert set(tour["lines"]) <= set(tour["ran"]) | {line for line in tour["lines"] if SKIP_MARK.search(line) or line.startswith("bench/")}


def test_the_quick_start_made_the_default_diary(tour):
    first = list((tour["home"] / "daybook" / "entries").rglob("*-my-first-entry.md"))
    assert len(first) == 1 and first[0].read_text().endswith("Hello, diary.\n")


def test_the_written_entries_are_there(tour):
    by_title = {e["title"]: e for e in entries(tour, "--on", "2026-11-21")}
    assert entries(tour, "--last", "1")[0]["title"] == "Evening", "`ink add last` reached the Evening"
    assert by_title["Clinic visit, night shift"]["mood"] == 2
    assert "A thought on the bus." in by_title
    assert by_title["Ward round"]["fields"]["location"] == {"name": "St. Anna ward 3", "lat": 48.2, "lon": 16.4}
    evening = by_title["Evening"]
    assert evening["template"] == "emotion" and evening["mood"] == 7 and evening["fields"]["feeling"] == "enjoyment"
    assert evening["has_ink"]
    # `append` found no entry of today from the daily template, so it made a plain one titled by the day.
    (daily,) = entries(tour, "--on", "2026-11-21", "--where", "title=Saturday, 21 November 2026")
    assert daily["template"] is None
    assert (tour["diary"] / daily["path"]).read_text().endswith("---\n**12:00** The login worked after lunch.\n"), \
        "`append` made today's entry, plain and titled by the day, with the line as its body"
    late = entries(tour, "--on", "2026-11-20", "--where", "title=Late note")
    assert len(late) == 1 and late[0]["date"] == "2026-11-20T18:30:00+01:00"
    assert EDITOR_LINE in (tour["diary"] / late[0]["path"]).read_text(), "the editor wrote the body"


def test_edit_and_attach_reached_the_newest_entry(tour):
    ward = entries(tour, "--where", "title=Ward round")[0]
    text = (tour["diary"] / ward["path"]).read_text()
    assert EDITOR_LINE in text, "`edit last` opened the newest entry"
    assert f"![whiteboard.png]({ward['id']}/whiteboard.png)" in text
    photo = tour["diary"] / pathlib.Path(ward["path"]).with_suffix("") / "whiteboard.png"
    assert photo.read_bytes() == (ROOT / "examples" / "whiteboard.png").read_bytes()


def test_the_new_code_is_in_the_codebook_with_its_colour_and_coding(tour):
    book = json.loads(daybook(tour, "code", "book", "--json"))
    workaround = next(c for c in book["codes"] if c["code"] == "workaround")
    paper = next(c for c in workaround["codes"] if c["code"] == "paper-first")
    assert paper["color"] == "#9a6700" and paper["codings"] == 1
    (coding,) = json.loads(daybook(tour, "code", "ls", "paper-first", "--json"))
    assert coding["quote"] == "she wrote the values on paper first" and coding["memo"] == "a buffer against the login"
    original = (ROOT / "examples/diary/codebook.yml").read_text()
    assert "paper-first" not in original, "the tour's `code define` must add a code the example does not have"


def test_the_exports_and_the_sketch_exist(tour):
    tour_dir = tour["clone"] / "tour"
    assert (tour_dir / "sketch.svg").read_text().startswith("<svg")
    assert (tour_dir / "site" / "index.html").is_file()
    assert zipfile.is_zipfile(tour_dir / "study.qdpx") and zipfile.is_zipfile(tour_dir / "backup.zip")
    assert (tour_dir / "last.html").read_text().strip()


def test_the_follow_up_links_to_the_login_trouble(tour):
    back = daybook(tour, "links", "2026-11-02-2230", "--backlinks")
    assert back.startswith("2026-11-04-0900-follow-up:"), back
    page = (tour["clone"] / "tour/site/entries/2026/11/2026-11-02-2230-login-trouble.html").read_text()
    assert '<h2>Linked from</h2><ul><li><a href="../../../entries/2026/11/2026-11-04-0900-follow-up.html">Follow-up</a>' in page
    follow_up = (tour["clone"] / "tour/site/entries/2026/11/2026-11-04-0900-follow-up.html").read_text()
    assert '<a href="../../../entries/2026/11/2026-11-02-2230-login-trouble.html">the login trouble</a>' in follow_up


def test_undo_took_back_the_import_and_rm_restore_brought_the_meeting_back(tour):
    assert entries(tour, "--to", "2026-10-15") == [], "the jrnl entries (September and October 2) are undone"
    meeting = tour["diary"] / "entries/2026/11/2026-11-10-1930-team-meeting.md"
    assert meeting.read_text() == (ROOT / "examples/diary/entries/2026/11/2026-11-10-1930-team-meeting.md").read_text()
    subjects = git(tour, "log", "--format=%s", "-n", "12").splitlines()
    undo, rm, restore = (next(i for i, s in enumerate(subjects) if s.startswith(p)) for p in ("undo", "rm", "restore"))
    assert restore < rm < undo, subjects  # newest first: undo, then rm, then restore
    assert "import" in subjects[undo]


def test_sync_brought_the_laptops_entry_and_pushed_everything(tour):
    train = entries(tour, "--where", "title=On the train")
    assert len(train) == 1
    remote = tour["clone"] / "tour" / "remote.git"
    assert git(tour, "rev-parse", "HEAD") == git(tour, "rev-parse", "HEAD", cwd=remote)
    assert git(tour, "status", "--porcelain") == ""


def test_the_daily_page_has_the_days_prompt(tour):
    (page,) = [e for e in entries(tour, "--on", "2026-11-21") if e["title"] == "Morning page"]
    text = (tour["diary"] / page["path"]).read_text()
    assert "## A question for today\n> " in text and "{{prompt}}" not in text, text


def test_the_reminder_was_enabled_then_removed(tour):
    calls = tour["systemctl"].read_text().splitlines()
    timers = [c.split()[-1] for c in calls if c.startswith("--user enable --now ")]
    assert len(timers) == 1 and timers[0].startswith("daybook-remind-") and timers[0].endswith(".timer"), calls
    assert f"--user disable --now {timers[0]}" in calls
    assert not list((tour["home"] / ".config" / "systemd" / "user").glob("daybook-remind-*")), "uninstall removed the units"


def test_the_reading_rules_skip_servers_and_the_benchmark():
    text = ("Intro\n```sh\ndaybook ls \\\n  --json\n# a comment line\n\ndaybook serve --port 8080    # (runs until Ctrl-C)\n"
            "bench/run.sh 2000\ndaybook code check    # orphans (exit 1)\n```\n```python\nnot = 'shell'\n```\n")
    lines = sh_lines(text)
    assert lines == ["daybook ls --json", "daybook serve --port 8080    # (runs until Ctrl-C)", "bench/run.sh 2000",
                     "daybook code check    # orphans (exit 1)"]
    assert [bool(SKIP_MARK.search(line)) for line in lines] == [False, True, False, False]
    assert [expected_status(line) for line in lines] == [0, 0, 0, 1]
