"""The editor in a real terminal: daybook is the foreground job of a terminal session, as in a shell.

Issue 13 item 1: `daybook new` and `daybook edit` left vi stopped (state T) on a blank screen, because
the editor was started in a process group of its own that was not the terminal's foreground group.
These tests run daybook as the session leader of a pseudo-terminal (`pty.fork()`), with editors that
read from and write to that terminal: a small script that opens /dev/tty, and a real vi under tmux.
"""
import os
import pty
import re
import select
import shutil
import signal
import stat
import subprocess
import time

import pytest

PROMPT = b"editor> "


def editor_script(tmp, ignore_interrupt=False):
    """An editor that asks on /dev/tty for a line and writes it into the file (replacing a template)."""
    path = tmp / "tty-editor"
    trap = ("signal.signal(signal.SIGINT, lambda *_: os.write(tty, b'[editor got ^C, goes on]\\r\\n'))\n"
            if ignore_interrupt else "signal.signal(signal.SIGINT, signal.SIG_DFL)\n")
    path.write_text(
        "#!/usr/bin/env python3\n"
        "import os, signal, sys\n"
        "tty = os.open('/dev/tty', os.O_RDWR)\n"
        + trap +
        f"os.write(tty, {PROMPT!r})\n"
        "line = b''\n"
        "while not line.endswith(b'\\n'):\n"
        "    chunk = os.read(tty, 1)\n"
        "    if not chunk: break\n"
        "    line += chunk\n"
        "with open(sys.argv[-1], 'a') as f: f.write(line.decode().strip() + '\\n')\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def states(sid):
    """Every process of the terminal session, with its state letters (T = stopped)."""
    out = subprocess.run(["ps", "-s", str(sid), "-o", "pid=,pgid=,tpgid=,stat=,args="],
                         capture_output=True, text=True).stdout
    return out.strip()


class Session:
    """daybook run as the leader of a new terminal session, like a shell's foreground job."""

    def __init__(self, diary, *args, env=None):
        e = dict(diary.env)
        e.update(env or {})
        e["TERM"] = "xterm"
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: setsid() and the pty as controlling terminal were done by pty.fork
            try:
                os.chdir(diary.path.parent)
                os.execve(diary.bin, [diary.bin, *map(str, args)], e)
            finally:
                os._exit(127)
        self.output = b""
        self.status = None

    def read_until(self, pattern, timeout=10):
        """Reads the terminal until `pattern` (bytes regex) shows; fails, naming the stopped processes, if not."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.output):
            left = deadline - time.monotonic()
            if left <= 0:
                report = states(self.pid)
                self.kill()
                pytest.fail(f"waited {timeout}s for {pattern!r} on the terminal; processes:\n{report}\n"
                            f"terminal so far: {self.output!r}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # EIO: every process holding the terminal has gone
                    chunk = b""
                if not chunk:
                    break
                self.output += chunk
        return self.output

    def type(self, data):
        os.write(self.fd, data)

    def wait(self, timeout=20):
        """Reads to the end and returns daybook's exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                self.drain()
                os.close(self.fd)
                return self.status
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.fd, 4096)
                except OSError:
                    pass
        report = states(self.pid)
        self.kill()
        pytest.fail(f"daybook did not end in {timeout}s; processes:\n{report}\nterminal: {self.output!r}")

    def drain(self):
        while select.select([self.fd], [], [], 0)[0]:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def kill(self):
        try:
            os.killpg(self.pid, signal.SIGKILL)  # the session leader's group: daybook and its editor
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)


def test_new_opens_an_editor_that_reads_the_terminal(diary, tmp_path):
    editor = editor_script(tmp_path)
    before = diary.commits()
    s = Session(diary, "new", "Late note", env={"EDITOR": str(editor)})
    s.read_until(re.escape(PROMPT))
    s.type(b"written at the terminal\r")
    assert s.wait() == 0, s.output
    [entry] = diary.entries()
    assert entry.read_text().endswith("written at the terminal\n")
    assert "title: Late note" in entry.read_text()
    assert diary.commits() == before + 1


def test_edit_last_opens_an_editor_that_reads_the_terminal(diary, tmp_path):
    diary.ok("new", "Late note", "-m", "First line.")
    editor = editor_script(tmp_path)
    before = diary.commits()
    s = Session(diary, "edit", "last", env={"EDITOR": str(editor)})
    s.read_until(re.escape(PROMPT))
    s.type(b"second line\r")
    assert s.wait() == 0, s.output
    [entry] = diary.entries()
    assert entry.read_text().endswith("First line.\nsecond line\n")
    assert diary.commits() == before + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "edit: Late note"


def test_visual_with_arguments_runs_through_the_shell(diary, tmp_path):
    """`VISUAL="editor --flag"`: the value is a shell command, the file its last argument (as in git)."""
    editor = editor_script(tmp_path)
    s = Session(diary, "new", "Late note", env={"VISUAL": f"{editor} --wait", "EDITOR": "false"})
    s.read_until(re.escape(PROMPT))
    s.type(b"through sh\r")
    assert s.wait() == 0, s.output
    [entry] = diary.entries()
    assert entry.read_text().endswith("through sh\n")


@pytest.mark.parametrize("through_shell", [False, True], ids=["direct", "sh -c"])
def test_interrupt_goes_to_the_editor_and_daybook_carries_on(diary, tmp_path, through_shell):
    """^C while the editor runs is the editor's to handle (vi beeps); daybook is not killed by it."""
    editor = editor_script(tmp_path, ignore_interrupt=True)
    value = f"{editor} --wait" if through_shell else str(editor)
    s = Session(diary, "new", "Late note", env={"EDITOR": value})
    s.read_until(re.escape(PROMPT))
    s.type(b"\x03")  # the terminal's INTR: SIGINT to the whole foreground group
    s.read_until(re.escape(b"[editor got ^C, goes on]"))
    s.type(b"kept after ^C\r")
    assert s.wait() == 0, s.output
    [entry] = diary.entries()
    assert entry.read_text().endswith("kept after ^C\n")


@pytest.mark.parametrize("through_shell", [False, True], ids=["direct", "sh -c"])
def test_an_editor_killed_by_interrupt_is_reported_and_nothing_saved(diary, tmp_path, through_shell):
    editor = editor_script(tmp_path)  # keeps SIGINT's default: ^C ends it
    value = f"{editor} --wait" if through_shell else str(editor)
    before = diary.commits()
    s = Session(diary, "new", "Late note", env={"EDITOR": value})
    s.read_until(re.escape(PROMPT))
    s.type(b"\x03")
    assert s.wait() == 2, s.output
    assert re.search(rb"the editor `[^`]*tty-editor[^`]*` was killed by signal 2 \(SIGINT\)", s.output), s.output
    assert diary.entries() == []
    assert diary.commits() == before


def test_an_editor_exiting_nonzero_is_an_error_naming_it(diary):
    s = Session(diary, "new", "Late note", env={"EDITOR": "false"})
    assert s.wait() == 2, s.output
    assert b"the editor `false` failed (exit status 1)" in s.output, s.output
    assert diary.entries() == []


def vi_binary():
    for name in ("vim.tiny", "vi"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Tmux:
    """A tmux server of the test's own (its own socket, no config) running one window."""

    def __init__(self, tmp_path, env, *command):
        self.env = env
        self.cmd = ["tmux", "-S", str(tmp_path / "tmux.sock"), "-f", "/dev/null"]
        subprocess.run([*self.cmd, "new-session", "-d", "-x", "100", "-y", "30", *command], env=env, check=True)

    def screen(self):
        return subprocess.run([*self.cmd, "capture-pane", "-p"], env=self.env, capture_output=True, text=True).stdout

    def keys(self, *keys):
        subprocess.run([*self.cmd, "send-keys", "-t", "0", *keys], env=self.env, check=True)

    def wait_for(self, pred, what, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred():
                return
            time.sleep(0.1)
        procs = subprocess.run(["ps", "-e", "-o", "pid=,stat=,args="], capture_output=True, text=True).stdout
        stuck = "\n".join(line for line in procs.splitlines() if "daybook" in line or "vi" in line)
        pytest.fail(f"waited {timeout}s for {what}; screen:\n{self.screen()}\nprocesses:\n{stuck}")

    def wait_for_vi(self):
        # vi draws its empty-buffer tildes once it owns the terminal; vim-tiny may first ask for
        # Enter after the file's long name.
        self.wait_for(lambda: self.screen().count("~") >= 5 or "Press ENTER" in self.screen(), "vi to draw")
        if "Press ENTER" in self.screen():
            self.keys("Enter")
            self.wait_for(lambda: self.screen().count("~") >= 5, "vi to draw its buffer")

    def kill(self):
        subprocess.run([*self.cmd, "kill-server"], env=self.env, capture_output=True)


def vi_environment(diary, tmp_path):
    """daybook's environment with neither VISUAL nor EDITOR: its default, `vi` (vim-tiny here), first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "vi").symlink_to(vi_binary())
    env = {k: v for k, v in diary.env.items() if k not in ("EDITOR", "VISUAL")}
    env.update(TERM="xterm", PATH=f"{bin_dir}:{env['PATH']}")
    return env


needs_tmux_and_vi = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup installs it)"),
    pytest.mark.skipif(vi_binary() is None, reason="no vi (scripts/setup installs vim-tiny)"),
]


@needs_tmux_and_vi[0]
@needs_tmux_and_vi[1]
def test_vi_under_tmux_writes_an_entry(diary, tmp_path):
    """A person's terminal: tmux, `daybook new` and a real vi; text typed, `:wq`."""
    done = tmp_path / "done"
    command = f"cd {diary.path.parent} && {diary.bin} new 'Late note'; echo $? > {done}; sleep 60"
    tmux = Tmux(tmp_path, vi_environment(diary, tmp_path), "sh", "-c", command)
    try:
        tmux.wait_for_vi()
        tmux.keys("i", "Typed in vi under tmux.", "Escape")
        tmux.keys(":wq", "Enter")
        tmux.wait_for(done.exists, "daybook to end")
        time.sleep(0.1)
        assert done.read_text().strip() == "0", tmux.screen()
    finally:
        tmux.kill()
    [entry] = diary.entries()
    assert entry.read_text().endswith("Typed in vi under tmux.\n")
    assert diary.git("log", "-1", "--format=%s").strip() == "new: Late note"
    assert diary.git("status", "--porcelain").strip() == ""


@needs_tmux_and_vi[0]
@needs_tmux_and_vi[1]
def test_ctrl_z_stops_daybook_with_vi_and_fg_resumes_both(diary, tmp_path):
    """Job control in an interactive bash: ^Z in vi stops the whole job, `fg` brings vi back."""
    tmux = Tmux(tmp_path, vi_environment(diary, tmp_path), "bash", "--norc", "--noprofile", "-i")
    try:
        tmux.keys(f"cd {diary.path.parent} && {diary.bin} edit last || echo no-entry-yet", "Enter")
        tmux.wait_for(lambda: "no-entry-yet" in tmux.screen(), "edit of an empty diary to fail")
        tmux.keys("clear", "Enter")
        tmux.keys(f"{diary.bin} new 'Late note'", "Enter")
        tmux.wait_for_vi()
        tmux.keys("i", "Before the pause.", "Escape")
        tmux.keys("C-z")
        tmux.wait_for(lambda: "Stopped" in tmux.screen(), "the job to stop")
        assert diary.entries() == []
        tmux.keys("fg", "Enter")
        # vi redraws its whole screen over the shell's lines once it runs again.
        tmux.wait_for(lambda: "Before the pause." in tmux.screen() and "Stopped" not in tmux.screen(), "vi to come back")
        tmux.keys("o", "After fg.", "Escape")
        tmux.keys(":wq", "Enter")
        tmux.wait_for(lambda: "saved" in tmux.screen(), "daybook to save")
        tmux.keys("echo daybook-exit=$?", "Enter")
        tmux.wait_for(lambda: "daybook-exit=" in tmux.screen().replace("echo daybook-exit=$?", ""), "the exit status")
        assert "daybook-exit=0" in tmux.screen(), tmux.screen()
    finally:
        tmux.kill()
    [entry] = diary.entries()
    assert entry.read_text().endswith("Before the pause.\nAfter fg.\n")


def test_a_broken_edit_answered_no_names_the_entry_not_last(diary, tmp_path):
    """Issue 13 item 4: once broken, the entry is skipped, so `last` would be another entry."""
    diary.ok("new", "Older", "-m", "older words", "--date", "2026-11-20 09:00")
    diary.ok("new", "Target", "-m", "my words")
    breaker = tmp_path / "breaker"
    breaker.write_text("#!/bin/sh\nsed -i 's/^date: .*/date: [broken/' \"$1\"\n")
    breaker.chmod(0o755)
    s = Session(diary, "edit", "last", env={"EDITOR": str(breaker)})
    s.read_until(rb"Reopen the editor to fix it\? \[Y/n\] ")
    s.type(b"n\r")
    assert s.wait() == 2, s.output
    assert b"daybook edit 2026-11-21-1200-target`" in s.output, s.output
    assert b"daybook edit last" not in s.output
    assert "my words" in (diary.path / "entries/2026/11/2026-11-21-1200-target.md").read_text()


def test_reopen_question_asks_again_on_an_answer_that_is_neither(diary, tmp_path):
    """Issue 43: "[Y/n]" took anything but y as no; now only n/no is no and anything else asks again."""
    diary.ok("new", "Target", "-m", "my words")
    breaker = tmp_path / "breaker"
    breaker.write_text("#!/bin/sh\nsed -i 's/^date: .*/date: [broken/' \"$1\"\n")
    breaker.chmod(0o755)
    s = Session(diary, "edit", "last", env={"EDITOR": str(breaker)})
    s.read_until(rb"Reopen the editor to fix it\? \[Y/n\] ")
    s.type(b"nope\r")
    s.read_until(rb"Please answer y or n.\r\nReopen the editor to fix it\? \[Y/n\] ")
    s.type(b"N\r")
    assert s.wait() == 2, s.output
    assert s.output.count(b"Reopen the editor") == 2


@needs_tmux_and_vi[0]
@needs_tmux_and_vi[1]
@pytest.mark.parametrize("template,answered", [("emotion", True), ("emotion", False), ("ratings", True)])
def test_answers_given_at_the_prompts_are_kept_with_the_body_untouched(diary, tmp_path, template, answered):
    """Issue 43: in experience sampling the ratings are the entry. Answered at the prompts (a choice by
    the start of its name, another by its number), the body left as the template has it (`:wq` in vi):
    saved. No answer and no text: dropped, as before. A template of fields only saves its answers."""
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates/ratings.md").write_text(
        "---\ntemplate: ratings\nfields:\n  stress: {type: scale, min: 1, max: 7}\n"
        "  place: {type: choice, options: [home, ward, bus]}\n---\n")
    done = tmp_path / "done"
    command = f"cd {diary.path.parent} && {diary.bin} new --template {template} Sample; echo $? > {done}; sleep 60"
    tmux = Tmux(tmp_path, vi_environment(diary, tmp_path), "sh", "-c", command)
    try:
        if template == "emotion":
            tmux.wait_for(lambda: "Mood right now" in tmux.screen(), "the mood prompt")
            tmux.keys("7" if answered else "4", "Enter")
            tmux.wait_for(lambda: "General feeling (1 enjoyment / 2 sadness" in tmux.screen(), "the feeling prompt, numbered")
            tmux.keys("enj" if answered else "", "Enter")
            tmux.wait_for(lambda: "precise emotion" in tmux.screen(), "the emotion prompt")
            tmux.keys("Enter")
            tmux.wait_for(lambda: "minutes" in tmux.screen(), "the minutes prompt")
            tmux.keys("Enter")
        else:
            tmux.wait_for(lambda: "stress" in tmux.screen(), "the stress prompt")
            tmux.keys("5", "Enter")
            tmux.wait_for(lambda: "place" in tmux.screen(), "the place prompt")
            tmux.keys("2", "Enter")
        tmux.wait_for_vi()
        tmux.keys(":wq", "Enter")
        tmux.wait_for(done.exists, "daybook to end")
        time.sleep(0.1)
        status = done.read_text().strip()
    finally:
        tmux.kill()
    # The mood is required, so "4" is an answer too: only Enter everywhere and no text is dropped.
    assert status == "0"
    [entry] = diary.entries()
    text = entry.read_text()
    if template == "emotion":
        assert ("mood: 7" if answered else "mood: 4") in text
        assert ("feeling: enjoyment" in text) == answered
        assert text.rstrip().endswith("---\n## What happened?")
    else:
        assert "stress: 5" in text and "place: ward" in text


@needs_tmux_and_vi[0]
@needs_tmux_and_vi[1]
def test_no_answer_and_no_text_is_dropped(diary, tmp_path):
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates/note.md").write_text(
        "---\ntemplate: note\nfields:\n  place: {type: choice, options: [home, ward]}\n---\n## Notes\n")
    done = tmp_path / "done"
    command = f"cd {diary.path.parent} && {diary.bin} new --template note Sample; echo $? > {done}; sleep 60"
    tmux = Tmux(tmp_path, vi_environment(diary, tmp_path), "sh", "-c", command)
    try:
        tmux.wait_for(lambda: "place" in tmux.screen(), "the place prompt")
        # A refused answer, then Enter: the field is left out, so nothing was answered.
        tmux.keys("x", "Enter")
        tmux.wait_for(lambda: "try again" in tmux.screen(), "the refusal")
        tmux.keys("Enter")
        tmux.wait_for_vi()
        tmux.keys(":wq", "Enter")
        tmux.wait_for(done.exists, "daybook to end")
        time.sleep(0.1)
        assert done.read_text().strip() == "1", tmux.screen()
        assert "left untouched" in tmux.screen()
    finally:
        tmux.kill()
    assert diary.entries() == []
