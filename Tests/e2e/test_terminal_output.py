"""What daybook prints to a terminal: text from the diary never drives the terminal (issue 20 item 9)."""
from conftest import on_pty

TITLE = "Bad\x1b]0;pwned\x07 \x1b[31mred\r\ttab\u202e"


def on_terminal(diary, *args):
    """daybook's stdout is a terminal (a pty); returns what the terminal received."""
    shown, rc, err = on_pty(diary, *args, wait=10)
    assert rc == 0, err
    return shown


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
