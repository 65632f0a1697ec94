"""The write path against a person's git and a killed daybook (issue 38), as a user meets it."""
import os
import subprocess
import sys
import time

import pytest
from conftest import git_daemon


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


def many_entries(diary, n, tag):
    import json
    src = diary.tmp / "many.json"
    src.write_text(json.dumps({"entries": [{"date": "2026-10-%02d" % (1 + k % 28), "time": "10:%02d" % (k % 60),
                                            "title": f"Many {k}", "body": f"words of entry {k} #{tag}\n",
                                            "tags": [], "starred": False} for k in range(n)]}))
    diary.ok("import", "jrnl", src)
    return src


def kill_half_way(diary, args, probe):
    """Runs `args` and kills it with SIGKILL at growing delays until a kill leaves the change half
    done (`.daybook/intent` there and `probe()` says some but not all files changed); False when
    no delay caught it (every run finished or was killed before writing)."""
    import signal
    intent = diary.path / ".daybook/intent"
    for k in range(60):
        p = subprocess.Popen([diary.bin, *map(str, args)], env=diary.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        time.sleep(0.05 + 0.02 * k)
        p.send_signal(signal.SIGKILL)
        p.wait()
        if intent.exists() and probe() == "half":
            return True
        if p.returncode == 0 or probe() == "all":
            return False
        if intent.exists():
            diary.ok("check", "--fix")  # killed before the first file: roll back and try again
    return False


def test_a_killed_tag_rename_is_rolled_back_whole_and_check_names_it(diary):
    n = 120
    many_entries(diary, n, "old")

    def state():
        texts = [p.read_text() for p in diary.entries()]
        renamed = sum("#new" in t for t in texts)
        return "none" if renamed == 0 else "all" if renamed == n else "half"

    if not kill_half_way(diary, ["tag", "rename", "old", "new"], state):
        pytest.skip("no kill landed half way through the rename on this machine")
    commits = diary.commits()
    r = diary.run("check")
    assert r.rc == 1 and ".daybook/intent" in r.out and "`tag rename #old #new` was stopped" in r.out, r
    r = diary.run("new", "-m", "after the kill", "After")
    assert r.rc == 0 and "rolled back `tag rename #old #new`" in r.err, r
    # No entry renamed, in the files and in HEAD, and no commit of half of them.
    assert state() == "none"
    head = subprocess.run(["git", "grep", "-c", "#new", "HEAD", "--", "entries"], cwd=diary.path,
                          capture_output=True, text=True).stdout
    assert head == "", head
    assert diary.commits() == commits + 1
    assert "outside" not in diary.git("log", "-2", "--format=%s")
    assert diary.git("status", "--porcelain") == ""
    diary.ok("check")
    # Run again, it renames every entry in one commit.
    diary.ok("tag", "rename", "old", "new")
    assert state() == "all" and diary.commits() == commits + 2


def test_an_edit_made_after_the_kill_is_never_rolled_back(diary):
    n = 120
    many_entries(diary, n, "old")

    def state():
        renamed = sum("#new" in p.read_text() for p in diary.entries())
        return "none" if renamed == 0 else "all" if renamed == n else "half"

    if not kill_half_way(diary, ["tag", "rename", "old", "new"], state):
        pytest.skip("no kill landed half way through the rename on this machine")
    renamed = next(p for p in diary.entries() if "#new" in p.read_text())
    with open(renamed, "a") as f:
        f.write("a line the person wrote after the kill\n")
    r = diary.run("new", "-m", "after", "After")
    assert r.rc == 0 and "rolled back" in r.err, r
    # The person's file keeps its words (and the rename in it); every other entry went back.
    assert "a line the person wrote after the kill" in renamed.read_text()
    assert "#new" in renamed.read_text()
    assert sum("#new" in p.read_text() for p in diary.entries()) == 1
    assert "a line the person wrote" in diary.git("log", "-p", "-3")
    assert diary.git("status", "--porcelain") == ""


def test_a_killed_import_and_rm_leave_all_or_nothing(diary):
    import json
    n = 150
    src = diary.tmp / "big.json"
    src.write_text(json.dumps({"entries": [{"date": "2026-09-%02d" % (1 + k % 28), "time": "08:%02d" % (k % 60),
                                            "title": f"Imported {k}", "body": f"imported words {k} zqimport\n",
                                            "tags": [], "starred": False} for k in range(n)]}))

    def imported():
        c = sum("zqimport" in p.read_text() for p in diary.entries())
        return "none" if c == 0 else "all" if c == n else "half"

    if kill_half_way(diary, ["import", "jrnl", src], imported):
        r = diary.run("new", "-m", "after", "After")
        assert r.rc == 0 and "rolled back `import jrnl`" in r.err, r
        assert imported() == "none"
    if imported() == "none":
        diary.ok("import", "jrnl", src)
    assert imported() == "all"
    head = subprocess.run(["git", "grep", "-l", "zqimport", "HEAD", "--", "entries"], cwd=diary.path,
                          capture_output=True, text=True).stdout.split()
    assert len(head) == n
    if kill_half_way(diary, ["rm", *[p.stem for p in diary.entries() if "zqimport" in p.read_text()]], imported):
        r = diary.run("new", "-m", "after rm", "After rm")
        assert r.rc == 0 and "rolled back `rm`" in r.err, r
        assert imported() == "all"
    head = subprocess.run(["git", "grep", "-l", "zqimport", "HEAD", "--", "entries"], cwd=diary.path,
                          capture_output=True, text=True).stdout.split()
    assert len(head) == (n if imported() == "all" else 0), (len(head), imported())


def test_a_file_kept_open_for_writing_is_not_replaced_under_its_writer(diary):
    # A script appending through a descriptor it keeps: a rewrite by rename would leave its next
    # lines in the replaced file, and they would be lost (issue 38).
    diary.ok("new", "-m", "start", "Kept open")
    entry = diary.entries()[0]
    commits = diary.commits()
    with open(entry, "a") as f:
        r = diary.run("tag", "add", "last", "x")
        assert r.rc == 2 and "open for writing" in r.err and "nothing was changed" in r.err, r
        assert str(entry.relative_to(diary.path.parent)) in r.err, r
        f.write("a line written after daybook gave up\n")
    assert "a line written after daybook gave up" in entry.read_text()
    assert "x" not in entry.read_text().split("---")[1]
    assert diary.commits() == commits


def test_an_append_through_a_descriptor_opened_before_the_rewrite_is_kept(diary):
    diary.ok("new", "-m", "start", "Appended")
    entry = diary.entries()[0]
    f = open(entry, "a")
    p = subprocess.Popen([diary.bin, "append", "last", "-m", "daybook's line"], env=diary.env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # daybook waits for the writer
    f.write("the script's line\n")
    f.close()
    out, err = p.communicate(timeout=30)
    # daybook saw the file change and stopped; the script's line is in the file and committed.
    assert p.returncode == 2 and "changed while daybook was working" in err, err
    assert "the script's line" in entry.read_text()
    assert "the script's line" in diary.git("show", "HEAD:" + str(entry.relative_to(diary.path)))
    diary.ok("append", "last", "-m", "daybook's line")
    text = entry.read_text()
    assert "the script's line" in text and "daybook's line" in text


ROUNDS = int(os.environ.get("DAYBOOK_SYNC_ROUNDS", "8"))  # full runs: DAYBOOK_SYNC_ROUNDS=100


@pytest.fixture(params=["path", "file", "daemon"])
def remote(request, tmp_path):
    """A bare remote whose every reference update is logged, and the URL a diary names it by."""
    base = tmp_path / "srv"
    base.mkdir()
    bare = base / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    subprocess.run(["git", "-C", str(bare), "config", "core.logAllRefUpdates", "always"], check=True)
    if request.param == "path":
        yield bare, str(bare)
        return
    if request.param == "file":
        yield bare, "file://" + str(bare)
        return
    with git_daemon(base) as port:
        yield bare, f"git://127.0.0.1:{port}/remote.git"


def test_two_syncs_at_once_only_fast_forward_the_remote(tmp_path, remote):
    from conftest import Diary
    bare, url = remote
    machines = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        machines.append(Diary(tmp_path / name))
    a, b = machines
    a.init()
    a.ok("new", "-m", "first words", "First")
    a.ok("sync", "--set-remote", url)
    subprocess.run(["git", "clone", "-q", url, str(b.path)], check=True, env=b.env, cwd=tmp_path)
    dropped, sent = [], 0
    for i in range(ROUNDS):
        for m in machines:
            m.ok("new", "-m", f"words {m.path.parent.name} {i}", f"Round {i}")
        procs = [subprocess.Popen([m.bin, "sync"], env=m.env, cwd=m.path, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for m in machines]
        outs = [p.communicate(timeout=120) for p in procs]
        tip = subprocess.run(["git", "-C", str(bare), "rev-parse", "main"], capture_output=True, text=True).stdout.strip()
        for m, p, (out, err) in zip(machines, procs, outs):
            assert p.returncode in (0, 2), err
            if p.returncode == 2:
                assert "kept changing" in err, err  # the only way a sync may give up: run it again
                continue
            sent += "sent" in out + err
            # A sync that exited 0 has its commit on the remote.
            head = m.git("rev-parse", "HEAD").strip()
            ok = subprocess.run(["git", "-C", str(bare), "merge-base", "--is-ancestor", head, tip])
            if ok.returncode != 0:
                dropped.append((i, m.path.parent.name, out + err))
    assert dropped == [], dropped
    assert sent > 0
    # The remote's reflog: every move of main a fast-forward.
    log = (bare / "logs/refs/heads/main").read_text().splitlines()
    assert len(log) > ROUNDS, log
    back = []
    for line in log:
        old, new = line.split()[:2]
        if set(old) == {"0"}:
            continue
        r = subprocess.run(["git", "-C", str(bare), "merge-base", "--is-ancestor", old, new])
        if r.returncode != 0:
            back.append(line)
    assert back == [], f"{len(back)} of {len(log)} updates of the remote's main were not fast-forwards"
    # Both machines end with every entry of both.
    for m in machines:
        m.ok("sync")
    for m in machines:
        m.ok("sync")
    assert sorted(p.name for p in a.entries()) == sorted(p.name for p in b.entries())
    assert len(a.entries()) == 1 + 2 * ROUNDS


MUTATIONS = [["new", "-m", "more words", "More"], ["append", "last", "-m", "a line"], ["tag", "add", "last", "t"],
             ["tag", "rename", "old", "renamed"], ["code", "add", "last", "c"], ["rm", "last"]]


def damaged(diary):
    """A diary of three entries whose first entry's committed blob is gone; its path. (A command
    that rewrites that very entry commits a new blob for it and goes through; `check` still names
    the one its history lacks.)"""
    diary.ok("new", "-m", "first words", "First")
    diary.ok("new", "-m", "second words #old", "Second")
    diary.ok("new", "-m", "third words", "Third")
    first = next(p for p in diary.entries() if p.name.endswith("first.md"))
    rel = str(first.relative_to(diary.path))
    blob = diary.git("rev-parse", f"HEAD:{rel}").strip()
    (diary.path / ".git/objects" / blob[:2] / blob[2:]).unlink()
    return rel, blob


@pytest.mark.parametrize("args", MUTATIONS, ids=lambda a: " ".join(a[:2]))
def test_a_missing_blob_is_named_by_every_mutation_and_by_check(diary, args):
    rel, blob = damaged(diary)
    before = diary.git("rev-parse", "HEAD")
    r = diary.run(*args)
    assert r.rc == 2, r
    assert f"{rel}: the committed version of this file (blob {blob[:12]}" in r.err and "git fetch" in r.err, r
    assert "git_" not in r.err, r  # daybook's words, not libgit2's
    assert diary.git("rev-parse", "HEAD") == before
    if args[:2] == ["tag", "rename"]:
        # All or nothing: the entry it renamed is put back as it was.
        assert "#old" in next(p for p in diary.entries() if p.name.endswith("second.md")).read_text()
    r = diary.run("check")
    assert r.rc == 1 and f"{rel}: error: its committed version (blob {blob[:12]}" in r.out and "git fsck" in r.out, r
    r = diary.run("check", "--fix")
    assert r.rc == 1 and rel in r.out, r
    assert diary.git("rev-parse", "HEAD") == before


@pytest.mark.parametrize("args", MUTATIONS, ids=lambda a: " ".join(a[:2]))
def test_head_on_a_missing_branch_is_refused_not_a_new_history(diary, args):
    diary.ok("new", "-m", "first words #old", "First")
    diary.ok("tag", "add", "last", "old")
    tips = diary.git("for-each-ref", "--format=%(refname) %(objectname)")
    count = diary.git("rev-list", "--all", "--count")
    diary.git("symbolic-ref", "HEAD", "refs/heads/gone")
    r = diary.run(*args)
    assert r.rc == 2 and ".git/HEAD: HEAD names the branch `gone`, which does not exist" in r.err, r
    assert "git checkout main" in r.err, r
    # No new root history: the same references, the same commits.
    assert diary.git("for-each-ref", "--format=%(refname) %(objectname)") == tips
    assert diary.git("rev-list", "--all", "--count") == count
    r = diary.run("check")
    assert r.rc == 1 and "HEAD names the branch `gone`" in r.out and "not committed yet" not in r.out, r
    diary.git("symbolic-ref", "HEAD", "refs/heads/main")
    diary.ok("new", "-m", "after", "After")
    diary.ok("check")


@pytest.mark.parametrize("args", MUTATIONS + [["check"]], ids=lambda a: " ".join(a[:2]))
def test_a_damaged_index_is_said_in_daybooks_words_with_what_to_do(diary, args):
    """Issue 39: libgit2's failures in daybook's words — what it was doing, the file, what to do —
    and the advice works when followed (check itself cannot send a person back to check)."""
    diary.ok("new", "-m", "first words #old", "First")
    before = diary.git("rev-parse", "HEAD")
    (diary.path / ".git/index").write_bytes(b"DIRC\0\0\0\2garbage")
    r = diary.run(*args)
    assert r.rc == 2, r
    assert ".git/index" in r.err and "mv .git/index .git/index.bad" in r.err and "git reset" in r.err, r
    assert "git_" not in r.err and "`daybook check`" not in r.err, r
    assert diary.git("rev-parse", "HEAD") == before
    (diary.path / ".git/index").rename(diary.path / ".git/index.bad")
    diary.git("reset", "-q")
    diary.ok(*args)
