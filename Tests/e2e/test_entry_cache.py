"""The entry cache after a mutation (issue 19): `new`, `tag add` and the other mutations append the
records of the entries they changed to `.daybook/cache/entries.journal` (the cache file,
`entries.bin`, is not written), so the next reading command finds every record valid and writes
neither; a file changed behind daybook's back within the same second, to the same size and
modification time, is still seen."""
import os

LATER = "2026-11-21T13:00:00+01:00"


def cache_file(diary, name="entries.bin"):
    return diary.path / ".daybook" / "cache" / name


def stamp(path):
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def cache_stamp(diary):
    """The stamps of the cache file and of its journal."""
    return (stamp(cache_file(diary)), stamp(cache_file(diary, "entries.journal")))


def test_new_writes_its_record_and_the_next_ls_writes_nothing(diary):
    diary.ok("new", "-m", "First words of the day.")
    assert "First words" in diary.ok("ls").out  # builds the cache
    before = cache_stamp(diary)
    assert before[1] is None
    diary.ok("new", "-m", "Second thoughts at one.", env={"DAYBOOK_NOW": LATER})
    written = cache_stamp(diary)
    assert written[0] == before[0], "new did not write the cache file"
    assert written[1] is not None, "new wrote its record into the journal"
    out = diary.ok("ls").out
    assert "First words" in out and "Second thoughts" in out
    assert cache_stamp(diary) == written, "ls found every record valid and wrote nothing"
    assert "Second thoughts" in diary.ok("ls", "--last", "1").out
    assert cache_stamp(diary) == written


def test_tag_add_writes_its_record_and_the_next_reads_write_nothing(diary):
    diary.ok("new", "-m", "Ward rounds.")
    diary.ok("ls")
    diary.ok("tag", "add", "last", "wardnine")
    written = cache_stamp(diary)
    assert "wardnine" in diary.ok("tag", "ls").out
    assert "Ward rounds" in diary.ok("ls", "--tag", "wardnine").out
    diary.ok("stats")
    assert cache_stamp(diary) == written
    diary.ok("tag", "rm", "last", "wardnine")
    written = cache_stamp(diary)
    assert "wardnine" not in diary.run("tag", "ls").out
    assert cache_stamp(diary) == written


def test_an_outside_edit_of_the_same_size_and_time_is_seen(diary):
    diary.ok("new", "-m", "alpha words here")
    diary.ok("ls")
    [entry] = diary.entries()
    diary.ok("new", "-m", "another entry", env={"DAYBOOK_NOW": LATER})  # writes the cache with the racy record
    assert "alpha words" in diary.ok("ls").out
    st = os.stat(entry)
    text = entry.read_text()
    changed = text.replace("alpha words here", "omega words here")
    assert len(changed.encode()) == len(text.encode())
    with open(entry, "r+") as f:  # in place: the same inode
        f.write(changed)
    os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(entry).st_mtime_ns == st.st_mtime_ns and os.stat(entry).st_size == st.st_size
    out = diary.ok("ls").out
    assert "omega words" in out and "alpha words" not in out
    assert "omega words" in diary.ok("ls").out


def test_a_removed_entry_leaves_the_cache(diary):
    diary.ok("new", "-m", "Keep this one.")
    diary.ok("new", "-m", "Remove this one.", env={"DAYBOOK_NOW": LATER})
    diary.ok("ls")
    r = diary.run("rm", "last", "--yes")
    if r.rc != 0:
        r = diary.ok("rm", "last")
    written = cache_stamp(diary)
    out = diary.ok("ls").out
    assert "Keep this one" in out and "Remove this one" not in out
    assert cache_stamp(diary) == written


def test_the_first_command_after_a_clone_reads_only_regular_entry_files(diary):
    """Without a cache the walk stats no file: each entry is stamped from the file it opens. A pipe,
    a folder or a symbolic link named like an entry is no entry, and a pipe is never waited on."""
    diary.ok("new", "-m", "Real words of the night.")
    [entry] = diary.entries()
    folder = entry.parent
    os.mkfifo(folder / "2026-11-20-0900-pipe.md")
    (folder / "2026-11-20-1000-folder.md").mkdir()
    os.symlink(entry, folder / "2026-11-20-1100-link.md")
    cache = cache_file(diary)
    if cache.exists():
        cache.unlink()
    out = diary.ok("ls", timeout=30)  # a pipe opened for reading would wait for a writer forever
    assert "Real words" in out.out
    assert "pipe" not in out.out and "folder" not in out.out and "link" not in out.out
    assert out.err == "", out.err  # not even a file that could not be read
    written = cache_stamp(diary)
    assert "Real words" in diary.ok("ls").out
    assert cache_stamp(diary) == written, "the stamps taken from the opened files hold on the next run"


def tallies_file(diary):
    return diary.path / ".daybook" / "cache" / "tallies.bin"


def test_tag_ls_and_stats_sum_folder_tallies_that_follow_every_change(diary):
    """`tag ls` and `stats` without filters add up the tallies kept per month folder
    (`.daybook/cache/tallies.bin`); a folder whose files changed in any way is tallied again."""
    diary.ok("new", "-m", "alpha #ward here")
    diary.ok("new", "-m", "older #home note", env={"DAYBOOK_NOW": "2026-10-02T09:00:00+02:00"})
    assert "1 #ward" in diary.ok("tag", "ls").out
    st = os.stat(tallies_file(diary))
    kept = (st.st_ino, st.st_mtime_ns)
    assert "#ward" in diary.ok("stats").out
    st = os.stat(tallies_file(diary))
    assert (st.st_ino, st.st_mtime_ns) == kept, "nothing changed: the file is not written again"

    # A mutation, then an outside edit of the same size and modification time (a racy file).
    diary.ok("tag", "add", "last", "night")
    assert "1 #night" in diary.ok("tag", "ls").out
    entry = next(p for p in diary.entries() if "alpha" in p.read_text())
    st = os.stat(entry)
    text = entry.read_text()
    changed = text.replace("#ward", "#wand")
    with open(entry, "r+") as f:
        f.write(changed)
    os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns))
    out = diary.ok("tag", "ls").out
    assert "1 #wand" in out and "#ward" not in out
    assert "#wand" in diary.ok("stats").out

    # A filter takes every entry as before.
    assert diary.ok("tag", "ls", "--on", "2026-10").out.split() == ["1", "#home"]
    assert "entries       1" in diary.ok("stats", "--on", "2026-10").out
