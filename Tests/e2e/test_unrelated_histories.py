"""Histories with no commit in common (issue 37): on a plain remote as on an encrypted one, sync
refuses to merge two diaries, says how to start over, and loses nothing; a fresh `init` takes the
remote's history whole."""
import subprocess

from conftest import Diary
from test_purge import daemon, git, machine  # noqa: F401 (fixture)


def titles(d):
    r = d.run("ls", "--json")
    return sorted(e["title"] for e in r.json()) if r.rc == 0 else []


def test_two_diaries_are_never_merged_and_a_fresh_one_takes_the_remote(tmp_path, daemon):
    url, remote = daemon
    a, c, fresh = machine(tmp_path, "a").init(), machine(tmp_path, "c").init(), machine(tmp_path, "fresh").init()
    a.ok("new", "Diary A entry", "-m", "alpha", "--date", "2026-11-20 08:00")
    a.ok("sync", "--set-remote", url)
    c.ok("new", "Diary C entry", "-m", "gamma", "--date", "2026-11-20 09:00")
    head, files = c.git("rev-parse", "HEAD"), sorted(p.name for p in c.path.rglob("*.md"))
    r = c.run("sync", "--set-remote", url)
    assert r.rc == 2 and "no commit in common" in r.err and "nothing was merged" in r.err, r
    assert "daybook init NEWDIR" in r.err and "--set-remote" in r.err, r
    assert c.git("rev-parse", "HEAD") == head and sorted(p.name for p in c.path.rglob("*.md")) == files
    assert titles(c) == ["Diary C entry"]
    assert git("rev-parse", "main", cwd=remote) == a.git("rev-parse", "HEAD")
    # A diary with nothing but its first commit takes the remote's history whole.
    r = fresh.ok("sync", "--set-remote", url)
    assert "took the remote's history whole" in r.err, r
    assert titles(fresh) == ["Diary A entry"] and fresh.git("rev-parse", "HEAD") == a.git("rev-parse", "HEAD")
    assert fresh.git("status", "--porcelain") == ""
    # A fresh diary with an edit made outside daybook is not fresh any more: refused, edit kept.
    late = machine(tmp_path, "late").init()
    (late.path / "notes.txt").write_text("mine\n")
    r = late.run("sync", "--set-remote", url)
    assert r.rc == 2 and "no commit in common" in r.err, r
    assert (late.path / "notes.txt").read_text() == "mine\n"
