"""What daybook prints to a terminal: text from the diary never drives the terminal (issue 20 item 9)."""
import os
import pty
import select
import subprocess

TITLE = "Bad\x1b]0;pwned\x07 \x1b[31mred\r\ttab\u202e"


def on_terminal(diary, *args):
    """daybook's stdout is a terminal (a pty); returns what the terminal received."""
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([diary.bin, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE,
                             env=dict(diary.env, TERM="xterm"), cwd=diary.path.parent)
        os.close(slave)
        out = b""
        while True:
            ready, _, _ = select.select([master], [], [], 10)
            if not ready:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO once daybook has closed its end
                break
            if not chunk:
                break
            out += chunk
        p.wait(timeout=10)
        assert p.returncode == 0, p.stderr.read()
        return out.decode()
    finally:
        os.close(master)


def test_control_characters_in_a_title_are_escaped_on_a_terminal(diary):
    diary.ok("new", TITLE, "-m", "x")
    escaped = "Bad\\u001B]0;pwned\\u0007 \\u001B[31mred\\r\\ttab\\u202E"
    for command in (["ls"], ["show", "last"], ["log"]):
        shown = on_terminal(diary, *command)
        assert escaped in shown, (command, shown)
        for raw in ("\x1b", "\x07", "\t", "\u202e"):
            assert raw not in shown, (command, raw, shown)
    # Into a pipe the bytes are the entry's own, for scripts.
    assert "Bad\x1b]0;pwned\x07 \x1b[31mred" in diary.ok("ls").out


def test_plain_titles_are_untouched_on_a_terminal(diary):
    diary.ok("new", "Ein ganz normaler Titel – mit Ümlaut", "-m", "x")
    assert "Ein ganz normaler Titel – mit Ümlaut" in on_terminal(diary, "ls")
