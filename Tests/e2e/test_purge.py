"""`daybook purge` end to end: two machines and a bare remote served by `git daemon` on 127.0.0.1.

A purges an entry (with its strokes and an attachment) and syncs; B, holding an entry it has not
pushed yet, syncs and applies the purge to its own history. Afterwards the purged words are in no
object reachable on A, B or the remote, and none is left on disk after `git gc --prune=now`; the
other entries' commits keep their messages, dates and contents, and B's unpushed entry survives.
(The tests use the git CLI to look; daybook itself never runs it.)
"""
import json
import pathlib
import socket
import subprocess
import time

import pytest

from conftest import Diary

SECRET_BODY = "Quixotical"           # a word of the purged entry's body
SECRET_TITLE = "Zanzibarian"         # a word of its title (and so of its id and file names)
SECRET_ATTACHMENT = "Pelargonium"    # a word inside its attachment
WORDS = [SECRET_BODY, SECRET_TITLE.lower(), SECRET_TITLE, SECRET_ATTACHMENT]

STROKES = {
    "format": "daybook-strokes", "version": 1, "canvas": {"width": 100, "height": 100, "unit": "pt"},
    "channels": ["x", "y", "t"],
    "strokes": [{"tool": "pen", "color": "#1f2328", "width": 2, "points": [[1, 2, 0], [30, 2, 50]]}],
}


def git(*args, cwd, env=None, check=True):
    p = subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd, env=env)
    if check:
        assert p.returncode == 0, (args, p.stderr)
    return p.stdout


@pytest.fixture
def daemon(tmp_path):
    """A bare remote under tmp_path/served, served read-write by `git daemon` on a free loopback port."""
    served = tmp_path / "served"
    served.mkdir()
    git("init", "-q", "--bare", "-b", "main", str(served / "remote.git"), cwd=tmp_path)
    for _ in range(5):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        p = subprocess.Popen(["git", "daemon", "--export-all", f"--base-path={served}", f"--port={port}",
                              "--listen=127.0.0.1", "--enable=receive-pack", "--reuseaddr", str(served)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"git://127.0.0.1:{port}/remote.git"
        for _ in range(50):
            if p.poll() is not None:
                break
            if subprocess.run(["git", "ls-remote", url], capture_output=True).returncode == 0:
                yield url, served / "remote.git"
                p.terminate()
                p.wait()
                return
            time.sleep(0.1)
        p.terminate()
        p.wait()
    pytest.fail("git daemon did not start")


def machine(tmp_path, name):
    (tmp_path / name).mkdir()
    return Diary(tmp_path / name)


def new(d, *args):
    printed = pathlib.Path(d.ok("new", *args).out.strip())
    return printed if printed.is_absolute() else d.path.parent / printed


def found_in_objects(repo):
    """Every object stored in a repository (loose or packed, reachable or not), as bytes."""
    p = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], capture_output=True, cwd=repo)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.fixture
def two(tmp_path, daemon):
    url, remote = daemon
    a, b = machine(tmp_path, "a"), machine(tmp_path, "b")
    a.init()
    keep = new(a, "Keep one", "-m", "ordinary words alpha\n", "--date", "2026-11-19 08:00")
    secret = new(a, f"Interview {SECRET_TITLE}", "-m", f"she said {SECRET_BODY} twice\n", "--date", "2026-11-20 09:00")
    ink = tmp_path / "ink.strokes.json"
    ink.write_text(json.dumps(STROKES))
    a.ok("ink", "add", secret.stem, ink)
    att = tmp_path / "consent.txt"
    att.write_text(f"signed consent of {SECRET_ATTACHMENT}\n")
    a.ok("attach", secret.stem, att)
    later = new(a, "Later note", "-m", "beta gamma\n", "--date", "2026-11-21 10:00")
    # One commit that touches the secret entry and another one: it stays, without the secret's title.
    a.ok("tag", "add", "-", "shared", input=f"{secret.stem}\n{later.stem}\n")
    a.ok("sync", "--set-remote", url)
    git("clone", "-q", url, str(b.path), cwd=tmp_path, env=b.env)
    b.ok("sync")
    return a, b, remote, keep, secret, later


def log(d):
    """Every commit on the branch: id, author date, committer date, message."""
    out = d.git("log", "--format=%H%x00%aI%x00%cI%x00%B%x01")
    return [tuple(c.strip("\n").split("\0")) for c in out.split("\x01") if c.strip()]


def test_purge_erases_everywhere_and_another_machine_keeps_its_unpushed_entry(two):
    a, b, remote, keep, secret, later = two
    unpushed = new(b, "Written on B", "-m", "delta from b\n", "--date", "2026-11-22 11:00")
    before = log(a)
    keep_commit = next(c for c in before if c[3].startswith("new: Keep one"))
    later_commit = next(c for c in before if c[3].startswith("new: Later note"))
    later_rel = later.relative_to(a.path)
    later_text = a.git("show", f"{later_commit[0]}:{later_rel}")

    r = a.run("purge", secret.stem, "--yes")
    assert r.rc == 0, r
    assert "purge will erase 1 entry:" in r.err and secret.name in r.err, r.err
    assert f"{secret.stem}.strokes.json" in r.err and f"{secret.stem}/" in r.err, r.err
    assert not secret.exists() and not secret.with_suffix("").exists()
    assert not (secret.parent / f"{secret.stem}.strokes.json").exists()
    assert a.git("status", "--porcelain") == ""
    git("fsck", "--strict", "--no-progress", cwd=a.path)

    after = log(a)
    assert after[0][3].startswith("purge: 1 entry erased from history")
    # The commits before the entry keep their ids; later ones keep message and both dates.
    assert keep_commit in after
    moved = next(c for c in after if c[3].startswith("new: Later note"))
    assert moved[1:] == later_commit[1:] and moved[0] != later_commit[0]
    assert a.git("show", f"{moved[0]}:{later_rel}") == later_text
    messages = "\n".join(c[3] for c in after)
    assert "new: Interview" not in messages and SECRET_TITLE not in messages
    assert "tag: +shared on 2 entries" in messages and "Later note" in messages and "(purged)" in messages
    record = (a.path / "purged.yml").read_text()
    assert secret.stem not in record and SECRET_TITLE.lower() not in record
    for w in WORDS:
        assert a.git("log", "--all", "--oneline", "-S", w) == "", w

    r = a.ok("sync")
    assert "replaced by the purged one" in r.err, r.err
    assert git("rev-parse", "main", cwd=remote).strip() == a.git("rev-parse", "HEAD").strip()

    # A plain remote: anyone who can push could have written the record, so B lists what would
    # go and stops, erasing and merging nothing, until told.
    head_b = b.git("rev-parse", "HEAD")
    r = b.run("sync")
    assert r.rc == 2 and secret.relative_to(a.path).with_suffix("").as_posix() in r.err and "--apply-purge" in r.err, r
    assert (b.path / secret.relative_to(a.path)).exists() and b.git("rev-parse", "HEAD") == head_b
    r = b.ok("sync", "--apply-purge")
    assert "erased 1 entry another machine purged" in r.err, r.err
    assert unpushed.exists() and "delta from b" in unpushed.read_text()
    assert not (b.path / secret.relative_to(a.path)).exists()
    assert b.git("status", "--porcelain") == ""
    a.ok("sync")
    for d in (a, b):
        titles = sorted(e["title"] for e in d.ok("ls", "--json").json())
        assert titles == ["Keep one", "Later note", "Written on B"], (d.path, titles)
        assert d.git("rev-parse", "HEAD") == a.git("rev-parse", "HEAD")
    assert keep_commit in log(b)

    # On the two machines the old objects are deleted already (loose ones, and packs rewritten),
    # with no `git gc`; the remote keeps them unreachable until its own gc.
    for repo in (a.path, b.path):
        everything = found_in_objects(repo)
        for w in WORDS:
            assert w.encode() not in everything, (repo, w)
    for repo in (a.path, b.path, remote):
        git("fsck", "--strict", "--no-progress", cwd=repo)
        for w in WORDS:
            assert git("log", "--all", "--oneline", "-S", w, cwd=repo) == "", (repo, w)
        git("gc", "--quiet", "--prune=now", cwd=repo)
        everything = found_in_objects(repo)
        assert len(everything) > 1000
        for w in WORDS:
            assert w.encode() not in everything, (repo, w)
        git("fsck", "--strict", "--no-progress", cwd=repo)


def test_unknown_entry_is_an_error_and_changes_nothing(two):
    a, *_ = two
    head = a.git("rev-parse", "HEAD")
    r = a.run("purge", "last", "2026-01-01-0000-nothing", "--yes")
    assert r.rc == 2, r
    assert "argument 2 `2026-01-01-0000-nothing`" in r.err and "no entry" in r.err, r.err
    assert a.git("rev-parse", "HEAD") == head and a.git("status", "--porcelain") == ""


def test_without_a_terminal_and_without_yes_it_refuses(two):
    a, _, _, _, secret, _ = two
    head = a.git("rev-parse", "HEAD")
    r = a.run("purge", secret.stem)
    assert r.rc == 2 and "--yes" in r.err, r
    assert secret.exists() and a.git("rev-parse", "HEAD") == head


def test_a_push_made_meanwhile_is_merged_not_overwritten(two):
    """B pushes an entry after A purged but before A syncs: A's sync must bring it in (rewritten
    without the purged entry), never replace it."""
    a, b, remote, _, secret, _ = two
    a.ok("purge", secret.stem, "--yes")
    new(b, "Pushed by B first", "-m", "epsilon\n", "--date", "2026-11-22 12:00")
    b.ok("sync")
    a.ok("sync")
    titles = sorted(e["title"] for e in a.ok("ls", "--json").json())
    assert "Pushed by B first" in titles and not any(SECRET_TITLE in t for t in titles)
    b.ok("sync", "--apply-purge")
    assert sorted(e["title"] for e in b.ok("ls", "--json").json()) == titles
    for repo in (a.path, b.path, remote):
        for w in WORDS:
            assert git("log", "--all", "--oneline", "-S", w, cwd=repo) == "", (repo, w)


def test_a_diary_packed_by_git_gc_is_cleaned_without_another_gc(two):
    """`git gc` had packed everything and written a commit-graph: purge rewrites the pack without
    the old objects and drops the graph, and git's strictest check still passes."""
    a, _, _, _, secret, _ = two
    git("gc", "--quiet", cwd=a.path)
    assert list((a.path / ".git/objects/pack").glob("*.pack"))
    r = a.run("purge", secret.stem, "--yes")
    assert r.rc == 0 and "stay in git's packs" not in r.err, r
    git("fsck", "--strict", "--no-progress", cwd=a.path)
    everything = found_in_objects(a.path)
    for w in WORDS:
        assert w.encode() not in everything, w
    assert sorted(e["title"] for e in a.ok("ls", "--json").json()) == ["Keep one", "Later note"]


def test_undo_refuses_to_undo_a_purge(two):
    a, _, _, _, secret, _ = two
    a.ok("purge", secret.stem, "--yes")
    head = a.git("rev-parse", "HEAD")
    r = a.run("undo")
    assert r.rc == 2 and "a purge cannot be undone" in r.err, r
    assert a.git("rev-parse", "HEAD") == head and (a.path / "purged.yml").exists()


def test_a_forged_purge_record_on_a_plain_remote_erases_nothing(two, tmp_path):
    """Anyone who can push writes a purge record naming one of B's entries (its id is in the file
    names of the plain history): B's sync lists it and stops; the entry, its history and the
    branch stay; a sync after the push is undone goes on as before."""
    a, b, remote, keep, secret, later = two
    import hashlib
    forger = tmp_path / "forger"
    git("clone", "-q", str(remote), str(forger), cwd=tmp_path)
    rel = keep.relative_to(a.path)
    digest = hashlib.sha256(keep.stem.encode()).hexdigest()
    (forger / "purged.yml").write_text(f"{digest}: {{folder: {rel.parent.as_posix()}, purged: 2026-11-22T10:00}}\n")
    git("add", "purged.yml", cwd=forger)
    git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "routine", cwd=forger)
    git("push", "-q", "origin", "HEAD:main", cwd=forger)
    before = b.git("rev-parse", "HEAD")
    r = b.run("sync")
    assert r.rc == 2 and rel.with_suffix("").as_posix() in r.err and "Nothing was erased or merged" in r.err, r
    assert (b.path / rel).exists() and b.git("rev-parse", "HEAD") == before and b.git("status", "--porcelain") == ""
    assert "Keep one" in [e["title"] for e in b.ok("ls", "--json").json()]


QUOTE = "she said Quixotical twice"      # coded on the purged entry: in a `code add` message
MEMO = "Marsupialist hesitation"         # the coding's memo: in a `code memo` message


def test_nothing_is_left_after_git_repack_in_messages_caches_or_another_device(two):
    """The issue's leaks, replayed: the objects packed by `git repack` on both machines, a coding
    whose quote and memo are in commit messages, the caches filled by reading commands. After the
    purge and B's sync, `git cat-file --batch-all-objects` (loose, packed, unreachable), every
    commit message, reflog and cache on A and B hold no word of the entry, and `purge --verify`
    says so; before the purge it finds them."""
    a, b, remote, keep, secret, later = two
    a.ok("code", "add", secret.stem, "disclosure", "--quote", QUOTE)
    a.ok("code", "add", secret.stem, "disclosure", "--quote", QUOTE, "--memo", MEMO)
    assert QUOTE in a.git("log", "--format=%B")
    a.ok("sync")
    b.ok("sync")
    words = WORDS + ["Marsupialist", secret.stem]
    for d in (a, b):
        d.ok("ls")
        d.ok("grep", "Quixotical")
        d.git("repack", "-a", "-d", "-q")
        assert list((d.path / ".git" / "objects" / "pack").glob("*.pack"))
        r = d.run("purge", "--verify", *words)
        assert r.rc == 1 and "Quixotical\tobject " in r.out and ".daybook/cache/" in r.out, r
    a.ok("purge", secret.stem, "--yes")
    a.ok("sync")
    b.ok("sync", "--apply-purge")
    for d in (a, b):
        everything = found_in_objects(d.path).lower()
        for w in words:
            assert w.lower().encode() not in everything, (d.path, w)
        messages = d.git("log", "--all", "--format=%B") + d.git("reflog", "--all", "--format=%gs")
        for w in words + [QUOTE]:
            assert w.lower() not in messages.lower(), (d.path, w)
        assert "code add: disclosure on (purged)" in messages or "disclosure" not in messages
        for f in (d.path / ".daybook").rglob("*"):
            if f.is_file():
                for w in words:
                    assert w.lower().encode() not in f.read_bytes().lower(), (f, w)
        r = d.run("purge", "--verify", *words)
        assert r.rc == 0 and r.out == "" and "none of the 6 words" in r.err, r
        git("fsck", "--strict", "--no-progress", cwd=d.path)
        assert sorted(e["title"] for e in d.ok("ls", "--json").json()) == ["Keep one", "Later note"]
