"""Encrypted remotes (issue 16): a bare repository served by `git daemon` on 127.0.0.1 holds only
sealed data; machines with their own keys sync through it with every guarantee of a plain remote."""
import os
import signal
import subprocess
import time

import pytest
from conftest import Diary, git_daemon

WORDS = ["Zanzibar", "marmalade", "quokka", "Xylophonist", "fieldwork-umbra", "interview-xenon",
         "Test Writer", "writer@example.org", "entries/", "daybook.yml", "recipients.yml", "sync: merge"]


@pytest.fixture
def served(tmp_path):
    """A bare repository and its git:// URL on 127.0.0.1 (push enabled)."""
    base = tmp_path / "srv"
    base.mkdir()
    bare = base / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    with git_daemon(base) as port:
        yield bare, f"git://127.0.0.1:{port}/remote.git"


def machine(tmp_path, name):
    (tmp_path / name).mkdir()
    d = Diary(tmp_path / name)
    d.env["XDG_CONFIG_HOME"] = str(d.home / "config")
    return d


def keyed(tmp_path, name):
    d = machine(tmp_path, name)
    d.pub = d.ok("key", "new").out.strip()
    assert d.pub.startswith("daybook2") and len(d.pub) == 8 + 86
    d.init()
    return d


@pytest.fixture
def two(tmp_path, served):
    """Machines a and b with their own keys, both recipients, synced once through the remote."""
    bare, url = served
    a, b = keyed(tmp_path, "a"), keyed(tmp_path, "b")
    a.ok("key", "add", "a-laptop")
    a.ok("key", "add", "b-desktop", b.pub)
    a.ok("sync", "--set-remote", url, "--encrypt")
    b.ok("sync", "--set-remote", url, "--encrypt")
    a.ok("sync")
    a.url = b.url = url
    a.bare = b.bare = bare
    return a, b


def remote_objects(bare):
    return subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=bare,
                          capture_output=True, check=True).stdout


def titles(d):
    r = d.run("ls", "--json")
    assert r.rc in (0, 1), r  # 1: no entries
    return sorted(e["title"] for e in r.json())


def state(d):
    """What must not change when a sync is refused: files, HEAD and references."""
    files = {p.relative_to(d.path).as_posix(): p.read_bytes() for p in d.path.rglob("*")
             if p.is_file() and ".git" not in p.relative_to(d.path).parts and ".daybook" not in p.relative_to(d.path).parts}
    refs = d.git("for-each-ref", "--format=%(refname) %(objectname)")
    return files, d.git("rev-parse", "HEAD"), refs


def test_remote_holds_nothing_readable(two, tmp_path):
    a, b = two
    a.ok("new", "Zanzibar marmalade", "-m", "The quokka said hello.", "-t", "fieldwork-umbra",
              "--date", "2026-11-20 08:00").out.strip()
    note = tmp_path / "interview-xenon.txt"
    note.write_text("Xylophonist transcript\n")
    a.ok("attach", "last", note)
    b.ok("new", "Xylophonist notes", "-m", "Zanzibar again, marmalade twice", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b.ok("sync")
    a.ok("sync")
    assert titles(a) == titles(b) == ["Xylophonist notes", "Zanzibar marmalade"]
    assert list((b.path / "entries").rglob("*interview-xenon*"))
    blob = remote_objects(a.bare).lower()
    assert len(blob) > 1000
    for w in WORDS:
        assert w.lower().encode() not in blob, w
    # The remote's commits say nothing of their maker, and hold only `manifest` and `packs/`.
    log = subprocess.run(["git", "log", "--format=%an %ae %s %at", "main"], cwd=a.bare, capture_output=True, text=True).stdout
    assert set(log.splitlines()) == {"daybook daybook@invalid daybook encrypted remote 0"}
    tree = subprocess.run(["git", "ls-tree", "--name-only", "main"], cwd=a.bare, capture_output=True, text=True).stdout.split()
    assert tree == ["manifest", "packs"]
    # The diary itself stays plain.
    assert "quokka" in a.git("log", "-p", "--all")


def test_a_machine_without_a_key_gets_an_error_and_nothing(two, tmp_path):
    a, b = two
    a.ok("new", "Zanzibar", "-m", "secret body", "--date", "2026-11-20 08:00")
    a.ok("sync")
    c = keyed(tmp_path, "c")  # a key, but not a recipient
    before = state(c)
    r = c.run("sync", "--set-remote", a.url, "--encrypt")
    assert r.rc == 2, r
    assert "not one of the remote's recipients" in r.err and c.pub in r.err
    assert state(c)[:2] == before[:2] and "refs/remotes" not in state(c)[2]
    assert not (c.path / ".git" / "daybook" / "encrypted" / "origin.git").exists()
    d = machine(tmp_path, "d").init()  # no key at all
    before = state(d)
    r = d.run("sync", "--set-remote", a.url, "--encrypt")
    assert r.rc == 2 and "has no key" in r.err and "daybook key new" in r.err, r
    assert state(d) == before


def rewrite_remote(bare, edit):
    """Replaces the remote branch by a commit whose tree is the current one changed by `edit`
    (name -> bytes, or None to drop), as a host could."""
    def git(*args, input=None):
        return subprocess.run(["git", *args], cwd=bare, input=input, capture_output=True, check=True).stdout
    files = {}
    for line in git("ls-tree", "-r", "main").decode().splitlines():
        meta, path = line.split("\t")
        files[path] = git("cat-file", "blob", meta.split()[2])
    for path, data in edit(files).items():
        if data is None:
            files.pop(path)
        else:
            files[path] = data
    packs = "".join(f"100644 blob {git('hash-object', '-w', '--stdin', input=d).decode().strip()}\t{p[6:]}\n"
                    for p, d in files.items() if p.startswith("packs/"))
    packs_tree = git("mktree", input=packs.encode()).decode().strip()
    manifest = git("hash-object", "-w", "--stdin", input=files["manifest"]).decode().strip()
    root = git("mktree", input=f"100644 blob {manifest}\tmanifest\n040000 tree {packs_tree}\tpacks\n".encode()).decode().strip()
    commit = git("commit-tree", root, "-p", "main", "-m", "tampered").decode().strip()
    git("update-ref", "refs/heads/main", commit)


def flip(data, at):
    b = bytearray(data)
    b[at] ^= 0x01
    return bytes(b)


@pytest.mark.parametrize("damage,message", [
    (lambda f: {p: flip(d, len(d) // 2) for p, d in f.items() if p.startswith("packs/")}, "failed its integrity check"),
    (lambda f: {"manifest": flip(f["manifest"], len(f["manifest"]) - 5)}, "failed its integrity check"),
    (lambda f: {"manifest": f["manifest"][:60]}, "cut short"),
    (lambda f: {p: None for p in f if p.startswith("packs/")}, "half-written"),
])
def test_a_damaged_remote_is_refused_before_anything_is_merged(two, damage, message):
    a, b = two
    a.ok("new", "Zanzibar", "-m", "from a", "--date", "2026-11-20 08:00")
    a.ok("sync")
    rewrite_remote(a.bare, damage)
    b.ok("new", "Kept on b", "-m", "unpushed", "--date", "2026-11-20 09:00")
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2, r
    assert message in r.err and "nothing was merged" in r.err, r
    assert state(b)[:2] == before[:2]
    assert titles(b) == ["Kept on b"]


def test_a_wrong_key_is_refused(two):
    a, b = two
    a.ok("new", "Zanzibar", "-m", "from a", "--date", "2026-11-20 08:00")
    a.ok("sync")
    key = b.home / "config" / "daybook" / "key"
    key.write_text("daybook-secret-key-1 " + "A" * 43 + "\n")
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2 and "not one of the remote's recipients" in r.err, r
    assert state(b)[:2] == before[:2]
    key.write_text("not a key\n")
    r = b.run("sync")
    assert r.rc == 2 and str(key) in r.err and "damaged" in r.err, r


def test_a_killed_push_loses_nothing(two):
    a, b = two
    for i in range(30):
        a.ok("new", f"Entry {i}", "-m", f"body {i}", "--date", f"2026-11-20 08:{i:02d}")
    for delay in (0.05, 0.15, 0.3):
        a.ok("new", f"Late {delay}", "-m", "late", "--date", "2026-11-21 08:00")
        p = subprocess.Popen([a.bin, "sync"], env=a.env, cwd=a.path.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        r = b.run("sync")
        assert r.rc == 0, r  # whatever the kill left on the remote reads, or is not there yet
    a.ok("sync")
    b.ok("sync")
    assert titles(a) == titles(b) and len(titles(b)) == 33


def test_conflicting_edits_keep_both_versions(two):
    a, b = two
    a.ok("new", "Contested", "-m", "line one\nline two\n", "--date", "2026-11-20 08:00")
    a.ok("sync")
    b.ok("sync")
    pa = next(a.path.rglob("*contested.md"))
    pb = b.path / pa.relative_to(a.path)
    pa.write_text(pa.read_text().replace("line two", "line two as A saw it"))
    pb.write_text(pb.read_text().replace("line two", "line two as B saw it"))
    a.ok("sync")
    r = b.run("sync")
    assert r.rc == 0, r
    texts = "\n".join(x.read_text() for x in b.path.rglob("*.md"))
    assert "as A saw it" in texts and "as B saw it" in pb.read_text()
    assert list(pb.parent.glob(pb.stem + ".conflict-*.md"))
    assert "<<<<<<<" not in texts
    assert b.run("check").rc == 1
    assert not (b.path / ".git" / "MERGE_HEAD").exists()
    a.ok("sync")
    assert list(pa.parent.glob(pa.stem + ".conflict-*.md"))


def test_a_removed_recipient_reads_no_later_push(two):
    a, b = two
    a.ok("new", "Before", "-m", "b may read this", "--date", "2026-11-20 08:00")
    a.ok("sync")
    b.ok("sync")
    assert titles(b) == ["Before"]
    a.ok("key", "rm", "b-desktop")
    assert "b-desktop" not in a.ok("key", "ls").out
    a.ok("new", "After", "-m", "not for b", "--date", "2026-11-20 09:00")
    a.ok("sync")
    r = b.run("sync")
    assert r.rc == 2 and "not one of the remote's recipients" in r.err, r
    assert titles(b) == ["Before"]


def test_a_plain_remote_becomes_encrypted(tmp_path, served):
    bare, url = served
    a = keyed(tmp_path, "a")
    a.ok("key", "add", "a-laptop")
    a.ok("new", "Zanzibar plain", "-m", "quokka", "--date", "2026-11-20 08:00")
    a.ok("sync", "--set-remote", url)
    assert "quokka" in subprocess.run(["git", "log", "-p", "main"], cwd=bare, capture_output=True, text=True).stdout
    r = a.ok("sync", "--encrypt")
    assert "plain history was replaced" in r.err and "delete them there" in r.err, r
    reachable = subprocess.run("git rev-list --objects main | cut -d' ' -f1 | git cat-file --batch",
                               shell=True, cwd=bare, capture_output=True).stdout.lower()
    for w in WORDS[:3]:
        assert w.lower().encode() not in reachable, w
    assert subprocess.run(["git", "rev-list", "--count", "main"], cwd=bare, capture_output=True, text=True).stdout.strip() == "1"
    # The next syncs go on from the new history, on this machine and on another recipient's.
    a.ok("new", "After the switch", "-m", "sealed", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b = keyed(tmp_path, "b")
    a.ok("key", "add", "b", b.pub)
    a.ok("sync")
    b.ok("sync", "--set-remote", url, "--encrypt")
    assert titles(b) == titles(a) == ["After the switch", "Zanzibar plain"]
    # A plain sync to it is refused, and writes nothing.
    p = machine(tmp_path, "p").init()
    before = state(p)
    r = p.run("sync", "--set-remote", url)
    assert r.rc == 2 and "is an encrypted remote" in r.err, r
    assert state(p)[:2] == before[:2]
    assert titles(p) == []


def remote_log(bare):
    # A sealed manifest is random bytes, which git may print as text: not UTF-8.
    return subprocess.run(["git", "log", "-p", "main"], cwd=bare, capture_output=True).stdout.decode("utf-8", "replace")


def encrypted_mark(d):
    return subprocess.run(["git", "config", "--get", "remote.origin.daybookencrypted"], cwd=d.path,
                          capture_output=True, text=True).stdout.strip()


def test_encryption_is_turned_off_and_the_other_machine_follows(two):
    a, b = two
    a.ok("new", "Zanzibar marmalade", "-m", "The quokka said hello.", "--date", "2026-11-20 08:00")
    a.ok("sync")
    b.ok("sync")
    b.ok("new", "Kept on b", "-m", "Xylophonist, not pushed yet", "--date", "2026-11-20 10:00")
    a.ok("new", "Written on a", "-m", "interview-xenon, not pushed yet", "--date", "2026-11-20 09:00")
    # Refused: not with --no-push, not for a plain remote; nothing is fetched or pushed.
    r = a.run("sync", "--no-encrypt", "--no-push")
    assert r.rc == 2 and "--no-push" in r.err, r
    sealed = subprocess.run(["git", "rev-parse", "main"], cwd=a.bare, capture_output=True, text=True).stdout
    assert "quokka" not in remote_log(a.bare)
    r = a.ok("sync", "--no-encrypt")
    assert "encrypted history was replaced by the plain one" in r.err and "the remote is no longer encrypted" in r.err, r
    log = remote_log(a.bare)
    assert "quokka" in log and "interview-xenon" in log and "Written on a" in log
    assert subprocess.run(["git", "rev-parse", "main"], cwd=a.bare, capture_output=True, text=True).stdout != sealed
    tree = subprocess.run(["git", "ls-tree", "--name-only", "main"], cwd=a.bare, capture_output=True, text=True).stdout.split()
    assert "entries" in tree and "daybook.yml" in tree and "manifest" not in tree and "packs" not in tree
    assert encrypted_mark(a) == ""
    assert not (a.path / ".git" / "daybook" / "encrypted" / "origin.git").exists()
    r = a.run("sync", "--no-encrypt")
    assert r.rc == 2 and "not an encrypted remote" in r.err, r
    # b still marks it encrypted: a plain history where it read a sealed one is refused, and the
    # message names the way to follow; nothing is merged.
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2 and "daybook sync origin --no-encrypt" in r.err, r
    assert state(b)[:2] == before[:2]
    r = b.ok("sync", "--no-encrypt")
    assert "the remote is no longer encrypted" in r.err and "encrypted history was replaced" not in r.err, r
    assert encrypted_mark(b) == ""
    assert "Xylophonist" in remote_log(a.bare)
    a.ok("sync")
    assert titles(a) == titles(b) == ["Kept on b", "Written on a", "Zanzibar marmalade"]
    # A plain machine with no key at all can now clone it.
    p = machine(a.path.parent, "p").init()
    p.ok("sync", "--set-remote", a.url)
    assert titles(p) == titles(a)


def fingerprint(text):
    """As daybook-key(1) defines it: SHA-256 of the key's bytes, the first 10 bytes in five groups."""
    import base64
    import hashlib
    raw = base64.urlsafe_b64decode(text[8:] + "=" * (-len(text[8:]) % 4))
    h = hashlib.sha256(raw).hexdigest()[:20]
    return "-".join(h[i:i + 4] for i in range(0, 20, 4))


def test_keys(tmp_path):
    d = machine(tmp_path, "k")
    r = d.run("key", "add", "me")
    assert r.rc == 2 and "has no key" in r.err, r
    pub = d.ok("key", "new").out.strip()
    f = d.home / "config" / "daybook" / "key"
    assert oct(f.stat().st_mode & 0o777) == "0o600" and oct(f.parent.stat().st_mode & 0o777) == "0o700"
    assert pub not in f.read_text()
    r = d.run("key", "new")
    assert r.rc == 2 and "not replaced" in r.err and f.read_text().startswith("daybook-secret-key-1 ")
    d.init()
    assert d.run("key", "ls").rc == 1
    d.ok("key", "add", "me")
    d.ok("key", "add", "supervisor", "daybook1" + "Ag" * 21 + "A")
    r = d.run("key", "add", "bad", "daybook1short")
    assert r.rc == 2 and "43 base64url" in r.err, r
    r = d.run("key", "add", "bad name", pub)
    assert r.rc == 2 and "not a recipient name" in r.err, r
    sup = "daybook1" + "Ag" * 21 + "A"
    assert d.ok("key", "ls").out.splitlines() == [f"me {pub} {fingerprint(pub)} (this device)",
                                                  f"supervisor {sup} {fingerprint(sup)} (cannot sign)"]
    text = (d.path / "recipients.yml").read_text()
    assert text.startswith("#") and f"me: {pub}\n" in text
    d.ok("key", "rm", "supervisor")
    assert (d.path / "recipients.yml").read_text() == text.replace("supervisor: daybook1" + "Ag" * 21 + "A\n", "")
    assert d.git("log", "-1", "--format=%s") == "key: remove recipient supervisor\n"
    assert d.run("key", "rm", "supervisor").rc == 1


def test_a_remote_that_goes_back_in_time_is_refused(two):
    a, b = two
    a.ok("new", "First", "-m", "one", "--date", "2026-11-20 08:00")
    a.ok("sync")
    a.ok("new", "Second", "-m", "two", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b.ok("sync")
    subprocess.run(["git", "update-ref", "refs/heads/main", "main~1"], cwd=b.bare, check=True)
    b.ok("new", "Kept on b", "-m", "unpushed", "--date", "2026-11-20 10:00")
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2 and "went back to an older state" in r.err and "nothing was merged" in r.err, r
    assert state(b)[:2] == before[:2]
    assert titles(b) == ["First", "Kept on b", "Second"]


def test_a_purge_replaces_the_sealed_history_and_reaches_the_other_machine(two):
    """Purge over an encrypted remote: A purges and syncs (a new sealed history of one pack); B,
    with an unpushed entry, syncs and erases the entry from its own history; no object left on A
    or B holds the purged words, and the remote's sealed packs are replaced, not added to."""
    a, b = two
    a.ok("new", "Quokka interview", "-m", "Zanzibar marmalade transcript", "--date", "2026-11-20 08:00")
    a.ok("new", "Keep this", "-m", "ordinary notes", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b.ok("sync")
    b.ok("new", "Written on B", "-m", "delta from b", "--date", "2026-11-21 10:00")
    # The objects B read from the remote, and A's, packed by git; the caches filled.
    for d in (a, b):
        d.ok("ls")
        subprocess.run(["git", "repack", "-a", "-d", "-q"], cwd=d.path, check=True)
    packs_before = set(subprocess.run(["git", "ls-tree", "-r", "--name-only", "main"], cwd=a.bare, capture_output=True,
                                      text=True, check=True).stdout.split())
    victim = next(e["id"] for e in a.ok("ls", "--json").json() if e["title"] == "Quokka interview")
    a.ok("purge", victim, "--yes")
    r = a.ok("sync")
    assert "replaced" in r.err, r.err
    packs_after = set(subprocess.run(["git", "ls-tree", "-r", "--name-only", "main"], cwd=a.bare, capture_output=True,
                                     text=True, check=True).stdout.split())
    # One new root with one pack: none of the packs that held the entry is in the new tree.
    assert not (packs_before & packs_after - {"manifest"}), (packs_before, packs_after)
    assert subprocess.run(["git", "rev-list", "--count", "main"], cwd=a.bare, capture_output=True, text=True,
                          check=True).stdout.strip() == "1"
    r = b.ok("sync")
    assert "erased 1 entry another machine purged" in r.err, r.err
    a.ok("sync")
    for d in (a, b):
        assert titles(d) == ["Keep this", "Written on B"], d.path
        objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=d.path, capture_output=True,
                                 check=True).stdout
        for w in ("Zanzibar", "marmalade", "Quokka interview"):
            assert w.encode() not in objects, (d.path, w)
        assert d.git("status", "--porcelain") == ""
        for f in (d.path / ".daybook").rglob("*"):
            assert not f.is_file() or b"zanzibar" not in f.read_bytes().lower(), f
        r = d.run("purge", "--verify", "Zanzibar", "marmalade", "Quokka interview", victim)
        assert r.rc == 0 and r.out == "", r
