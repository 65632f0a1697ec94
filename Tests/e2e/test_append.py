"""`daybook append` (issue 18, "Appending"): a paragraph `**HH:MM** text` at the end of an entry, today's
daily entry by default (made from the `daily` template when there is none), one commit, only the
bytes at the end of the file changed; -m, stdin and the editor as `new` takes them; bad input refused
before anything is written."""
import os
import pty
import re
import shutil
import stat

from conftest import daybook_binary

LATER = "2026-11-21T15:01:00+01:00"


def diff_of_last_commit(diary):
    return diary.git("show", "--format=", "--unified=0", "HEAD")


def test_append_on_a_day_with_no_entry_makes_a_plain_one_titled_by_the_day_then_appends_to_it(diary):
    r = diary.ok("append", "-m", "Ward 3 was quiet.")
    [entry] = diary.entries()
    assert r.out.strip().endswith(entry.name)
    text = entry.read_text()
    # Issue 43: not the daily template's headings with the note under "## Tomorrow" and the title
    # "What I did", nor its fields at defaults nobody gave: the day's title and the note.
    assert text == ("---\ntitle: Saturday, 21 November 2026\ndate: 2026-11-21T12:00:00+01:00\n---\n"
                    "**12:00** Ward 3 was quiet.\n"), text
    assert diary.git("log", "-1", "--format=%s").strip() == "append: Saturday, 21 November 2026"
    commits = diary.commits()

    diary.ok("append", "-m", "- bought a badge reader", env={"DAYBOOK_NOW": LATER})
    assert diary.entries() == [entry]  # the same entry: today's, found by its title
    assert entry.read_text() == text + "\n**15:01** - bought a badge reader\n"
    assert diary.commits() == commits + 1
    # The commit adds the two lines at the end and touches no other byte.
    diff = diff_of_last_commit(diary)
    assert [l for l in diff.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))] == \
        ["+", "+**15:01** - bought a badge reader"]


def test_a_daily_entry_of_today_is_appended_to_at_its_end(diary):
    diary.ok("new", "--template", "daily", "--no-edit", "Morning")
    diary.ok("append", "-m", "Log line.")
    [entry] = diary.entries()
    assert entry.read_text().endswith("## Tomorrow\n\n**12:00** Log line.\n")


def test_an_entry_of_today_not_made_from_daily_is_not_todays_entry(diary):
    diary.ok("new", "-m", "A memo.", "Memo")
    diary.ok("append", "-m", "Log line.")
    assert len(diary.entries()) == 2
    memo = next(p for p in diary.entries() if "memo" in p.name)
    assert memo.read_text().endswith("A memo.\n")


def test_append_to_a_named_entry_changes_only_its_end(diary):
    diary.ok("new", "-m", "Body without a final newline", "Night shift", "--date", "yesterday 22:00")
    [entry] = diary.entries()
    entry.write_bytes(entry.read_bytes().rstrip(b"\n"))  # as some editors leave it
    diary.git("commit", "-qam", "no final newline")
    before = entry.read_bytes()
    diary.ok("append", "yesterday", "-m", "Later: the login worked.")
    assert entry.read_bytes() == before + b"\n\n**12:00** Later: the login worked.\n"
    assert diary.git("status", "--porcelain") == ""


def test_crlf_entry_gets_crlf_lines(diary):
    diary.ok("new", "-m", "x", "Crlf")
    [entry] = diary.entries()
    entry.write_bytes(entry.read_bytes().replace(b"\n", b"\r\n"))
    before = entry.read_bytes()
    diary.ok("append", "last", "-m", "one\ntwo")
    assert entry.read_bytes() == before + b"\r\n**12:00** one\r\ntwo\r\n"


def in_a_terminal(diary, *args, env):
    """daybook run on a pseudo-terminal (stdin a terminal, as in a shell); its exit status."""
    e = dict(diary.env, **env)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(diary.bin, [diary.bin, *args], e)
    output = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")


def test_text_from_stdin_and_from_the_editor(diary, tmp_path):
    diary.ok("append", input="From a pipe,\ntwo lines.\n")
    [entry] = diary.entries()
    assert entry.read_text().endswith("**12:00** From a pipe,\ntwo lines.\n")
    # In a terminal without -m the editor is opened (on an empty file), as `new` opens it.
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf "\\nTyped in the editor.\\n" >> "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    rc, out = in_a_terminal(diary, "append", env={"EDITOR": str(editor), "DAYBOOK_NOW": LATER})
    assert rc == 0, out
    assert entry.read_text().endswith("two lines.\n\n**15:01** Typed in the editor.\n")
    # An editor that leaves the file empty appends nothing (exit 1).
    rc, out = in_a_terminal(diary, "append", env={"EDITOR": "true"})
    assert rc == 1 and "empty" in out, out
    # -m with --edit opens the editor on the text.
    rc, out = in_a_terminal(diary, "append", "-m", "Started here.", "--edit", env={"EDITOR": str(editor)})
    assert rc == 0, out
    assert entry.read_text().endswith("**12:00** Started here.\nTyped in the editor.\n")


def test_empty_text_appends_nothing_and_exits_1(diary):
    diary.ok("append", "-m", "first")
    [entry] = diary.entries()
    before, commits = entry.read_bytes(), diary.commits()
    for args, stdin in ((["-m", "  \n "], None), ([], "\n\n")):
        r = diary.run("append", *args, input=stdin)
        assert r.rc == 1, r
        assert "empty" in r.err
    assert entry.read_bytes() == before and diary.commits() == commits


def test_an_entry_that_does_not_exist(diary):
    r = diary.run("append", "2020-01-01-0000-nothing", "-m", "x")
    assert r.rc == 2, r
    assert "no entry `2020-01-01-0000-nothing`" in r.err
    assert diary.entries() == []


def test_a_broken_entry_is_refused_with_its_file_and_line(diary):
    diary.ok("append", "-m", "first")
    [entry] = diary.entries()
    entry.write_text(entry.read_text().replace("date: 2026-11-21T12:00:00+01:00", "date: [oops"))
    broken, commits = entry.read_bytes(), diary.commits()
    rel = entry.relative_to(diary.path)
    for args in (["append", "-m", "x"], ["append", rel.stem, "-m", "x"]):
        r = diary.run(*args)
        assert r.rc == 2, r
        assert re.search(rf"{re.escape(str(rel))}:\d+:\d+: error: .*invalid YAML", r.err), r
    # Neither written to nor made a second time beside it. With the text given, the entry is looked
    # for within the change (one walk, issue 19), so the hand edit is committed as such, once.
    assert entry.read_bytes() == broken and diary.entries() == [entry] and diary.commits() == commits + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "edit outside daybook: 1 entry"


def test_without_templates_a_plain_entry_is_made(diary, tmp_path):
    # A binary copied without its resource bundle has no built-in templates: a plain entry needs none.
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(daybook_binary(), bare / "daybook")
    diary.bin = str(bare / "daybook")
    diary.ok("append", "-m", "x")
    [entry] = diary.entries()
    assert entry.read_text().endswith("title: Saturday, 21 November 2026\ndate: 2026-11-21T12:00:00+01:00\n---\n**12:00** x\n")


DAILY_WITH_NOTES = """---
template: daily
append_under: What I did
fields:
  hours: {type: number, min: 0, max: 24, default: 0}
---
# Day

## What I did
<!-- the notes go here -->

## Tomorrow
"""


def test_a_daily_template_names_the_heading_notes_go_under(diary):
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates/daily.md").write_text(DAILY_WITH_NOTES)
    diary.ok("append", "-m", "Ward 3 was quiet.")
    [entry] = diary.entries()
    text = entry.read_text()
    assert "title: Saturday, 21 November 2026" in text and "template: daily" in text
    assert text.endswith("## What I did\n<!-- the notes go here -->\n\n**12:00** Ward 3 was quiet.\n\n## Tomorrow\n"), text
    diary.ok("append", "-m", "Second.", env={"DAYBOOK_NOW": LATER})
    assert diary.entries() == [entry]
    assert entry.read_text().endswith(
        "**12:00** Ward 3 was quiet.\n\n**15:01** Second.\n\n## Tomorrow\n"), entry.read_text()


def test_append_under_must_name_a_heading_of_the_template(diary):
    (diary.path / "templates").mkdir(exist_ok=True)
    (diary.path / "templates/daily.md").write_text(DAILY_WITH_NOTES.replace("append_under: What I did", "append_under: Notes"))
    r = diary.run("append", "-m", "x")
    assert r.rc == 2, r
    assert "templates/daily.md:3" in r.err and "append_under" in r.err and "## Notes" in r.err
    assert diary.entries() == []
