"""Data safety and security fixes of issue 20, each reproduced as a user would meet it."""
import os
import subprocess
import time

import pytest

READING = [["ls"], ["check"], ["stats"], ["grep", "x"], ["export", "json"], ["export", "markdown"],
           ["show", "last"], ["tag", "ls"]]


@pytest.mark.parametrize("body", ["> " * 12000 + "x #deep", "- " * 5000 + "x #deep"],
                         ids=["quotes", "lists"])
def test_deeply_nested_markdown_is_read(diary, body):
    diary.ok("new", "Deep", input=body + "\n")
    for args in READING:
        r = diary.run(*args)
        assert r.rc in (0, 1) and "Segmentation" not in r.err and "crashed" not in r.err, (args, r)
    assert "deep" in diary.ok("tag", "ls").out
    out = diary.tmp / "site"
    diary.ok("export", "html", "-o", out)
    assert (out / "index.html").exists()


def alias_bomb(levels=8, width=10):
    lines = ["a0: &a0 [x]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines)


def write_entry(diary, name, front, body="text\n"):
    p = diary.path / "entries/2026/11" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"---\n{front}\n---\n{body}")
    return p


# Inputs that took the old code quadratic time (issue 20): a line of 10,000 `*` made `ls` take 5 s
# (the title's markers were dropped one at a time, the line copied each time), 20,000 front-matter
# tags 28 s (each looked up in a list), 5,000 codings 9 s in `check` (each searched for its line
# and compared with every earlier one, and its quote in the whole body). At these sizes the old
# code takes minutes; now seconds.
LARGE = {
    "stars": ("", "*" * 100_000 + "\n"),
    "list-markers": ("", "- " * 50_000 + "x\n"),
    "tags": ("tags: [" + ", ".join(f"t{i}" for i in range(60_000)) + "]", "x\n"),
    "codings": ("codes: [" + ", ".join("{code: c%d, quote: words}" % i for i in range(20_000)) + "]", "some words\n"),
    # Each coding's quote was looked for in a body normalized again for it: 20,000 codings on 200 KB.
    "codings-long-body": ("codes: [" + ", ".join("{code: c%d, quote: words}" % i for i in range(20_000)) + "]",
                          "some words " + "x" * 200_000 + "\n"),
}


@pytest.mark.parametrize("kind", LARGE)
def test_large_generated_entries_are_read_in_seconds(diary, kind):
    front, body = LARGE[kind]
    write_entry(diary, "2026-11-21-1000-large.md", "date: 2026-11-21T10:00:00+01:00\n" + front, body)
    for args in (["ls"], ["check"], ["show", "2026-11-21-1000-large"]):
        try:
            r = diary.run(*args, timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args} on {kind} took over 60 s")
        assert r.rc in (0, 1), (args, r)
    assert "2026-11-21" in diary.ok("ls").out


def test_yaml_alias_bomb_in_an_entry_is_refused_with_its_line(diary):
    write_entry(diary, "2026-11-21-1000-bomb.md", "date: 2026-11-21T10:00:00+01:00\n" + alias_bomb())
    diary.ok("new", "-m", "fine", "Fine")
    r = diary.run("ls", timeout=20)
    assert r.rc == 0 and "Fine" in r.out, r
    assert "2026-11-21-1000-bomb.md:" in r.err and "aliases" in r.err, r
    r = diary.run("check", timeout=20)
    assert r.rc == 1 and "aliases" in r.out, r


def test_a_few_aliases_still_work(diary):
    write_entry(diary, "2026-11-21-1000-alias.md",
                "date: 2026-11-21T10:00:00+01:00\ntitle: Alias\nplace: &p Vienna\nalso: *p")
    r = diary.ok("ls", "--json")
    assert r.json()[0]["fields"]["also"] == "Vienna", r


@pytest.mark.parametrize("front,line,column,words", [
    ("codes: [{code: x, quote: {a: b}}]", 3, 26, "`quote` in a coding must be text"),
    ("codes:\n  - code: x\n    memo: [1, 2]", 5, 11, "`memo` in a coding must be text"),
    ("tags: true", 3, 7, "a tag must be text"),
    ("tags: [ok, false]", 3, 12, "a tag must be text"),
], ids=["quote", "memo", "tags-true", "tag-false"])
def test_wrong_types_are_positioned_errors(diary, front, line, column, words):
    write_entry(diary, "2026-11-21-1000-typed.md", "date: 2026-11-21T10:00:00+01:00\n" + front)
    r = diary.run("check")
    assert r.rc == 1, r
    assert f"2026-11-21-1000-typed.md:{line}:{column}: error: {words}" in r.out, r


@pytest.mark.parametrize("date", ["0000-01-01T10:00:00+01:00", "2026-11-21T10:00:60+01:00"],
                         ids=["year-0", "second-60"])
def test_impossible_dates_are_errors(diary, date):
    write_entry(diary, "2026-11-21-1000-dated.md", f"date: {date}")
    r = diary.run("check")
    assert r.rc == 1 and "2026-11-21-1000-dated.md:2:7: error: `date` must be" in r.out, r


@pytest.mark.parametrize("char", ["\x01", "\x7f", "\x1b"])
def test_control_characters_carry_line_and_column(diary, char):
    write_entry(diary, "2026-11-21-1000-ctl.md", f"date: 2026-11-21T10:00:00+01:00\ntitle: a{char}b")
    r = diary.run("check")
    assert r.rc == 1 and "2026-11-21-1000-ctl.md:3:9: error: invalid YAML" in r.out, r


@pytest.mark.parametrize("lock", [".git/index.lock", ".git/refs/heads/main.lock", ".git/HEAD.lock"])
def test_a_stale_git_lock_is_reported_removed_and_the_next_change_commits(diary, lock):
    # Stale: nothing holds it and it is older than a minute (issue 38: a fresh one may be a git's).
    (diary.path / lock).touch()
    old = time.time() - 120
    os.utime(diary.path / lock, (old, old))
    r = diary.run("check")
    assert r.rc == 1 and lock in r.out and "git lock file" in r.out, r
    r = diary.run("--diary", diary.path, "new", "-m", "x", "T")
    assert r.rc == 0, r
    assert lock in r.err and "removed" in r.err, r
    assert not (diary.path / lock).exists()
    assert "T" in diary.git("log", "-1", "--format=%s")
    assert diary.git("status", "--porcelain") == ""


def test_a_lock_a_running_process_holds_is_left_alone(diary):
    lock = diary.path / ".git/index.lock"
    with open(lock, "w"):
        r = diary.run("new", "-m", "x", "T")
        assert r.rc == 2 and lock.exists() and ".git/index.lock" in r.err and "in use" in r.err, r
    # Let go and a minute old, it is stale.
    old = time.time() - 120
    os.utime(lock, (old, old))
    diary.ok("new", "-m", "x", "T")


def test_a_symlinked_month_folder_is_never_written_through(diary):
    outside = diary.tmp / "outside"
    outside.mkdir()
    (diary.path / "entries/2026").mkdir(parents=True)
    os.symlink(outside, diary.path / "entries/2026/11")
    r = diary.run("new", "-m", "secret words", "T")
    assert r.rc == 2 and "entries/2026/11" in r.err and "symbolic link" in r.err, r
    assert list(outside.iterdir()) == []
    r = diary.run("check")
    assert r.rc == 1 and "entries/2026/11: error: a symbolic link" in r.out, r


def test_a_symlinked_entry_is_never_read(diary):
    outside = diary.tmp / "private.md"
    outside.write_text("---\ndate: 2026-11-21T10:00:00+01:00\ntitle: Private\n---\nsecret words\n")
    diary.ok("new", "-m", "public words", "Public")
    os.symlink(outside, diary.path / "entries/2026/11/2026-11-21-1000-private.md")
    for args in (["ls"], ["grep", "secret"], ["export", "json"], ["export", "markdown"], ["stats", "--json"]):
        r = diary.run(*args)
        assert "secret" not in r.out and "Private" not in r.out, (args, r)
    r = diary.run("show", "2026-11-21-1000-private")
    assert r.rc != 0 and "secret" not in r.out, r
    r = diary.run("show", "entries/2026/11/2026-11-21-1000-private.md")
    assert r.rc != 0 and "secret" not in r.out, r
    r = diary.run("check")
    assert r.rc == 1 and "2026-11-21-1000-private.md: error: a symbolic link" in r.out, r


def test_an_outside_edit_racing_tag_add_is_never_lost(tmp_path, diary):
    """Short form of bench/race.py (which runs 1,000 trials): in-place, renamed and append-mode
    outside writers against tag add and append (issue 38)."""
    from conftest import bench_module
    race = bench_module("race")
    work = tmp_path / "race"
    work.mkdir()
    lost, exits, written, agrees = race.race(diary.bin, work, 150)
    assert written > 100 and exits.get(0, 0) > 10, exits
    assert lost == [], f"{len(lost)} of {written} outside edits lost: {lost[:5]}"
    assert agrees, "reads from the entry cache differ from reads of the files after the race"


def open_to_others(root):
    """Files and folders under `root` (the repository included) that group or others may use."""
    return [f"{oct(p.stat().st_mode & 0o777)} {p.relative_to(root)}" for p in [root, *root.rglob("*")]
            if not p.is_symlink() and p.stat().st_mode & 0o077]


def test_the_repository_stays_private_under_umask_000_through_every_command_and_sync(tmp_path):
    """libgit2 writes .git's files 0666/0777 less the umask: every command, sync's fetch, merge,
    push and --set-remote included, leaves them private (a push's tracking refs and the config
    were 0666 before)."""
    from conftest import Diary
    d = Diary(tmp_path)
    remote, other = tmp_path / "remote.git", tmp_path / "other"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, env=d.env)

    def other_machine_adds(name):
        if not other.exists():
            subprocess.run(["git", "clone", "-q", str(remote), str(other)], check=True, env=d.env)
        git = lambda *a: subprocess.run(["git", *a], cwd=other, check=True, env=d.env, capture_output=True)
        git("pull", "-q")
        p = other / "entries/2026/11" / f"2026-11-20-1000-{name}.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"---\ndate: 2026-11-20T10:00:00+01:00\n---\n{name} words\n")
        git("add", "-A")
        git("commit", "-qm", name)
        git("push", "-q")

    source = tmp_path / "jrnl.json"
    source.write_text('{"entries": [{"date": "2026-11-02", "time": "09:00", "title": "I", "body": "i\\n", "tags": [], "starred": false}]}')
    steps = [("init", d.path), ("new", "-m", "private words #x", "T"), ("tag", "add", "last", "y"),
             ("tag", "rename", "y", "z"), ("code", "add", "last", "c"), ("sync", "--set-remote", remote),
             (other_machine_adds, "a"), ("sync",),  # fetch and fast-forward
             ("new", "-m", "more", "U"), (other_machine_adds, "b"), ("sync",),  # fetch, merge, push
             ("rm", "last"), ("undo",), ("import", "jrnl", source), ("check", "--fix"), ("ls",)]
    old = os.umask(0)
    try:
        for step in steps:
            if callable(step[0]):
                step[0](*step[1:])
                continue
            r = d.run(*step)
            assert r.rc == 0, (step, r)
            assert open_to_others(d.path) == [], (step, open_to_others(d.path))
    finally:
        os.umask(old)
    assert "b words" in (d.path / "entries/2026/11/2026-11-20-1000-b.md").read_text()
    assert "sync: merge" in d.git("log", "--format=%s", "main", cwd=remote)  # the merge was pushed
    # The remote is written as git would write it, under the user's umask.
    assert any(p.stat().st_mode & 0o044 for p in (remote / "objects").rglob("*") if p.is_file())


@pytest.mark.parametrize("where", ["codebook.yml", "templates/x.md", "entries/2026/10/a.md", "entries/2026/11/2026-11-20-1000-t/p.png"])
def test_temporary_files_of_a_killed_write_are_swept_anywhere(diary, where):
    diary.ok("new", "-m", "first", "T")
    p = diary.path / where
    left = p.with_name("." + p.name + ".99999999.daybook-tmp")
    left.parent.mkdir(parents=True, exist_ok=True)
    left.write_text("half a file")
    r = diary.run("check")
    assert str(left.relative_to(diary.path)) in r.out, r
    diary.ok("new", "-m", "second", "U")
    assert not left.exists()


def test_where_regex_has_grep_s_match_limit_and_warning(diary):
    write_entry(diary, "2026-11-21-1000-f.md", "date: 2026-11-21T10:00:00+01:00\ntitle: F\nf: " + "a" * 34 + "!")
    diary.ok("new", "-m", "x", "Other")
    try:
        r = diary.run("ls", "--where", "f~(a+)+$", timeout=30)  # ICU backtracking took 6.3 s on 26 characters, doubling with each
    except subprocess.TimeoutExpired:
        pytest.fail("ls --where f~(a+)+$ backtracked for over 30 s")
    assert r.rc == 1 and "2026-11-21-1000-f.md" in r.err and "gave up" in r.err, r  # 1: nothing listed
    assert "F" not in r.out, r
    assert "F" in diary.ok("ls", "--where", "f~^A+!$").out  # still case-insensitive


def test_a_linked_attachment_or_stroke_file_is_never_read(diary):
    secret = diary.tmp / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg"><title>secret words</title></svg>\n')
    diary.ok("new", "-m", "public words", "Public")
    entry = diary.entries()[0]
    folder = entry.with_suffix("")
    folder.mkdir()
    os.symlink(secret, folder / "leak.svg")
    os.symlink(secret, entry.with_suffix(".strokes.json"))
    site = diary.tmp / "site"
    diary.ok("export", "html", "-o", site)
    for f in site.rglob("*"):
        assert f.is_dir() or b"secret" not in f.read_bytes(), f
    assert not any(f.is_symlink() for f in site.rglob("*"))
    r = diary.run("show", "last", "--html")
    assert "secret" not in r.out, r
    r = diary.run("check")
    assert r.rc == 1 and "leak.svg: error: a symbolic link" in r.out and ".strokes.json: error: a symbolic link" in r.out, r
