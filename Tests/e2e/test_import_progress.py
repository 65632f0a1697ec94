"""A long import shows how far it got from its first record (issue 13 item 9).

`import jsonl` of thousands of records was silent for seconds before its bar: reading the file and
looking for records already in the diary showed nothing, and `--dry-run` showed no bar at all.
Run as a person would, with stderr on a terminal (a pty), where daybook draws its bars.
"""
import json

from conftest import on_pty

N = 1500


def records(path, n=N):
    with open(path, "w") as f:
        for i in range(n):
            day = f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00+01:00"
            f.write(json.dumps({"date": day, "title": f"Day {i}", "body": f"Note number {i}.\n"}) + "\n")


def on_terminal(diary, *args):
    """Runs daybook with stdout and stderr on a pty; returns what the terminal received, and the exit code."""
    shown, rc, _ = on_pty(diary, *args, stderr_too=True, wait=120)
    return shown, rc


def first(text, needle):
    at = text.find(needle)
    assert at >= 0, (needle, text[-2000:])
    return at


def test_every_stage_of_an_import_shows_a_bar_from_its_first_record(diary):
    diary.init()
    records(diary.tmp / "many.jsonl")
    shown, rc = on_terminal(diary, "import", "jsonl", diary.tmp / "many.jsonl")
    assert rc == 0, shown
    # Each bar is drawn at its first record and at its last, in the order the work is done.
    reading = first(shown, f"reading many.jsonl [")
    assert f"] 1/{N}" in shown[reading:reading + 80], shown[reading:reading + 80]
    checking = first(shown, "checking against the diary [")
    writing = first(shown, "import jsonl [")
    assert reading < checking < writing
    assert f"] {N}/{N}" in shown[writing:]
    assert f"imported {N} entries from jsonl" in shown
    assert len(diary.entries()) == N


def test_a_dry_run_shows_its_bars_and_writes_nothing(diary):
    diary.init()
    records(diary.tmp / "many.jsonl")
    commits = diary.commits()
    shown, rc = on_terminal(diary, "import", "jsonl", diary.tmp / "many.jsonl", "--dry-run")
    assert rc == 0, shown
    assert first(shown, "reading many.jsonl [") < first(shown, "checking against the diary [")
    assert f"would import {N} entries from jsonl" in shown
    assert diary.entries() == [] and diary.commits() == commits


def test_into_a_pipe_no_bar_is_drawn(diary):
    diary.init()
    records(diary.tmp / "few.jsonl", 20)
    r = diary.ok("import", "jsonl", diary.tmp / "few.jsonl")
    assert "[" not in r.err and "\r" not in r.err, r.err
    assert "imported 20 entries" in r.err
