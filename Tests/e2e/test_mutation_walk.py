"""A mutation walks the diary once (issue 19): `tag add last` finds its entry within the change, from
the walk that found the outside edits and the leftovers. Outside edits are still committed apart,
leftovers still swept, and `last` is still the true newest entry, also right after an outside edit."""
import os
import subprocess
import time

import pytest

from conftest import STAT_CALL, strace_works

SUFFIX = ".daybook-tmp"


def write_entry(diary, name, date, title, month="11"):
    p = diary.path / "entries/2026" / month / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"---\ntitle: {title}\ndate: {date}\n---\nWritten by hand.\n")
    return p


def subjects(diary, n):
    return diary.git("log", f"-{n}", "--format=%s").splitlines()


def test_tag_add_last_tags_an_entry_written_by_hand_and_commits_it_apart(diary):
    diary.ok("new", "-q", "-m", "first words", "First")
    diary.ok("new", "-q", "-m", "second words", "Second", "--date", "2026-11-20T09:00")
    diary.ok("ls")  # the cache, warm
    hand = write_entry(diary, "2026-11-21-1230-by-hand.md", "2026-11-21T12:30:00+01:00", "By hand")
    leftovers = [diary.path / f"entries/2026/11/.x.md.1234{SUFFIX}", diary.path / f"templates/.t.md{SUFFIX}",
                 diary.path / f"notes/deep/.n.txt{SUFFIX}", diary.path / f".daybook.yml.9{SUFFIX}"]
    for p in leftovers:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("half written\n")
    before = diary.commits()
    r = diary.ok("tag", "add", "last", "handmade")
    assert "By hand" in r.err
    assert "tags: [handmade]" in hand.read_text()
    assert diary.commits() == before + 2
    assert subjects(diary, 2) == ["tag: +handmade on By hand", "edit outside daybook: 1 entry"]
    outside = diary.git("show", "--name-only", "--format=", "HEAD~1").split()
    assert outside == ["entries/2026/11/2026-11-21-1230-by-hand.md"]
    for p in leftovers:
        assert not p.exists(), p
    assert diary.git("status", "--porcelain") == ""


def test_last_is_the_newest_right_after_an_outside_edit_of_an_older_entry(diary):
    diary.ok("new", "-q", "-m", "older words", "Older", "--date", "2026-11-01T09:00")
    diary.ok("new", "-q", "-m", "newer words", "Newer", "--date", "2026-11-20T09:00")
    diary.ok("ls")  # cached; the edit below comes within the racy window, the same size
    older = next(p for p in diary.entries() if "older" in p.name)
    text = older.read_text()
    edited = text.replace("2026-11-01T09:00", "2026-11-21T09:00")
    assert len(edited) == len(text)
    st = os.stat(older)
    older.write_text(edited)
    os.utime(older, ns=(st.st_atime_ns, st.st_mtime_ns))
    diary.ok("tag", "add", "last", "moved")
    assert "moved" in older.read_text()
    newer = next(p for p in diary.entries() if "newer" in p.name)
    assert "moved" not in newer.read_text()
    assert subjects(diary, 2)[1] == "edit outside daybook: 1 entry"


def test_an_entry_not_found_after_an_outside_edit_leaves_the_edit_committed(diary):
    diary.ok("new", "-q", "-m", "words", "One")
    write_entry(diary, "2026-11-21-1130-by-hand.md", "2026-11-21T11:30:00+01:00", "By hand")
    r = diary.run("tag", "add", "no-such-entry", "x")
    assert r.rc != 0 and "no entry" in r.err
    assert subjects(diary, 1) == ["edit outside daybook: 1 entry"]
    assert diary.git("status", "--porcelain") == ""


def test_tag_add_from_stdin_reads_it_before_the_lock(diary):
    diary.ok("new", "-q", "-m", "a", "Alpha")
    diary.ok("new", "-q", "-m", "b", "Beta", "--date", "2026-11-20T09:00")
    ids = diary.ok("ls", "--json").json()
    diary.ok("tag", "add", "-", "both", input="\n".join(e["id"] for e in ids) + "\n")
    assert all("both" in p.read_text() for p in diary.entries())



# Each mutation that takes ENTRY stats an entry it does not touch once: in the walk its change makes
# for the outside edits, which also serves to find ENTRY (`last`, a day, today's entry). Counted
# with strace(1), as a person checking what the command does to the disk would.
INKML = '<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 3 4, 7 9</trace></ink>\n'

# Each: the commands that prepare it, then the one traced ("{ink}" is a file of pen strokes).
MUTATIONS = [
    ("tag add", [], ["tag", "add", "last", "seen"]),
    ("tag rm", [], ["tag", "rm", "last", "seen"]),
    ("code add", [], ["code", "add", "last", "calm", "--quote", "newest words"]),
    ("code rm", [], ["code", "rm", "last", "calm"]),
    ("ink add", [], ["ink", "add", "last", "{ink}"]),
    ("ink rm", [], ["ink", "rm", "last", "--all"]),
    ("attach", [], ["attach", "last", "{ink}"]),
    ("append ENTRY", [], ["append", "last", "-m", "a line"]),
    ("append today (made)", [], ["append", "-m", "a line"]),
    ("append today, from stdin", [], ["append"]),
    ("rm", [["new", "-q", "-m", "to go", "Going", "--date", "2026-11-21T23:00"]], ["rm", "last"]),
]


def test_a_mutation_stats_an_entry_it_does_not_touch_once(diary, tmp_path):
    if not strace_works():
        pytest.skip("strace cannot trace here (scripts/setup installs it; ptrace may be forbidden)")
    ink = tmp_path / "sketch.inkml"
    ink.write_text(INKML)
    # The witness, in a month folder of its own: the cache's record of what a change wrote looks at
    # the files beside them once after the commit, not at the whole diary.
    witness = write_entry(diary, "2026-10-01-0900-witness.md", "2026-10-01T09:00:00+02:00", "Witness", month="10")
    diary.ok("new", "-q", "-m", "newest words", "Newest", "--date", "2026-11-20T09:00")
    # As a diary left alone has it: committed, its times well before the index's and the cache's
    # (not racy, so neither git nor the cache looks at it again), the index's record refreshed.
    past = time.time() - 100
    os.utime(witness, (past, past))
    diary.git("status", "--porcelain")
    time.sleep(2.2)  # the cache's racy window (FileStamp.racyWindow) is 2 s
    counts = {}
    for name, setup, args in MUTATIONS:
        for a in setup:
            diary.ok(*a)
        diary.ok("ls")  # the cache, warm
        log = tmp_path / "strace.log"
        argv = [str(ink) if x == "{ink}" else x for x in args]
        p = subprocess.run(["strace", "-f", "-o", str(log), diary.bin, *argv], input="words from stdin\n",
                           capture_output=True, text=True, env=diary.env, cwd=diary.path.parent, timeout=120)
        assert p.returncode == 0, (name, p.stderr)
        stats = [line for line in log.read_text().splitlines() if STAT_CALL.match(line) and f'{witness.name}"' in line]
        counts[name] = len(stats)
    assert counts == {name: 1 for name, _, _ in MUTATIONS}
    assert witness.read_text().endswith("Written by hand.\n")
    assert diary.git("status", "--porcelain") == ""
    assert diary.git("log", "-1", "--format=%s").startswith("rm: Going")
