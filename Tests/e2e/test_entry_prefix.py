"""ENTRY by id prefix through the recorded names of the month folders (issue 19): the names are kept
in `.daybook/cache/names.bin` with each folder's stamp; a folder changed since (an entry added,
removed, moved in or out by hand) is listed again, so the answers are those of listing every folder."""
import json
import os
import time


def names_file(diary):
    return diary.path / ".daybook" / "cache" / "names.bin"


def path_of(diary, ref):
    return json.loads(diary.ok("show", "--json", ref).out)["path"]


def test_prefix_and_moved_ids_follow_the_folders(diary):
    diary.ok("new", "-m", "Night shift notes.", env={"DAYBOOK_NOW": "2026-10-05T23:10:00+02:00"})
    diary.ok("new", "-m", "Ward rounds.", env={"DAYBOOK_NOW": "2026-11-03T08:00:00+01:00"})
    diary.ok("new", "-m", "Handover.", env={"DAYBOOK_NOW": "2026-11-03T09:30:00+01:00"})
    entries = {p.stem: p for p in diary.entries()}
    night = next(k for k in entries if k.startswith("2026-10-05"))
    assert path_of(diary, "2026-10-05-23") == f"entries/2026/10/{night}.md"
    time.sleep(2.2)  # past the racy window: the next lookup records the folders it lists
    assert "Ward rounds." in diary.ok("show", "--raw", "2026-11-03-08").out
    assert names_file(diary).exists()
    recorded = names_file(diary).read_bytes()
    assert night.encode() in recorded

    # Moved by hand to another month: the whole id is not where `new` files it, and both folders'
    # stamps moved, so the lookup lists them again and finds it.
    os.makedirs(diary.path / "entries/2025/01")
    os.rename(entries[night], diary.path / f"entries/2025/01/{night}.md")
    assert path_of(diary, night) == f"entries/2025/01/{night}.md"
    assert path_of(diary, "2026-10-05") == f"entries/2025/01/{night}.md"

    # An entry written by hand into a recorded folder makes the prefix ambiguous at once.
    time.sleep(2.2)
    diary.ok("show", "--raw", "2026-11-03-08")  # records the folders again
    (diary.path / "entries/2026/11/2026-11-03-0815-by-hand.md").write_text(
        "---\ndate: 2026-11-03T08:15:00+01:00\n---\nBy hand.\n")
    r = diary.run("show", "--raw", "2026-11-03-08")
    assert r.rc != 0 and "2026-11-03-0815-by-hand" in r.err and "names 2 entries" in r.err, r
    os.remove(entries[next(k for k in entries if k.startswith("2026-11-03-08"))])
    assert path_of(diary, "2026-11-03-08") == "entries/2026/11/2026-11-03-0815-by-hand.md"

    # The file is a cache: damaged or gone, the answers stay the same.
    names_file(diary).write_bytes(b"garbage")
    assert path_of(diary, "2026-11-03-08") == "entries/2026/11/2026-11-03-0815-by-hand.md"
    names_file(diary).unlink()
    assert path_of(diary, "2026-10-05") == f"entries/2025/01/{night}.md"
    r = diary.run("show", "--raw", "2026-12")
    assert r.rc != 0 and "no entry `2026-12`" in r.err, r
