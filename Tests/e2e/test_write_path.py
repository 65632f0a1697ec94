"""The write path against a person's git and a killed daybook (issue 38), as a user meets it."""
import os
import subprocess
import sys
import time

import pytest


def person_commit(diary, editor):
    """Starts a person's `git commit -a` in the diary whose editor runs `editor` (a shell line that
    gets the message file as $1); returns the process once git holds .git/index.lock."""
    (diary.path / "notes.txt").write_text("the person's own notes\n")
    diary.git("add", "notes.txt")
    diary.git("commit", "-q", "-m", "notes")
    (diary.path / "notes.txt").write_text("the person's own notes, changed\n")
    env = dict(diary.env, GIT_EDITOR=f"sh -c '{editor}' editor")
    p = subprocess.Popen(["git", "commit", "-a"], cwd=diary.path, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lock = diary.path / ".git/index.lock"
    for _ in range(200):
        if lock.exists():
            return p
        time.sleep(0.02)
    p.kill()
    pytest.fail("git commit -a never took .git/index.lock")


def test_a_person_s_commit_whose_editor_is_open_keeps_its_lock_and_succeeds(diary):
    # git keeps .git/index.lock through the editor with no file descriptor on it (issue 38).
    p = person_commit(diary, 'sleep 2; echo "person commit" > "$1"')
    r = diary.run("new", "-m", "daybook words", "Daybook")
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    # daybook waited for the lock to go, then made its commit on top of the person's.
    assert r.rc == 0, r
    assert "removed" not in r.err, r
    log = diary.git("log", "--format=%s", "-3").splitlines()
    assert log[0] == "new: Daybook" and log[1] == "person commit", log
    assert "changed" in diary.git("show", "HEAD~1:notes.txt")


def test_a_lock_kept_longer_than_daybook_waits_stops_it_naming_the_lock(diary):
    flag = diary.tmp / "done"
    p = person_commit(diary, f'while [ ! -e {flag} ]; do sleep 0.1; done; echo "person commit" > "$1"')
    before = diary.commits()
    started = time.monotonic()
    r = diary.run("new", "-m", "daybook words", "Daybook")
    waited = time.monotonic() - started
    flag.touch()
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert r.rc == 2, r
    assert ".git/index.lock" in r.err and "in use" in r.err and "git commit" in r.err, r
    assert 3 < waited < 30, waited
    # Nothing written by daybook; the person's commit is the one made.
    assert diary.commits() == before + 1
    assert diary.git("log", "-1", "--format=%s").strip() == "person commit"
    assert not list((diary.path / "entries").rglob("*daybook*"))
    diary.ok("new", "-m", "daybook words", "Daybook")
    assert diary.git("status", "--porcelain") == ""


def test_a_freshly_touched_lock_is_not_removed(diary):
    lock = diary.path / ".git/index.lock"
    lock.touch()
    r = diary.run("new", "-m", "x", "T")
    assert r.rc == 2 and lock.exists(), r
    assert ".git/index.lock" in r.err and "no process holds it" in r.err and "remove the file" in r.err, r
    # Not stale yet, so `check` does not call it one either.
    assert ".git/index.lock" not in diary.run("check").out


def test_a_lock_left_while_a_killed_daybook_held_the_diary_is_removed_at_once(diary):
    # A daybook killed inside its commit: its process id stays in .daybook/lock, and the git lock
    # it was writing is younger than that.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (diary.path / ".daybook").mkdir(exist_ok=True)
    (diary.path / ".daybook/lock").write_text(f"{dead.pid}\n")
    time.sleep(0.05)
    lock = diary.path / ".git/index.lock"
    lock.touch()
    r = diary.run("check")
    assert r.rc == 1 and ".git/index.lock" in r.out, r
    r = diary.run("new", "-m", "x", "T")
    assert r.rc == 0 and ".git/index.lock" in r.err and "removed" in r.err, r
    assert not lock.exists()
    # A lock made after that daybook died is another program's: not removed.
    (diary.path / ".daybook/lock").write_text(f"{dead.pid}\n")
    old = time.time() - 30
    os.utime(diary.path / ".daybook/lock", (old, old))
    time.sleep(0.05)
    lock.touch()
    os.utime(lock, (old - 10, old - 10))
    r = diary.run("new", "-m", "y", "U")
    assert r.rc == 2 and lock.exists(), r
